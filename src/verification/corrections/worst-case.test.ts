// Corrections run on the request path for every invalid address, and the address is whatever the
// caller sent. The work per address must stay bounded whatever its shape: the typo-distance
// tables (the only super-linear work) are counted, which is deterministic where a timer is not;
// the timing check only catches gross regressions (a regular expression gone quadratic).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_INPUT_LENGTH } from '../syntax.js';
import { distanceWork } from './distance.js';
import { POPULAR_DOMAINS } from './popular-domains.js';
import { suggestCorrections } from './suggest.js';

/**
 * DP cells one address may cost. Realistic and fuzzed inputs stay under ~2,000: every table is
 * between a name or tail cut to a few characters around a popular name's or ending's length.
 */
const MAX_CELLS = 10_000;
// A known domain makes the domain fixes skip their cache, so every call does the full work.
const UNCACHED = { knownDomains: new Set(['known.example']) };

function cellsFor(input: string): number {
  const before = distanceWork();
  suggestCorrections(input, UNCACHED);
  return distanceWork() - before;
}

const HOSTILE = [
  '.'.repeat(4000) + '@x',
  ' '.repeat(4000),
  'x'.repeat(MAX_INPUT_LENGTH),
  '-'.repeat(1000) + '@' + '-'.repeat(1000),
  `a@${'b.'.repeat(120)}con`,
  `a@${'bc.'.repeat(80)}con`,
  `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.con`,
  `${'a'.repeat(1000)}@gmial.con`,
  `a@${'.'.repeat(1000)}gmial.com`,
  'a'.repeat(1000) + 'gmail.com',
  'a' + ' '.repeat(1000) + 'b',
  '('.repeat(500) + 'a@b.com' + ')'.repeat(500),
  `a@${'gmailyahoohotmail'.repeat(14)}.cmo`,
  'a@gmailgmailgmail.c.o.m',
  `a@${'x'.repeat(240)}.co.ul`,
];

describe('work per address', () => {
  it.each(HOSTILE.map((input) => [input.length, input.slice(0, 24), input] as const))(
    'is bounded for a %d-character input starting %j',
    (_length, _start, input) => {
      expect(cellsFor(input)).toBeLessThanOrEqual(MAX_CELLS);
    },
  );

  it('is bounded for any input', () => {
    const names = POPULAR_DOMAINS.map((p) => p.domain.split('.')[0] as string);
    // Names built from popular names' letters pass the cheap bounds most often.
    const name = fc.string({ unit: fc.constantFrom(...new Set(names.join(''))), minLength: 1, maxLength: 24 });
    const ending = fc.string({ unit: fc.constantFrom(...'comnetorgukbrjp.'), minLength: 1, maxLength: 10 });
    const input = fc.oneof(
      fc.tuple(fc.array(name, { minLength: 1, maxLength: 8 }), ending).map(([labels, end]) => `user@${labels.join('.')}.${end}`),
      fc.tuple(name, ending).map(([n, end]) => `user${n}${end}`),
      fc.string({ unit: fc.constantFrom(...'ab.@ ,<>"\'`#-:;()[]com'), maxLength: 1100 }),
      fc.string({ unit: 'binary', maxLength: 600 }),
    );
    fc.assert(
      fc.property(input, (s) => {
        expect(cellsFor(s)).toBeLessThanOrEqual(MAX_CELLS);
      }),
      { numRuns: 2000 },
    );
  });

  it('takes under a millisecond at its worst (the fastest of ten runs, which load cannot inflate)', () => {
    for (const input of HOSTILE) {
      let fastest = Infinity;
      for (let run = 0; run < 10; run++) {
        const start = performance.now();
        suggestCorrections(input, UNCACHED);
        fastest = Math.min(fastest, performance.now() - start);
      }
      expect(fastest, input.slice(0, 24)).toBeLessThan(1);
    }
  });

  it('is nothing past the size cut-offs', () => {
    // Syntax repairs stop at 1,024 characters, domain fixes at 253, everything at MAX_INPUT_LENGTH.
    expect(cellsFor(`${'a'.repeat(1100)}@gmial.con`)).toBe(0);
    expect(cellsFor(`a@${'b'.repeat(260)}.con`)).toBe(0);
    expect(cellsFor('a@gmial.con' + ' '.repeat(MAX_INPUT_LENGTH))).toBe(0);
  });

  it('reuses the fixes of a domain seen before', () => {
    suggestCorrections('first@mailbox-nine.con');
    const before = distanceWork();
    expect(suggestCorrections('second@mailbox-nine.con')).toEqual(['second@mailbox-nine.com']);
    expect(distanceWork() - before).toBe(0);
  });
});
