import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mailboxKey } from '../../../people/mailbox.js';
import { mailboxKey0014 } from './0014-mailbox.js';

describe("0014's frozen mailbox key", () => {
  it('gives fixed values', () => {
    expect(mailboxKey0014('J.O.H.N.Smith+News@GoogleMail.com')).toBe('johnsmith@gmail.com');
    expect(mailboxKey0014('john.smith+news@outlook.com')).toBe('john.smith@outlook.com');
    expect(mailboxKey0014('john.smith@yahoo.com')).toBeUndefined();
    expect(mailboxKey0014('ana@example.com')).toBeUndefined();
  });

  it('agrees with the live key while the rules are those of 0014 (a change to them needs a migration)', () => {
    const address = fc.tuple(
      fc.string({ unit: fc.constantFrom(...'ab.+-_1"'), maxLength: 8 }),
      fc.constantFrom(
        'gmail.com',
        'googlemail.com',
        'outlook.com',
        'hotmail.com',
        'live.com',
        'msn.com',
        'icloud.com',
        'me.com',
        'mac.com',
        'fastmail.com',
        'fastmail.fm',
        'protonmail.com',
        'protonmail.ch',
        'proton.me',
        'pm.me',
        'yahoo.com',
        'aol.com',
        'example.com',
      ),
    );
    fc.assert(
      fc.property(address, ([local, domain]) => {
        expect(mailboxKey0014(`${local}@${domain}`)).toBe(mailboxKey(`${local}@${domain}`));
      }),
      { numRuns: 500 },
    );
  });
});
