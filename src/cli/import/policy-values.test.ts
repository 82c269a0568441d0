import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValueRow, valueRecord } from './policy-values.js';

describe('policy files without a header', () => {
  it('takes a first line of one value for data, and email or domain for a header', () => {
    expect(isValueRow(['trap@example.com'])).toBe(true);
    expect(isValueRow(['spam.example'])).toBe(true);
    expect(isValueRow(['\uFEFFEmail '])).toBe(false);
    expect(isValueRow(['DOMAIN'])).toBe(false);
    expect(isValueRow(['email', 'domain'])).toBe(false);
    expect(isValueRow(['a@example.com', 'note'])).toBe(false);
  });

  it('reads a value with an @ as an address and any other as a domain (property)', () => {
    const part = fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,20}$/);
    fc.assert(
      fc.property(part, part, fc.constantFrom('', ' ', '\t'), (local, domain, pad) => {
        expect(valueRecord([`${pad}${local}@${domain}${pad}`])).toEqual({ record: { email: `${local}@${domain}` } });
        expect(valueRecord([`${pad}${domain}`])).toEqual({ record: { domain } });
        // Header detection never takes a value for a header unless it is one of the two names.
        expect(isValueRow([domain])).toBe(domain !== 'email' && domain !== 'domain');
      }),
    );
    expect(valueRecord(['a@example.com', 'b@example.com'])).toEqual({
      problem: 'more than one value on a line of a file without a header',
    });
  });
});
