import { describe, expect, it } from 'vitest';
import { blocksFor, personBlockingColumns } from './blocking.js';
import { blockId } from './candidate-block.js';
import type { IdentityFeatures } from './features.js';
import { lastNamePhonetic, surnameGroups } from '../name/index.js';

const base: IdentityFeatures = {
  first: 'kate',
  middle: '',
  last: 'obrien',
  lastGroups: [{ full: 'obrien', core: 'obrien' }],
  suffix: '',
  lastPhonetic: 'APRN',
  street: { number: '12', preDirectional: 'N', name: 'MAIN', suffix: 'ST', unitType: 'APT', unitId: '4' },
  city: 'SAINT LOUIS',
  state: 'MO',
  zip5: '63101',
  plus4: '1234',
  emails: [],
};

describe('blocksFor', () => {
  it('asks for ZIP5 + house number and last-name code + ZIP5 when the query has a ZIP', () => {
    expect(blocksFor(base)).toEqual([
      { kind: 'zip-house', zip5: '63101', houseNumber: '12' },
      { kind: 'phonetic-zip', zip5: '63101', lastPhonetic: 'APRN' },
    ]);
  });

  it('asks for the name codes + ZIP5 only when there is no street (first + last + ZIP+4), the first name’s too (swapped)', () => {
    expect(blocksFor({ ...base, street: undefined })).toEqual([
      { kind: 'phonetic-zip', zip5: '63101', lastPhonetic: 'APRN' },
      { kind: 'phonetic-zip', zip5: '63101', lastPhonetic: lastNamePhonetic('kate') },
    ]);
    // An initial has no code worth a lookup.
    expect(blocksFor({ ...base, first: 'k', street: undefined })).toEqual([{ kind: 'phonetic-zip', zip5: '63101', lastPhonetic: 'APRN' }]);
  });

  it('asks without a street for each word of a compound surname, and its core without particles', () => {
    const garciaLopez = {
      ...base,
      first: 'k',
      last: 'garcialopez',
      lastGroups: surnameGroups('Garcia-Lopez'),
      lastPhonetic: lastNamePhonetic('garcialopez'),
      street: undefined,
    };
    expect(blocksFor(garciaLopez).map((b) => (b.kind === 'phonetic-zip' ? b.lastPhonetic : ''))).toEqual([
      ...new Set([lastNamePhonetic('garcialopez'), lastNamePhonetic('garcia'), lastNamePhonetic('lopez')]),
    ]);
    const delaCruz = {
      ...base,
      first: 'k',
      last: 'delacruz',
      lastGroups: surnameGroups('De La Cruz'),
      lastPhonetic: lastNamePhonetic('delacruz'),
      street: undefined,
    };
    expect(blocksFor(delaCruz).map((b) => (b.kind === 'phonetic-zip' ? b.lastPhonetic : ''))).toEqual([
      ...new Set([lastNamePhonetic('delacruz'), lastNamePhonetic('cruz')]),
    ]);
  });

  it('adds no block for other name forms when the house number brings in the whole address', () => {
    const garciaLopez = {
      ...base,
      last: 'garcialopez',
      lastGroups: surnameGroups('Garcia-Lopez'),
      lastPhonetic: lastNamePhonetic('garcialopez'),
    };
    expect(blocksFor(garciaLopez)).toHaveLength(2);
  });

  it('asks for state + house number when the query has no ZIP, and nothing without a state', () => {
    expect(blocksFor({ ...base, zip5: '', plus4: '' })).toEqual([{ kind: 'state-house', state: 'MO', houseNumber: '12' }]);
    expect(blocksFor({ ...base, zip5: '', plus4: '', state: '' })).toEqual([]);
  });

  it('asks for nothing it cannot key: no house number and no ZIP, or no name code and no house number', () => {
    expect(blocksFor({ ...base, zip5: '', street: { name: 'MAIN', suffix: 'ST' } })).toEqual([]);
    expect(blocksFor({ ...base, lastPhonetic: '', street: undefined })).toEqual([]);
  });
});

describe('blockId', () => {
  it('names each block kind apart, so equal values of two kinds never collide', () => {
    expect(blockId({ kind: 'zip-house', zip5: '63101', houseNumber: '12' })).toBe('zh:63101:12');
    expect(blockId({ kind: 'phonetic-zip', zip5: '63101', lastPhonetic: 'APRN' })).toBe('pz:63101:APRN');
    expect(blockId({ kind: 'state-house', state: 'MO', houseNumber: '12' })).toBe('sh:MO:12');
  });
});

describe('personBlockingColumns', () => {
  it('stores the house number and the last name code the way a query computes them', () => {
    expect(personBlockingColumns({ firstName: 'Kate', lastName: "O'Brien Jr.", address: '12 North Main Street Apt 4' })).toEqual({
      houseNumber: '12',
      lastPhonetic: 'APRN',
    });
    // Johnson and its one-slip typo share a block: the typo still meets its candidate.
    expect(personBlockingColumns({ firstName: 'A', lastName: 'Jonson', address: 'PO Box 7' }).lastPhonetic).toBe(
      personBlockingColumns({ firstName: 'A', lastName: 'Johnson', address: '1 Elm St' }).lastPhonetic,
    );
  });

  it('leaves the house number empty for an address without one', () => {
    expect(personBlockingColumns({ firstName: 'Kate', lastName: 'Doe', address: 'Main St' }).houseNumber).toBe('');
  });
});
