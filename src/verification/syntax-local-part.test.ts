import { describe, expect, it } from 'vitest';
import { findQuoteEnd, localCharFault, localStructureFault, standardizeLocal, unquoteLocal } from './syntax-local-part.js';

describe('findQuoteEnd', () => {
  it('skips escaped quotes', () => {
    expect(findQuoteEnd('"a\\"b"@x', 0)).toBe(5);
    expect(findQuoteEnd('"a\\"', 0)).toBe(-1);
    expect(findQuoteEnd('""', 0)).toBe(1);
  });
});

describe('localCharFault', () => {
  it.each(['a.b', "!#$%&'*+-/=?^_`{|}~", 'ñoñó', '"any (thing)"', 'a"b'])('%j has no foreign character', (local) => {
    expect(localCharFault(local)).toBeNull();
  });

  it.each(['a(b', 'a)b', 'a,b', 'a:b', 'a;b', 'a<b', 'a>b', 'a[b', 'a]b', 'a\\b'])('%j has one', (local) => {
    expect(localCharFault(local)).toMatchObject({ code: 110 });
  });
});

describe('localStructureFault', () => {
  it.each(['a', 'a.b.c', '""', '"a b"', '"a\\"b"', '"a..b"', '"a\\\\"'])('%j is well formed', (local) => {
    expect(localStructureFault(local)).toBeNull();
  });

  it.each([
    ['.a', 'local-leading-dot'],
    ['a.', 'local-trailing-dot'],
    ['a..b', 'local-consecutive-dots'],
    ['a"b', 'misplaced-quote'],
    ['"a', 'unclosed-quote'],
    ['"a"b', 'text-after-quoted-string'],
    ['"a"."b"', 'text-after-quoted-string'],
    ['"a\\é"', 'invalid-quoted-pair'],
  ])('%j → %s', (local, rule) => {
    expect(localStructureFault(local)).toMatchObject({ code: 120, rule });
  });
});

describe('standardizeLocal / unquoteLocal', () => {
  it('lower-cases unquoted usernames and keeps quoted ones', () => {
    expect(standardizeLocal('John.Doe', true)).toBe('john.doe');
    expect(standardizeLocal('"John Doe"', true)).toBe('"John Doe"');
    expect(standardizeLocal('JOSE\u0301', false)).toBe('jos\u00e9');
  });

  it('reads a quoted username as a person would', () => {
    expect(unquoteLocal('"a\\"b"')).toBe('a"b');
    expect(unquoteLocal('plain')).toBe('plain');
  });
});
