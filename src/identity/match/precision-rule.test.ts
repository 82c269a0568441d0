import { describe, expect, it } from 'vitest';
import { oakStreetFeatures, oakStreetPerson } from '../../../test/helpers/identity-candidates.js';
import type { IdentityFeatures } from './features.js';
import { giveWayToHousemates } from './housemates.js';
import { rankMatches } from './rank.js';
import { scoreCandidate } from './score.js';

/** Features at 12 Oak St; the argument order is first, last, middle, emails here. */
function at(first: string, last = 'Smith', middle = '', emails: string[] = []): IdentityFeatures {
  return oakStreetFeatures(first, middle, last, emails);
}

const type = (q: IdentityFeatures, c: IdentityFeatures) => scoreCandidate(q, c)?.type;

describe('the precision rule: one slip between two real first names is two people', () => {
  it.each([
    ['Joan', 'John'],
    ['Carol', 'Carl'],
    ['Erica', 'Eric'],
    ['Jean', 'Juan'],
    ['Mark', 'Mary'],
    ['Dina', 'Tina'],
    ['Carla', 'Carl'],
    ['Dana', 'Dena'],
  ])('%s for a stored %s is the household only', (query, stored) => {
    expect(type(at(query), at(stored))).toBe('Household');
    expect(type(at(stored), at(query))).toBe('Household');
  });

  it.each([
    ['Jhon', 'John'],
    ['Wiliam', 'William'],
    ['Mihcael', 'Michael'],
  ])('keeps the typo tolerance for %s, which is no name: %s', (query, stored) => {
    expect(scoreCandidate(at(query), at(stored))).toMatchObject({ type: 'Individual', looseFirst: true });
  });

  it('lets the record prove it: the same full middle name, or a shared email', () => {
    expect(type(at('Joan', 'Smith', 'Marie'), at('John', 'Smith', 'Marie'))).toBe('Individual');
    expect(scoreCandidate(at('Joan', 'Smith', 'Marie'), at('John', 'Smith', 'Marie'))?.looseFirst).toBeUndefined();
    expect(type(at('Joan', 'Smith', '', ['j@example.com']), at('John', 'Smith', '', ['j@example.com']))).toBe('Individual');
    // An initial proves nothing.
    expect(type(at('Joan', 'Smith', 'M'), at('John', 'Smith', 'Marie'))).toBe('Household');
  });
});

describe('spelling variants', () => {
  it.each([
    ['Kurtis', 'Curtis'],
    ['Kaleb', 'Caleb'],
    ['Sheryl', 'Cheryl'],
    ['Ashleigh', 'Ashley'],
    ['Dillon', 'Dylan'],
    ['Cathryn', 'Kathryn'],
    ['Sonya', 'Sonia'],
    ['Kristen', 'Kristin'],
  ])('%s for a stored %s is the person, with the surname as written', (query, stored) => {
    expect(scoreCandidate(at(query), at(stored))).toMatchObject({ type: 'Individual', looseFirst: true });
    expect(type(at(query, 'Smyth'), at(stored))).toBe('Household');
  });

  it('gives way to a housemate who has the query’s first name, even one that does not pass', () => {
    const query = at('Kurtis', 'Smith', 'A');
    const curtis = { person: oakStreetPerson(1), features: at('Curtis') };
    // Kurtis lives there too, with another middle name: the query names him, not Curtis.
    const kurtis = { person: oakStreetPerson(2), features: at('Kurtis', 'Smith', 'B') };
    const scored = [curtis, kurtis].map((c) => ({ ...c, score: scoreCandidate(query, c.features)! }));
    expect(scored.map((s) => s.score.type)).toEqual(['Individual', 'Household']);
    giveWayToHousemates(query, scored);
    expect(rankMatches(scored).map((m) => m.type)).toEqual(['Household', 'Household']);
  });

  it('leaves a loose agreement alone when no housemate has the name', () => {
    const query = at('Kurtis');
    const scored = [
      { person: oakStreetPerson(1), features: at('Curtis') },
      { person: oakStreetPerson(2), features: at('Mary') },
    ].map((c) => ({ ...c, score: scoreCandidate(query, c.features)! }));
    giveWayToHousemates(query, scored);
    expect(rankMatches(scored).map((m) => [m.person.id, m.type])).toEqual([
      [1, 'Individual'],
      [2, 'Household'],
    ]);
  });
});

describe('titles, suffixes and double first names', () => {
  it.each(['Dr. Jennifer K', 'Mrs Jennifer K', 'Prof Jennifer K.', 'Mr. and Mrs. Jennifer K'])('%s is Jennifer K', (first) => {
    expect(scoreCandidate(at(first), at('Jennifer', 'Smith', 'Kay'))).toMatchObject({ type: 'Individual' });
    expect(type(at(first), at('Daniel', 'Smith', 'Kay'))).toBe('Household');
  });

  it('keeps a conflicting generation apart, and a missing one agrees', () => {
    expect(type(at('John', 'Smith Jr'), at('John', 'Smith Sr.'))).toBe('Household');
    expect(type(at('John', 'Smith, III'), at('John', 'Smith Jr'))).toBe('Household');
    expect(type(at('John', 'Smith'), at('John', 'Smith Jr'))).toBe('Individual');
    expect(type(at('John', 'Smith 3rd'), at('John', 'Smith III'))).toBe('Individual');
  });

  it.each([
    ['Mary-Jane', 'Mary Jane'],
    ['MaryJane', 'Mary-Jane'],
    ['Mary Jane', 'MaryJane'],
  ])('%s is a stored %s', (query, stored) => {
    expect(type(at(query), at(stored))).toBe('Individual');
    expect(type(at(stored), at(query))).toBe('Individual');
  });

  it('does not take a double first name for a first name and another middle name', () => {
    expect(type(at('Mary-Jane'), at('Mary', 'Smith', 'Ann'))).toBe('Household');
    expect(type(at('Mary Ann'), at('Mary', 'Smith', 'Jane'))).toBe('Household');
  });
});
