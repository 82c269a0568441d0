import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PersonRecord } from '../../people/person.js';
import { normalizePersonName, surnameGroups } from '../name/index.js';
import type { IdentityFeatures } from './features.js';
import { rankMatches } from './rank.js';
import { scoreCandidate } from './score.js';

/** A stored William James Johnson at 12 Oak St Apt 3, Springfield IL 62701-1234, built by hand. */
const stored: IdentityFeatures = {
  first: 'william',
  middle: 'james',
  last: 'johnson',
  lastGroups: [{ full: 'johnson', core: 'johnson' }],
  suffix: '',
  lastPhonetic: 'JNSN',
  street: { number: '12', name: 'OAK', suffix: 'ST', unitType: 'APT', unitId: '3' },
  city: 'SPRINGFIELD',
  state: 'IL',
  zip5: '62701',
  plus4: '1234',
  emails: ['bill@example.com'],
};

const stubPerson: PersonRecord = {
  id: 0,
  personKey: 'P0',
  firstName: 'Stub',
  middleName: null,
  lastName: 'Stub',
  address: '12 Oak St Apt 3',
  city: 'Springfield',
  state: 'IL',
  zip: '62701-1234',
  fields: {},
  interests: [],
  emails: [],
};

/** The query that copies the record, changed where a test says. */
const query = (change: Partial<IdentityFeatures> = {}): IdentityFeatures => ({ ...stored, emails: [], ...change });
const street = (change: Partial<NonNullable<IdentityFeatures['street']>>) => ({ ...stored.street!, ...change });

describe('scoreCandidate: agreement weights', () => {
  it.each([
    // address 0.4 + unit 0.05 + last 0.2 + first 0.25 + middle 0.05
    ['everything, middle name and unit included', query(), 0.95],
    ['everything and a shared email (capped at 1)', query({ emails: ['bill@example.com'] }), 1],
    ['no middle name: no middle weight', query({ middle: '' }), 0.9],
    ['a unit left out: no unit weight', query({ street: street({ unitType: undefined, unitId: undefined }) }), 0.9],
    ['a nickname (0.2)', query({ first: 'bill', middle: '' }), 0.85],
    ['a first-name typo (0.17)', query({ first: 'wiliam', middle: '' }), 0.82],
    ['a first initial (0.1)', query({ first: 'w', middle: '' }), 0.75],
    ['a last-name typo (0.12)', query({ last: 'jonson', middle: '' }), 0.82],
    ['the middle initial of the middle name', query({ middle: 'j' }), 0.95],
  ])('Individual with %s', (label, q, confidence) => {
    // A typo in the first name is a loose agreement a housemate with the name can take (housemates.ts).
    const loose = label.startsWith('a first-name typo') ? { looseFirst: true } : {};
    expect(scoreCandidate(q, stored)).toEqual({ type: 'Individual', confidence, ...loose });
  });

  it('gives the same weights whichever side is the query', () => {
    const nickname = query({ first: 'bill', middle: '', emails: ['bill@example.com'] });
    expect(scoreCandidate(stored, nickname)).toEqual(scoreCandidate(nickname, stored));
  });
});

