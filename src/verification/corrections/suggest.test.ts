import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifySyntax } from '../syntax.js';
import { POPULAR_DOMAINS } from './popular-domains.js';
import { likelyReadings, MAX_CORRECTIONS, suggestCorrections } from './suggest.js';

// Usernames here are at least six characters: Gmail issues no shorter ones, so `john@gmail.com`
// is not a possible address and is never suggested (see "provider usernames" below).
const first = (input: string, known?: ReadonlySet<string>): string | null => suggestCorrections(input, { knownDomains: known })[0] ?? null;

describe('suggestCorrections: syntax fixes', () => {
  it.each([
    ['outer white space (code 210)', ' johnsmith@gmail.com\t', 'johnsmith@gmail.com'],
    ['trailing dot (code 210)', 'johnsmith@gmail.com.', 'johnsmith@gmail.com'],
    ['inner space (code 215)', 'john smith@gmail.com', 'johnsmith@gmail.com'],
    ['spaces around @', 'johnsmith @ gmail.com', 'johnsmith@gmail.com'],
    ['doubled @', 'johnsmith@@gmail.com', 'johnsmith@gmail.com'],
    ['comma for a dot in the domain', 'johnsmith@gmail,com', 'johnsmith@gmail.com'],
    ['comma for a dot in the username', 'john,smith@gmail.com', 'john.smith@gmail.com'],
    ['doubled dot in the domain', 'johnsmith@gmail..com', 'johnsmith@gmail.com'],
    ['doubled dot in the username', 'john..smith@gmail.com', 'john.smith@gmail.com'],
    ['dot before the @', 'johnsmith.@gmail.com', 'johnsmith@gmail.com'],
    ['dot after the @', 'john@.example.com', 'john@example.com'],
    ['leading dot', '.john@example.com', 'john@example.com'],
    ['mailto: prefix', 'mailto:johnsmith@gmail.com', 'johnsmith@gmail.com'],
    ['MAILTO: prefix', 'MAILTO:john@example.com', 'john@example.com'],
    ['angle brackets', '<john@example.com>', 'john@example.com'],
    ['display name', 'John Smith <john@example.com>', 'john@example.com'],
    ['double quotes around', '"john@example.com"', 'john@example.com'],
    ['single quotes around', "'john@example.com'", 'john@example.com'],
    ['parentheses around', '(john@example.com)', 'john@example.com'],
    ['trailing >', 'john@example.com>', 'john@example.com'],
    ['trailing ,', 'john@example.com,', 'john@example.com'],
    ['trailing ;', 'john@example.com;', 'john@example.com'],
    ['trailing quote', 'john@example.com"', 'john@example.com'],
    ['trailing backslash', 'john@example.com\\', 'john@example.com'],
    ['# in the domain', 'john@#example.com', 'john@example.com'],
    ['/ in the domain', 'john@example.com/.au', 'john@example.com.au'],
    ['leading hyphen in the domain', 'john@-example.com', 'john@example.com'],
    ['missing @ before a popular domain', 'johnsmithgmail.com', 'johnsmith@gmail.com'],
    ['dot instead of @ before a popular domain', 'johnsmith.hotmail.com', 'johnsmith@hotmail.com'],
    ['(at) for @', 'john(at)example.com', 'john@example.com'],
    ['stray backtick before a valid address', '`john@example.com', 'john@example.com'],
    ['# typed before the @ of a valid address', 'john#@example.com', 'john@example.com'],
  ])('%s: %j → %s', (_fix, input, expected) => {
    expect(first(input)).toBe(expected);
  });

  it('keeps a quoted username whole while fixing the domain', () => {
    expect(first('"john doe"@example.con')).toBe('"john doe"@example.com');
  });

  it('after `.co`, a key beside m means .com; a dot or > means the trimmed form first', () => {
    expect(suggestCorrections('john@example.co,')[0]).toBe('john@example.com');
    expect(suggestCorrections('john@example.co<')[0]).toBe('john@example.com');
    expect(suggestCorrections('john@example.co.')).toEqual(['john@example.co', 'john@example.com']);
    expect(suggestCorrections('john@example.co>')).toEqual(['john@example.co', 'john@example.com']);
  });
});

