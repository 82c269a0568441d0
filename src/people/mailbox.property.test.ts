import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mailboxKey } from './mailbox.js';
import { MAILBOX_RULES } from './mailbox-rules.js';

const letters = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), minLength: 1, maxLength: 12 });
const tag = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_.+'), maxLength: 10 });
const ruled = fc.constantFrom(...MAILBOX_RULES.keys());
const plusOnly = fc.constantFrom(...[...MAILBOX_RULES].filter(([, rule]) => !rule.ignoresDots).map(([domain]) => domain));
const gmail = fc.constantFrom('gmail.com', 'googlemail.com');
/** Domains without a rule, some of them close to one that has one. */
const unruled = fc.constantFrom(
  'yahoo.com',
  'aol.com',
  'example.com',
  'mygmail.com',
  'gmail.com.example.org',
  'mail.outlook.com',
  'gmail.co',
);

/** Dots put between the characters of `local` at the positions chosen. */
function dotted(local: string, at: readonly boolean[]): string {
  return [...local].map((ch, i) => (i > 0 && at[i] ? `.${ch}` : ch)).join('');
}

const runs = { numRuns: 500 };

describe('mailboxKey', () => {
  it('is stable: a key is its own key', () => {
    fc.assert(
      fc.property(letters, tag, ruled, (local, t, domain) => {
        const key = mailboxKey(`${local}+${t}@${domain}`);
        expect(key).toBeDefined();
        expect(mailboxKey(key!)).toBe(key);
      }),
      runs,
    );
  });

  it('finds one Gmail mailbox whatever the dots, the tag, the case and googlemail.com', () => {
    fc.assert(
      fc.property(letters, fc.array(fc.boolean(), { maxLength: 12 }), tag, gmail, fc.boolean(), (local, at, t, domain, upper) => {
        let written = `${dotted(local, at)}${t === '' ? '' : `+${t}`}@${domain}`;
        if (upper) written = written.toUpperCase();
        expect(mailboxKey(` ${written} `)).toBe(`${local}@gmail.com`);
      }),
      runs,
    );
  });

  it('drops the tag but keeps the dots at the providers where dots make another mailbox', () => {
    fc.assert(
      fc.property(letters, letters, tag, plusOnly, (a, b, t, domain) => {
        expect(mailboxKey(`${a}.${b}+${t}@${domain}`)).toBe(`${a}.${b}@${domain}`);
        expect(mailboxKey(`${a}.${b}@${domain}`)).not.toBe(mailboxKey(`${a}${b}@${domain}`));
      }),
      runs,
    );
  });

  it('gives no key to a domain without a rule, whatever its dots or tags', () => {
    fc.assert(
      fc.property(letters, tag, unruled, (local, t, domain) => {
        expect(mailboxKey(`${local}+${t}@${domain}`)).toBeUndefined();
        expect(mailboxKey(`${local}.x@${domain}`)).toBeUndefined();
      }),
      runs,
    );
  });

  it('never changes the domain of an address, except googlemail.com to gmail.com', () => {
    fc.assert(
      fc.property(letters, tag, ruled, (local, t, domain) => {
        const key = mailboxKey(`${local}+${t}@${domain}`)!;
        expect(key.slice(key.indexOf('@') + 1)).toBe(domain === 'googlemail.com' ? 'gmail.com' : domain);
      }),
      runs,
    );
  });

  it('leaves what is not a plain address alone', () => {
    expect(mailboxKey('gmail.com')).toBeUndefined();
    expect(mailboxKey('@gmail.com')).toBeUndefined();
    expect(mailboxKey('+news@gmail.com')).toBeUndefined();
    expect(mailboxKey('...@gmail.com')).toBeUndefined();
    expect(mailboxKey('"john smith"@gmail.com')).toBeUndefined();
  });

  it('keeps Yahoo, AOL and a hosted domain as written (examples)', () => {
    expect(mailboxKey('john.smith@yahoo.com')).toBeUndefined();
    expect(mailboxKey('john-smith@yahoo.com')).toBeUndefined();
    expect(mailboxKey('john.smith@aol.com')).toBeUndefined();
    expect(mailboxKey('john.smith+x@acme-corp.com')).toBeUndefined();
    expect(mailboxKey('J.O.H.N.Smith+News@GoogleMail.com')).toBe('johnsmith@gmail.com');
    expect(mailboxKey('john.smith+news@outlook.com')).toBe('john.smith@outlook.com');
  });
});