describe('scoreCandidate: Individual or Household', () => {
  it.each<[string, IdentityFeatures, number, IdentityFeatures?]>([
    // address 0.4 + unit 0.05 + last 0.2 (or 0.12 for a typo); no first-name weight
    ['another first name', query({ first: 'mary', middle: '' }), 0.65],
    ['a nickname two hops away (bob ↔ bill ↔ william)', query({ first: 'bob', middle: '' }), 0.65],
    ['a first name with two slips', query({ first: 'wilaim', middle: '' }), 0.65],
    ['a conflicting middle name', query({ middle: 'robert' }), 0.65],
    ['a conflicting middle initial', query({ middle: 'r' }), 0.65],
    ['a conflicting generation (Jr against Sr)', { ...query(), suffix: 'jr' }, 0.65, { ...stored, suffix: 'sr' }],
    ['a first initial with a last-name typo', query({ first: 'w', last: 'jonson', middle: '' }), 0.57],
    ['a typo in both names', query({ first: 'wiliam', last: 'jonson', middle: '' }), 0.57],
  ])('Household with %s', (_, q, confidence, candidate = stored) => {
    expect(scoreCandidate(q, candidate)).toEqual({ type: 'Household', confidence });
  });

  it('keeps Individual when only one side has a generation or a middle name', () => {
    expect(scoreCandidate({ ...query(), suffix: 'jr' }, stored)).toEqual({ type: 'Individual', confidence: 0.95 });
    expect(scoreCandidate(query({ suffix: 'md' }), { ...stored, suffix: 'jr' })).toEqual({ type: 'Individual', confidence: 0.95 });
    expect(scoreCandidate(query({ middle: 'robert' }), { ...stored, middle: '' })).toEqual({ type: 'Individual', confidence: 0.9 });
  });
});

describe('scoreCandidate: the gates', () => {
  it('refuses a three-letter street name one letter off (too short for a slip, too far for Jaro–Winkler)', () => {
    expect(scoreCandidate(query({ street: street({ name: 'OKA' }) }), stored)).toBeUndefined();
  });

  it.each<[string, IdentityFeatures, IdentityFeatures?]>([
    ['another house number', query({ street: street({ number: '14' }) })],
    ['another apartment', query({ street: street({ unitId: '4' }) })],
    ['another street', query({ street: street({ name: 'ELM' }) })],
    ['another suffix', query({ street: street({ suffix: 'AVE' }) })],
    [
      'another directional',
      { ...query(), street: street({ preDirectional: 'N' }) },
      { ...stored, street: street({ preDirectional: 'S' }) },
    ],
    ['another ZIP5', query({ zip5: '62702' })],
    ['another last name', query({ last: 'jackson' })],
    ['a last name whose first letter differs', query({ last: 'kohnson' })],
    ['no street and another ZIP+4', query({ street: undefined, plus4: '9999' })],
    ['no street and no +4', query({ street: undefined, plus4: '' })],
    ['no ZIP and another state', query({ zip5: '', plus4: '', state: 'MO' })],
    ['no ZIP and no city', query({ zip5: '', plus4: '', city: '' })],
    ['no ZIP and another city', query({ zip5: '', plus4: '', city: 'CHICAGO' })],
    ['a stored person without a street', query(), { ...stored, street: undefined }],
  ])('no match for %s', (_, q, candidate = stored) => {
    expect(scoreCandidate(q, candidate)).toBeUndefined();
  });

  it.each<[string, IdentityFeatures, number, IdentityFeatures?]>([
    // Jaro–Winkler gives LAKE/LOKE 0.85: only the one-slip rule lets it through.
    ['a street name one slip off', { ...query(), street: street({ name: 'LOKE' }) }, 0.95, { ...stored, street: street({ name: 'LAKE' }) }],
    [
      'a street name within Jaro–Winkler 0.88',
      { ...query(), street: street({ name: 'MAPEL' }) },
      0.95,
      { ...stored, street: street({ name: 'MAPLE' }) },
    ],
    ['no suffix in the query', query({ street: street({ suffix: undefined }) }), 0.95],
    ['first + last + ZIP+4 without a street (no unit weight)', query({ street: undefined }), 0.9],
    ['street, city and state without a ZIP', query({ zip5: '', plus4: '' }), 0.95],
    ['a city mistyped, without a ZIP', query({ zip5: '', plus4: '', city: 'SPRINGFEILD' }), 0.95],
  ])('still the same place with %s', (_, q, confidence, candidate = stored) => {
    expect(scoreCandidate(q, candidate)).toEqual({ type: 'Individual', confidence });
  });
});

