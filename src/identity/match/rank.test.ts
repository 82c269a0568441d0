import { describe, expect, it } from 'vitest';
import type { PersonRecord } from '../../people/person.js';
import { oakStreetPerson } from '../../../test/helpers/identity-candidates.js';
import { MAX_MATCHES, rankMatches } from './rank.js';
import type { NameForm, Scored } from './score.js';

const person = (id: number): PersonRecord => oakStreetPerson(id);
const scored = (id: number, type: Scored['type'], confidence: number) => ({ person: person(id), score: { type, confidence } });
const other = (id: number, confidence: number, nameForm: NameForm) => ({
  person: person(id),
  score: { type: 'Individual' as const, confidence, nameForm },
});
const summary = (matches: ReturnType<typeof rankMatches>) => matches.map((m) => [m.person.id, m.type, m.confidence]);

describe('rankMatches', () => {
  it('puts the Individual match first, then the household by confidence, then by id', () => {
    const ranked = rankMatches([
      scored(5, 'Household', 0.65),
      scored(3, 'Household', 0.6),
      scored(9, 'Individual', 0.8),
      scored(2, 'Household', 0.65),
    ]);
    expect(summary(ranked)).toEqual([
      [9, 'Individual', 0.8],
      [2, 'Household', 0.65],
      [5, 'Household', 0.65],
      [3, 'Household', 0.6],
    ]);
  });

  it('orders by kind before confidence and id', () => {
    // A member with the unit and a shared email (0.4 + 0.05 + 0.2 + 0.05) weighs what the person
    // asked for by an initial, without a unit, does (0.4 + 0.2 + 0.1); a lower id would go first.
    expect(summary(rankMatches([scored(1, 'Household', 0.7), scored(2, 'Individual', 0.7)]))).toEqual([
      [2, 'Individual', 0.7],
      [1, 'Household', 0.7],
    ]);
    expect(summary(rankMatches([scored(1, 'Household', 0.75), scored(2, 'Individual', 0.7)]))[0]).toEqual([2, 'Individual', 0.7]);
  });

  it('keeps the label for the best Individual only; the others are the household', () => {
    expect(summary(rankMatches([scored(1, 'Individual', 0.82), scored(2, 'Individual', 0.9), scored(3, 'Household', 0.65)]))).toEqual([
      [2, 'Individual', 0.9],
      [1, 'Household', 0.82],
      [3, 'Household', 0.65],
    ]);
  });

  it('names nobody Individual when the best is shared: `J Doe` at John and Jane Doe’s is either', () => {
    expect(summary(rankMatches([scored(4, 'Individual', 0.75), scored(3, 'Individual', 0.75), scored(5, 'Individual', 0.7)]))).toEqual([
      [3, 'Household', 0.75],
      [4, 'Household', 0.75],
      [5, 'Household', 0.7],
    ]);
  });

  it('answers at most MAX_MATCHES, the best ones, and nothing for no candidates', () => {
    expect(MAX_MATCHES).toBe(10);
    const many = Array.from({ length: 14 }, (_, i) => scored(i + 1, 'Household', 0.5 + i / 100));
    const ranked = rankMatches([...many, scored(99, 'Individual', 0.6)]);
    expect(ranked).toHaveLength(10);
    expect(summary(ranked).slice(0, 3)).toEqual([
      [99, 'Individual', 0.6],
      [14, 'Household', 0.63],
      [13, 'Household', 0.62],
    ]);
    expect(ranked.at(-1)!.person.id).toBe(6);
    expect(rankMatches([])).toEqual([]);
  });

  it('never lets a name in another form outrank one as written, whatever the weights', () => {
    // John Robert Smith by his middle name (0.82) beside Robert Smith as written by a typo (0.77).
    expect(summary(rankMatches([other(1, 0.82, 'middle-as-first'), scored(2, 'Individual', 0.77)]))).toEqual([
      [2, 'Individual', 0.77],
      [1, 'Household', 0.82],
    ]);
    // Scott Thomas beside Thomas Scott: the swap is the household.
    expect(summary(rankMatches([other(1, 0.95, 'swapped'), scored(2, 'Individual', 0.9)]))[0]).toEqual([2, 'Individual', 0.9]);
  });

  it('lets a name in another form be the Individual when nobody agrees as written, and keeps ties a household', () => {
    expect(summary(rankMatches([other(1, 0.85, 'surname-part'), scored(2, 'Household', 0.65)]))).toEqual([
      [1, 'Individual', 0.85],
      [2, 'Household', 0.65],
    ]);
    // Father and son, both John Robert Smith, asked for `Robert Smith`.
    expect(summary(rankMatches([other(1, 0.82, 'middle-as-first'), other(2, 0.82, 'middle-as-first')]))).toEqual([
      [1, 'Household', 0.82],
      [2, 'Household', 0.82],
    ]);
    // Among other forms, the best still wins.
    expect(summary(rankMatches([other(1, 0.82, 'middle-as-first'), other(2, 0.87, 'surname-particle')]))[0]).toEqual([
      2,
      'Individual',
      0.87,
    ]);
  });
});
