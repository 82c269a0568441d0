import { describe, expect, it } from 'vitest';
import { corpusUrl } from '../../fixtures/corpora.js';
import { loadNicknamePairs } from './nickname-corpus.js';
import { checkNearNamePrecision, nearNamePairs, sameNameJudge, wrongIndividuals } from './near-name-property.js';

const same = sameNameJudge(loadNicknamePairs(corpusUrl('nickname_pairs.json')));
const pairs = nearNamePairs(same);

describe('precision: a first name one letter from a resident’s', () => {
  it('has the pairs the issue names among its cases', () => {
    expect(pairs.length).toBeGreaterThan(200);
    for (const [name, other] of [
      ['john', 'joan'],
      ['carl', 'carol'],
      ['eric', 'erica'],
      ['juan', 'jean'],
      ['mary', 'mark'],
    ]) {
      expect(pairs, `${name}/${other}`).toContainEqual({ name, other });
    }
  });

  it('would catch a matcher that takes the near name for the resident', () => {
    // Joan queried where only John lives, with nothing else to tell: John must not be named.
    const joan = { pair: { name: 'john', other: 'joan' }, housemates: [], middles: [''], queryMiddle: '' };
    expect(wrongIndividuals(joan, same)).toEqual([]);
    // The property is about the wrong person only: Joan living there is Joan.
    expect(wrongIndividuals({ ...joan, housemates: ['joan'], middles: ['', ''] }, same)).toEqual([]);
  });

  it('never names the wrong person as the Individual, over 10,000 generated households', () => {
    checkNearNamePrecision(same, 10_000);
  });
});
