import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseEnrichQuery } from './enrich-query.js';

const word = fc.stringMatching(/^[A-Za-z][A-Za-z .'-]{0,20}$/);
/** Any mix of name and postal parameters, each well-formed, some or all missing. */
const nameAndPostal = fc.record(
  {
    first: word,
    middle: word,
    last: word,
    street: word,
    city: word,
    state: fc.constantFrom('IL', 'tx', 'NY'),
    zip: fc.stringMatching(/^\d{5}(-\d{4})?$/),
  },
  { requiredKeys: [] },
);
const identifier = fc.oneof(
  fc.constantFrom('jane.doe@example.com', ' Jane.Doe@Example.COM ').map((email) => ({ email })),
  fc.constant({ sha1_email: 'a'.repeat(40) }),
  fc.constant({ md5_email: 'B'.repeat(32) }),
);

describe('parseEnrichQuery', () => {
  it('takes an address (or its hash) with any partial name or postal address, ignoring the parts that identify nobody', () => {
    fc.assert(
      fc.property(identifier, nameAndPostal, (id, rest) => {
        const parsed = parseEnrichQuery({ ...rest, ...id });
        expect(parsed).toHaveProperty('query');
        if (!('query' in parsed)) return;
        if ('email' in id) expect(parsed.query.email).toBe('jane.doe@example.com');
        // A name is kept only with a postal address that identifies someone by itself.
        if (parsed.query.name) expect(rest.first !== undefined && rest.last !== undefined).toBe(true);
        else expect(parsed.query.postal).toBeUndefined();
      }),
    );
  });

  it('still needs first and last for a lookup by name and postal address alone', () => {
    expect(parseEnrichQuery({ first: 'Jane', zip: '62701-1234' })).toEqual({ error: 'Missing required parameter: last' });
    expect(parseEnrichQuery({ last: 'Doe', zip: '62701-1234' })).toEqual({ error: 'Missing required parameter: first' });
    expect(parseEnrichQuery({ street: '1 Main St', city: 'X', state: 'IL' })).toEqual({
      error: 'Invalid parameter street: a postal address needs first and last',
    });
  });

  it('keeps refusing malformed values sent with an address', () => {
    expect(parseEnrichQuery({ email: 'jane.doe@example.com', first: 'Jane', zip: '1234' })).toEqual({
      error: 'Invalid parameter zip: must be five digits, optionally a dash and four digits',
    });
  });
});
