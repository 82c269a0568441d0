/** The address forms of issue 30 through the scorer: the same place in another spelling, and never another road or unit. */
import { describe, expect, it } from 'vitest';
import { queryFeatures } from './features.js';
import { scoreCandidate } from './score.js';

const person = { first: 'Ann', last: 'Berg', city: 'Hastings', state: 'MN', zip: '55033' };
const at = (street: string) => queryFeatures({ ...person, street });
const typeOf = (query: string, stored: string) => scoreCandidate(at(query), at(stored))?.type;

describe('the same place written another way', () => {
  it.each([
    ['1200 State Hwy 61', '1200 Hwy 61'],
    ['1200 St Hwy 61', '1200 State Highway 61'],
    ['1200 SR 61', '1200 State Hwy 61'],
    ['1200 Highway 61', '1200 US Hwy 61'],
    ['1200 CTY RD 5', '1200 County Road 5'],
    ['1200 Co Rd 5', '1200 CR 5'],
    ['RR 2 Box 152', 'Rural Route 2, Box 152'],
    ['RFD 2 Box 152', 'R R 2 Box 152'],
    ['12 Main St Apt 3-C', '12 Main St Apt 3C'],
    ['12 Main St #3C', '12 Main St Unit 3 C'],
    ['12 Main St Apt. 3c', '12 Main St Apt #3-C'],
  ])('%s is %s', (query, stored) => {
    expect(typeOf(query, stored)).toBe('Individual');
    expect(typeOf(stored, query)).toBe('Individual');
  });
});

describe('another place, however close the spelling', () => {
  it.each([
    ['1200 Hwy 61', '1200 Hwy 62'],
    ['1200 County Road 5', '1200 State Road 5'],
    ['1200 CR 5', '1200 Hwy 5'],
    ['1200 State Hwy 61', '1200 US Hwy 61'],
    ['12 Main St Apt 3-C', '12 Main St Apt 3D'],
    ['12 Main St Apt 3C', '12 Main St Apt C3'],
    ['RR 2 Box 152', 'RR 3 Box 152'],
    ['12 W 125th St', '12 W 126th St'],
  ])('%s is not %s', (query, stored) => {
    expect(typeOf(query, stored)).toBeUndefined();
    expect(typeOf(stored, query)).toBeUndefined();
  });
});