describe('suggestCorrections: domain typos towards popular domains', () => {
  it.each([
    ['johnsmith@gmial.com', 'johnsmith@gmail.com'],
    ['johnsmith@gmai.com', 'johnsmith@gmail.com'],
    ['johnsmith@gnail.com', 'johnsmith@gmail.com'],
    ['johnsmith@gamil.com', 'johnsmith@gmail.com'],
    ['johnsmith@gmaill.com', 'johnsmith@gmail.com'],
    ['JohnSmith@GMIAL.COM', 'johnsmith@gmail.com'],
    ['john@hotnail.com', 'john@hotmail.com'],
    ['john@hotmial.com', 'john@hotmail.com'],
    ['john@otmail.com', 'john@hotmail.com'],
    ['john@yaho.com', 'john@yahoo.com'],
    ['john@yahooo.com', 'john@yahoo.com'],
    ['john@uahoo.com', 'john@yahoo.com'],
    ['john@outlok.com', 'john@outlook.com'],
    ['john@iclod.com', 'john@icloud.com'],
    ['john@ao.com', 'john@aol.com'],
    ['john@concast.net', 'john@comcast.net'],
    ['john@verzon.net', 'john@verizon.net'],
    ['johnsmith@googlemial.com', 'johnsmith@googlemail.com'],
    ['user@yandx.ru', 'user@yandex.ru'],
  ])('%s → %s', (input, expected) => {
    expect(first(input)).toBe(expected);
  });

  it.each([
    ['brand under another generic TLD', 'johnsmith@gmail.net', 'johnsmith@gmail.com'],
    ['brand under .co', 'john@hotmail.co', 'john@hotmail.com'],
    ['brand typo under another generic TLD', 'johnsmith@goooglemail.net', 'johnsmith@googlemail.com'],
    ['missing dot', 'johnsmith@gmailcom', 'johnsmith@gmail.com'],
    ['misplaced dot', 'johnsmith@gmailc.om', 'johnsmith@gmail.com'],
    ['misplaced dot, .net', 'john@comcastn.et', 'john@comcast.net'],
    ['brand without TLD', 'johnsmith@gmail', 'johnsmith@gmail.com'],
    ['brand typo and TLD typo', 'john@yahooo.cmo', 'john@yahoo.com'],
    ['brand with a country TLD appended', 'johnsmith@gmail.com.co', 'johnsmith@gmail.com'],
    ['country copy of a provider', 'john@yaho.co.uk', 'john@yahoo.co.uk'],
    ['country copy with a broken ending', 'john@hotmail.fe', 'john@hotmail.fr'],
    ['no country copy: the main domain', 'johnsmith@gmai.co.uk', 'johnsmith@gmail.com'],
    ['truncated TLD on a popular domain', 'johnsmith@gmail.c', 'johnsmith@gmail.com'],
  ])('%s: %s → %s', (_fix, input, expected) => {
    expect(first(input)).toBe(expected);
  });
});

describe('suggestCorrections: endings of other domains', () => {
  it.each([
    ['example.con', 'example.com'],
    ['example.cmo', 'example.com'],
    ['example.comm', 'example.com'],
    ['example.c0m', 'example.com'],
    ['example.vom', 'example.com'],
    ['example.xcom', 'example.com'],
    ['example.comme', 'example.com'],
    ['example.com1', 'example.com'],
    ['example.cm', 'example.com'],
    ['example.om', 'example.com'],
    ['examplec.om', 'example.com'],
    ['examplecom', 'example.com'],
    ['example.com.com', 'example.com'],
    ['example.con.com', 'example.com'],
    ['example.nte', 'example.net'],
    ['example.ne', 'example.net'],
    ['example.et', 'example.net'],
    ['examplenet', 'example.net'],
    ['example.ogr', 'example.org'],
    ['example.or', 'example.org'],
    ['example.ed', 'example.edu'],
    ['example.gob', 'example.gov'],
    ['example.fe', 'example.fr'],
    ['example.r', 'example.ru'],
    ['example.dek', 'example.de'],
    ['example.comar', 'example.com.ar'],
    ['example.co.ul', 'example.co.uk'],
    ['example.co.k', 'example.co.uk'],
    ['example.cojp', 'example.co.jp'],
    ['example.co.br', 'example.com.br'],
    ['example.ed.br', 'example.edu.br'],
    ['example.gob.br', 'example.gov.br'],
    ['example.com.vr', 'example.com.br'],
  ])('john@%s → john@%s', (domain, expected) => {
    expect(first(`john@${domain}`)).toBe(`john@${expected}`);
  });
});

describe('suggestCorrections: no correction for a correct address', () => {
  it.each([
    'user@gmx.com',
    'user@gmx.fr',
    'user@hotmail.co.uk',
    'user@yahoo.co.uk',
    'user@yahoo.fr',
    'user@mail.com',
    'user@me.com',
    'user@ya.ru',
    'user@gm.com',
    'user@google.com',
    'user@facebook.com',
    'user@army.mil',
    'user@gao.gov',
    'user@gla.gov',
    'user@gial.edu',
    'user@gial.ac.in',
    'user@dogmail.net',
    'user@chengmail.net',
    'user@engaol.net',
    'user@hanmail.net',
    'user@anything.comcast.com',
    'user@support.comcastbiz.net',
    'user@example.co',
    'user@example.cn',
    'user@example.gr',
    'user@example.coop',
    'user@example.com.co',
    'user@kicksend.com',
    'user@jump.com',
    'user@q.com',
    'user@y7mail.com',
    'user@imail.ru',
    'user@alice.it',
    'user@hotmail.co.za',
    'john.comisky@gmail.com',
    'john+spamfilter@example.com',
    'JOHN@EXAMPLE.COM',
    "o'brien@example.com",
    '"john doe"@example.com',
    'user@example.test',
  ])('%s', (input) => {
    expect(suggestCorrections(input)).toEqual([]);
  });

  it.each(['', 'contact', 'test@', 'test@gm', 'test@gma', 'test@gmai', 'a@b', '@', 'john@doe@example.com'])(
    'nothing to build on: %j',
    (input) => {
      expect(suggestCorrections(input)).toEqual([]);
    },
  );
});