describe('scoreCandidate: name forms other than as written', () => {
  /** The stored record's address, with the names given (raw, normalised here as features.ts does). */
  const named = (first: string, middle: string, last: string, suffix = ''): IdentityFeatures => {
    const name = normalizePersonName({ first, middle, last });
    return { ...stored, first: name.first, middle: name.middle, last: name.last, lastGroups: surnameGroups(last), suffix, emails: [] };
  };

  it.each<[string, IdentityFeatures, IdentityFeatures, number, string]>([
    // address 0.4 + unit 0.05, then the names
    [
      'a part of a double surname (Maria Garcia / Maria Garcia-Lopez)',
      named('Maria', '', 'Garcia'),
      named('Maria', '', 'Garcia-Lopez'),
      0.85,
      'surname-part',
    ],
    ['the other part (Maria Lopez)', named('Maria', '', 'Lopez'), named('Maria', '', 'Garcia Lopez'), 0.85, 'surname-part'],
    ['a maiden and married name for the married one', named('Mary', '', 'Smith-Jones'), named('Mary', '', 'Jones'), 0.85, 'surname-part'],
    ['the parts in another order', named('Mary', '', 'Jones Smith'), named('Mary', '', 'Smith-Jones'), 0.85, 'surname-part'],
    ['a surname part with a nickname', named('Bob', '', 'Garcia'), named('Robert', '', 'Garcia-Lopez'), 0.8, 'surname-part'],
    [
      'particles dropped (Juan Cruz / Juan De La Cruz)',
      named('Juan', '', 'Cruz'),
      named('Juan', '', 'De La Cruz'),
      0.87,
      'surname-particle',
    ],
    // 0.45 + last 0.2 + middle as first 0.17
    [
      'the middle name as first name (Robert Smith)',
      named('Robert', '', 'Smith'),
      named('John', 'Robert', 'Smith'),
      0.82,
      'middle-as-first',
    ],
    [
      'the middle name first, the first as an initial (Robert J Smith)',
      named('Robert J', '', 'Smith'),
      named('John', 'Robert', 'Smith'),
      0.82,
      'middle-as-first',
    ],
    ['a nickname of the middle name (Bob Smith)', named('Bob', '', 'Smith'), named('John', 'Robert', 'Smith'), 0.82, 'middle-as-first'],
    ['the store holding the middle name as first', named('John', 'Robert', 'Smith'), named('Robert', '', 'Smith'), 0.82, 'middle-as-first'],
    // 0.45 + both names 0.3
    ['first and last swapped (Smith John)', named('Smith', '', 'John'), named('John', '', 'Smith'), 0.75, 'swapped'],
    ['swapped, with a nickname (Smith Bob)', named('Smith', '', 'Bob'), named('Robert', '', 'Smith'), 0.75, 'swapped'],
  ])('Individual through %s', (_, q, c, confidence, nameForm) => {
    expect(scoreCandidate(q, c)).toEqual({ type: 'Individual', confidence, nameForm });
    expect(scoreCandidate(c, q)).toEqual(scoreCandidate(q, c));
  });

  it('keeps the name as written unmarked, and `J Robert Smith` for John Robert Smith as written', () => {
    expect(scoreCandidate(named('John', '', 'Garcia-Lopez'), named('John', '', 'GarciaLopez'))).toEqual({
      type: 'Individual',
      confidence: 0.9,
    });
    expect(scoreCandidate(named('J Robert', '', 'Smith'), named('John', 'Robert', 'Smith'))).toEqual({
      type: 'Individual',
      confidence: 0.8,
    });
  });

  it.each<[string, IdentityFeatures, IdentityFeatures]>([
    ['a surname part with only an initial', named('M', '', 'Garcia'), named('Maria', '', 'Garcia-Lopez')],
    ['a surname part with a first-name typo', named('Mraia', '', 'Garcia'), named('Maria', '', 'Garcia-Lopez')],
    ['a surname part with a conflicting middle name', named('Maria', 'Ann', 'Garcia'), named('Maria', 'Luisa', 'Garcia-Lopez')],
    ['a surname part and the middle name at once', named('Luisa', '', 'Garcia'), named('Maria', 'Luisa', 'Garcia-Lopez')],
    ['the middle name with another generation', named('Robert', '', 'Smith', 'jr'), named('John', 'Robert', 'Smith', 'sr')],
    ['the middle name with a middle name that is not the first', named('Robert', 'James', 'Smith'), named('John', 'Robert', 'Smith')],
    ['the middle name with a surname typo', named('Robert', '', 'Smiht'), named('John', 'Robert', 'Smith')],
    ['a middle initial used as first name', named('R', '', 'Smith'), named('John', 'Robert', 'Smith')],
  ])('Household only for %s', (_, q, c) => {
    expect(scoreCandidate(q, c)).toMatchObject({ type: 'Household' });
    expect(scoreCandidate(c, q)).toEqual(scoreCandidate(q, c));
  });

  it.each<[string, IdentityFeatures, IdentityFeatures]>([
    [
      'a joined particle against the bare name (Delacruz / Cruz: Delgado is not del + Gado)',
      named('Juan', '', 'Delacruz'),
      named('Juan', '', 'Cruz'),
    ],
    ['two double surnames sharing one word', named('Juan', '', 'Garcia-Martinez'), named('Juan', '', 'Garcia-Lopez')],
    ['a swap where only the surname is in the first name', named('Smith', '', 'Mary'), named('John', '', 'Smith')],
    ['a swap with only nicknames on both sides', named('Bill', '', 'Bob'), named('Robert', '', 'William')],
    ['a swap with another generation', named('Smith', '', 'John', 'jr'), named('John', '', 'Smith', 'sr')],
  ])('no match for %s', (_, q, c) => {
    expect(scoreCandidate(q, c)).toBeUndefined();
    expect(scoreCandidate(c, q)).toBeUndefined();
  });
});

