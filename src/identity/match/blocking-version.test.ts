// BLOCKING_VERSION names what the live `personBlockingColumns` computes: stored people whose
// columns an older version derived are re-derived at the next open (refresh-blocking.ts). This
// pins what the live code computes over the copied corpora and a fixed generated set, so that a
// change to the street parser or the last-name code cannot land without a new version (and the
// re-derivation that comes with it).
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressesAndNames } from '../../../test/fixtures/corpora.js';
import { personBlockingColumns } from './blocking.js';
import { BLOCKING_VERSION } from './blocking-version.js';

/** The digest each version computes; add a line with the new version when the code changes on purpose. */
const DIGESTS: Record<number, string> = {
  2: '7d3663f09ad3aabac758708617505875b446275366f6a94dbffc5c1f1b0866d5',
};

// Words the street parser and the name normaliser treat specially, so generated inputs reach their rules.
const STREET_WORDS = ['123', '4', '1/2', '4922', 'B', 'N', 'SW', 'North', 'So', 'Main', 'Lake', 'St', 'St.', 'Ave', 'Rd', 'Hwy', 'US'];
const MORE_STREET_WORDS = ['County', 'Road', 'CR', 'I', 'Route', 'Apt', 'Suite', '#', '#12', 'Unit', 'Fl', '2nd', 'Rear', 'A', '4B'];
const LAST_STREET_WORDS = ['C-5', 'PO', 'P.O.', 'Box', 'RR', 'HC', 'First', 'Twenty', 'N165', 'W2123', '48S', '400E', 'One', ',', '&'];
const RURAL_WORDS = ['RD', 'Rural', 'Delivery', 'Twp', 'TWP', 'ST', 'HWY', 'CTY', '3-C', '02'];
const NAME_WORDS = ['Smith', "O'Brien", 'de', 'la', 'Cruz', 'van', 'Garcia-Lopez', 'Jr.', 'III', 'MD', 'Ødegård', 'Straße', 'Łukasz', '王'];
const line = (words: string[]) => fc.array(fc.constantFrom(...words), { maxLength: 9 }).map((w) => w.join(' '));
const anyText = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }));
const address = fc.oneof(line([...STREET_WORDS, ...MORE_STREET_WORDS, ...LAST_STREET_WORDS, ...RURAL_WORDS]), anyText);
const name = fc.oneof(line(NAME_WORDS), anyText);

function inputs(): { firstName: string; lastName: string; address: string }[] {
  const { addresses, names } = addressesAndNames();
  const fromCorpora = addresses.map((address, i) => ({
    firstName: names[i % names.length]!,
    lastName: names[(i * 7) % names.length]!,
    address,
  }));
  const generated = fc.sample(
    fc.record({ firstName: name, lastName: name, address }),
    // A fixed seed: the same inputs every run (an upgrade of fast-check may draw others; re-pin then).
    { numRuns: 5_000, seed: 20261129 },
  );
  return [...fromCorpora, ...generated];
}

describe('BLOCKING_VERSION', () => {
  it('names what the live personBlockingColumns computes (a change to it needs a new version)', () => {
    const all = inputs();
    expect(all.length).toBe(7_075);
    const digest = createHash('sha256')
      .update(JSON.stringify(all.map((p) => personBlockingColumns(p))))
      .digest('hex');
    expect(
      { version: BLOCKING_VERSION, digest },
      'personBlockingColumns computes something new: add one to BLOCKING_VERSION (refresh-blocking.ts) and its digest here',
    ).toEqual({ version: BLOCKING_VERSION, digest: DIGESTS[BLOCKING_VERSION] });
  });
});
