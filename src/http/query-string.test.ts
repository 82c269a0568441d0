import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MALFORMED, parseQueryString } from './query-string.js';

describe('parseQueryString', () => {
  it('percent-decodes names and values', () => {
    const q = parseQueryString('email=john%40gmail.com&fields=age%2Cgender&api_key=k');
    expect({ ...q }).toEqual({ email: 'john@gmail.com', fields: 'age,gender', api_key: 'k' });
  });

  it('keeps a plus sign literal', () => {
    expect(parseQueryString('email=jane+news@example.com').email).toBe('jane+news@example.com');
    expect(parseQueryString('email=jane%2Bnews@example.com').email).toBe('jane+news@example.com');
  });

  it('collects repeated names into an array', () => {
    expect(parseQueryString('email=a&email=b').email).toEqual(['a', 'b']);
  });

  it('reads a bare name as an empty value and skips empty pairs', () => {
    expect({ ...parseQueryString('email&&x=1') }).toEqual({ email: '', x: '1' });
  });

  it('flags malformed percent-encoding instead of throwing', () => {
    expect(parseQueryString('email=%E0%A4%A')[MALFORMED]).toBe(true);
    expect(parseQueryString('email=100%')[MALFORMED]).toBe(true);
  });

  it('flags a flood of parameters', () => {
    expect(parseQueryString(Array.from({ length: 65 }, (_, i) => `p${i}=1`).join('&'))[MALFORMED]).toBe(true);
  });

  it('cannot be used to pollute prototypes', () => {
    const q = parseQueryString('__proto__=x&constructor=y');
    expect(q.__proto__).toBe('x');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('round-trips any encoded value and never throws', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (value) => {
        expect(parseQueryString(`v=${encodeURIComponent(value)}`).v).toBe(value);
      }),
    );
    fc.assert(
      fc.property(fc.string(), (raw) => {
        parseQueryString(raw);
      }),
    );
  });
});