describe('scoreCandidate: properties of the name forms', () => {
  const first = fc.constantFrom('John', 'Robert', 'Bob', 'Smith', 'Jones', 'J', 'R', 'Maria', 'Cruz');
  const middle = fc.constantFrom('', 'Robert', 'John', 'J', 'R', 'Bob');
  const last = fc.constantFrom('Smith', 'Jones', 'Smith-Jones', 'Jones Smith', 'De La Cruz', 'Cruz', 'Delacruz', 'John', 'Robert', 'Smiht');
  const suffix = fc.constantFrom('', 'jr', 'sr');
  const person = fc.tuple(first, middle, last, suffix).map(([f, m, l, s]): IdentityFeatures => {
    const name = normalizePersonName({ first: f, middle: m, last: l });
    return { ...stored, first: name.first, middle: name.middle, last: name.last, lastGroups: surnameGroups(l), suffix: s, emails: [] };
  });

  it('gives the same answer whichever side is the query', () => {
    fc.assert(
      fc.property(person, person, (a, b) => {
        expect(scoreCandidate(a, b)).toEqual(scoreCandidate(b, a));
      }),
      { numRuns: 3000 },
    );
  });

  it('never names a person with another form above one with the name as written', () => {
    fc.assert(
      fc.property(person, fc.array(person, { minLength: 1, maxLength: 4 }), (q, household) => {
        const scored = household.flatMap((c, i) => {
          const score = scoreCandidate(q, c);
          return score === undefined ? [] : [{ person: { ...stubPerson, id: i + 1 }, score }];
        });
        const ranked = rankMatches(scored);
        const chosen = ranked.find((m) => m.type === 'Individual');
        if (chosen === undefined) return;
        const chosenScore = scored.find((s) => s.person.id === chosen.person.id)!.score;
        const asWritten = scored.some((s) => s.score.type === 'Individual' && s.score.nameForm === undefined);
        if (asWritten) expect(chosenScore.nameForm).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });
});