describe('suggestCorrections: provider usernames', () => {
  it('does not suggest an address the provider could not have issued, nor a lesser reading', () => {
    // `test` is too short for Gmail (6–30 characters): test@gmail.com is invalid (code 125), and
    // ymail.com, the next nearest name, is not what was meant.
    expect(suggestCorrections('test@gmial.com')).toEqual([]);
    expect(suggestCorrections('john.@gmail.co')).toEqual([]);
    expect(first('testuser@gmial.com')).toBe('testuser@gmail.com');
  });

  it('still reads what was meant, for measuring (likelyReadings): the provider rule decides the offer only', () => {
    expect(likelyReadings('test@gmial.com')[0]).toBe('test@gmail.com');
    expect(likelyReadings('JOHN@GMIAL.COM')[0]).toBe('john@gmail.com');
    expect(likelyReadings('testuser@gmial.com')).toEqual(suggestCorrections('testuser@gmial.com'));
    expect(likelyReadings('john@gmail.com')).toEqual([]);
  });
});

describe('suggestCorrections: known domains', () => {
  it('leaves a domain the caller knows alone', () => {
    expect(first('user@zopo.com')).toBeNull();
    expect(first('johnsmith@gmial.com', new Set(['gmial.com']))).toBeNull();
    expect(first('user@example.cm', new Set(['example.cm']))).toBeNull();
  });

  it('corrects x.co to x.com only when x.com is known', () => {
    expect(first('test@emaildomain.co')).toBeNull();
    expect(first('test@emaildomain.co', new Set(['emaildomain.com']))).toBe('test@emaildomain.com');
    expect(first('test@emaildomain.co', new Set(['emaildomain.com', 'emaildomain.co']))).toBeNull();
  });
});

describe('suggestCorrections: properties', () => {
  const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
  const popular = fc.constantFrom(...POPULAR_DOMAINS.map((p) => p.domain), 'example.com', 'example.co.uk', 'mail.example.org');
  const local = fc.stringMatching(/^[A-Za-z0-9._+'#`-]{1,20}$/);
  // A valid-looking address with a few random slips: the inputs corrections exist for.
  const slip = fc.record({
    at: fc.nat(),
    ch: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz.,@ <>"0'),
    kind: fc.constantFrom('insert', 'delete', 'replace', 'swap'),
  });
  const mistyped = fc.tuple(local, popular, fc.array(slip, { maxLength: 3 })).map(([l, d, slips]) => {
    let s = `${l}@${d}`;
    for (const { at, ch, kind } of slips) {
      const i = at % (s.length + 1);
      if (kind === 'insert') s = s.slice(0, i) + ch + s.slice(i);
      else if (kind === 'delete') s = s.slice(0, i) + s.slice(i + 1);
      else if (kind === 'replace') s = s.slice(0, i) + ch + s.slice(i + 1);
      else if (i + 1 < s.length) s = s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
    }
    return s;
  });
  const anyInput = fc.oneof(
    mistyped,
    mistyped,
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.string({ unit: codeUnit, maxLength: 200 }),
    fc.string({ unit: fc.constantFrom(...'ab.@ ,<>"\'`#-:;()[]'), maxLength: 40 }),
    fc.emailAddress(),
  );

  it('is total, deterministic, never suggests the input, and every suggestion is valid', () => {
    fc.assert(
      fc.property(anyInput, (input) => {
        const out = suggestCorrections(input);
        expect(suggestCorrections(input)).toEqual(out);
        expect(out.length).toBeLessThanOrEqual(MAX_CORRECTIONS);
        expect(new Set(out).size).toBe(out.length);
        const self = classifySyntax(input);
        for (const s of out) {
          const v = classifySyntax(s);
          expect(v.ok).toBe(true);
          expect(s).not.toBe(input);
          if (self.ok) expect(s).not.toBe(self.address);
          if (v.ok) expect(v.address).toBe(s);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('offers nothing for an address at a popular domain', () => {
    const valid = fc.tuple(fc.stringMatching(/^[a-z][a-z0-9]{5,15}$/), fc.constantFrom(...POPULAR_DOMAINS.map((p) => p.domain)));
    fc.assert(
      fc.property(valid, ([l, d]) => {
        expect(suggestCorrections(`${l}@${d}`)).toEqual([]);
      }),
    );
  });

  it('stays fast on hostile input', () => {
    for (const input of [
      '.'.repeat(4000) + '@x',
      ' '.repeat(4000),
      '-'.repeat(1000) + '@' + '-'.repeat(1000),
      `a@${'b.'.repeat(120)}con`,
    ]) {
      // The fastest of five runs, which load cannot inflate as it can one run.
      let fastest = Infinity;
      for (let run = 0; run < 5; run++) {
        const start = performance.now();
        suggestCorrections(input);
        fastest = Math.min(fastest, performance.now() - start);
      }
      expect(fastest).toBeLessThan(200);
    }
  });
});
