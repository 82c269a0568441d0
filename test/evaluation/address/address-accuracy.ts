/**
 * Component accuracy of parseUsAddress on two public corpora (in test/fixtures/corpora):
 *
 * - `us_address_usaddress_labeled.json` (datamade/usaddress, MIT; us50 rows IIT Bombay). Labels
 *   map to our components as:
 *   number ← AddressNumberPrefix + AddressNumber + AddressNumberSuffix (`2615 1/2`, `4922 B`);
 *   preDirectional ← StreetNamePreDirectional; name ← StreetNamePreModifier + StreetNamePreType +
 *   StreetName (`Old` `US Hwy` `50` → `OLD US HIGHWAY 50`: we keep route words in the name, as
 *   Publication 28 §237 does); suffix ← StreetNamePostType; postDirectional ←
 *   StreetNamePostDirectional; StreetNamePostModifier (`EXT`, `ALT`, 3 rows) is not compared;
 *   unitType/unitId ← the Occupancy and Subaddress tokens in order: the leading run of type
 *   tokens is the unit type (`mail code`), everything after it the id (`Bldg A Flr 3` → BLDG /
 *   `A FL 3`); an id written before its type is swapped (`27th Fl`); an id with no type that
 *   starts with a designator has that as its type (`# 16988`, `No 2202`, `Suite100`, `lobby`);
 *   PO Box rows (USPSBoxType/ID, no street) → name
 *   `PO BOX` (or `RR 2 BOX` with USPSBoxGroupType/ID) and number ← USPSBoxID; a row with both a
 *   street and a box is scored on the street; city ← PlaceName; state ← StateName (names →
 *   codes); zip5/plus4 ← ZipCode (+ ZipPlus4).
 *   Rows labelled Recipient, BuildingName, LandmarkName, NotAddress, IntersectionSeparator or
 *   CornerOf are left out (196 of the 2,000): names of people, firms, buildings and
 *   intersections are not part of what we parse. The us50 rows (coarse labels: `South Burr Street` is one StreetName) are
 *   reported apart and not scored on preDirectional, name, suffix or postDirectional.
 * - `us_address_parse_address.json` (hassansin/parse-address test.js, ISC): number, prefix →
 *   preDirectional, street → name, type → suffix, suffix → postDirectional, sec_unit_* → unit,
 *   city, state, zip → zip5, plus4. parse-address files a PO Box as a unit; it is mapped to name
 *   `PO BOX` + number. parse-address drops a fraction from the house number (`3813 1/2` →
 *   `3813`), so numbers in this corpus are compared without one. Intersections are left out.
 *
 * `street` is every word of pre-directional, name, suffix and post-directional as one bag of
 * abbreviated words: the part of a street key that matching compares, and the only street
 * component the us50 labels support.
 *
 * Both sides are normalised the same way (accuracy-normalize.ts). A component is counted for a
 * row when either side has a value: saying nothing when the corpus has a value, or a value when
 * it has none, is an error. `overall` is all correct over all counted, across components.
 */
import parseAddress from 'parse-address';
import { readFileSync } from 'node:fs';
import { COMPONENTS, componentsOf, normalizeComponent, type ComponentName, type Components } from './accuracy-normalize.js';
import {
  COARSE_SKIPPED,
  isCoarse,
  isIntersection,
  OUT_OF_SCOPE_LABELS,
  parseAddressExpected,
  usaddressExpected,
  type ParseAddressRow,
  type UsaddressRow,
} from './accuracy-gold.js';
import { corpusUrl } from '../../fixtures/corpora.js';
import { parseUsAddress } from '../../../src/identity/address/parse-us-address.js';

export interface CorpusAccuracy {
  corpus: string;
  rows: number;
  components: { name: string; correct: number; total: number }[];
  overall: number;
}

export interface RowError {
  input: string;
  component: ComponentName;
  expected: string;
  actual: string;
}

interface Case {
  input: string;
  expected: Components;
  skip: readonly ComponentName[];
  /** parse-address corpus: house numbers compared without a trailing fraction. */
  wholeNumbers: boolean;
}

const CORPORA = new URL('.', corpusUrl('README.md'));

function load<T>(file: string, dir: URL): T[] {
  return JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as T[];
}

function corpora(dir: URL): { corpus: string; cases: Case[] }[] {
  const usaddress = load<UsaddressRow>('us_address_usaddress_labeled.json', dir).filter(
    (row) => !OUT_OF_SCOPE_LABELS.some((label) => label in row.components),
  );
  const parseAddressRows = load<ParseAddressRow>('us_address_parse_address.json', dir).filter((row) => !isIntersection(row));
  const usaddressCase = (row: UsaddressRow): Case => ({
    input: row.input,
    expected: usaddressExpected(row),
    skip: isCoarse(row) ? COARSE_SKIPPED : [],
    wholeNumbers: false,
  });
  return [
    { corpus: 'usaddress labeled.xml + training (fine labels)', cases: usaddress.filter((row) => !isCoarse(row)).map(usaddressCase) },
    { corpus: 'usaddress us50 (coarse street labels)', cases: usaddress.filter(isCoarse).map(usaddressCase) },
    {
      corpus: 'parse-address test.js',
      cases: parseAddressRows.map((row) => ({ input: row.input, expected: parseAddressExpected(row), skip: [], wholeNumbers: true })),
    },
  ];
}

function compared(component: ComponentName, text: string | undefined, wholeNumbers: boolean): string {
  const value = normalizeComponent(component, text);
  return component === 'number' && wholeNumbers ? value.replace(/ \d+\/\d+$/, '') : value;
}

function score(corpus: string, cases: readonly Case[], predict: (input: string) => Components, errors?: RowError[]): CorpusAccuracy {
  const counts = new Map<ComponentName, { correct: number; total: number }>(COMPONENTS.map((name) => [name, { correct: 0, total: 0 }]));
  for (const c of cases) {
    const actual = predict(c.input);
    for (const component of COMPONENTS) {
      if (c.skip.includes(component)) continue;
      const expected = compared(component, c.expected[component], c.wholeNumbers);
      const got = compared(component, actual[component], c.wholeNumbers);
      if (expected === '' && got === '') continue;
      const count = counts.get(component)!;
      count.total++;
      if (expected === got) count.correct++;
      else errors?.push({ input: c.input, component, expected, actual: got });
    }
  }
  const components = [...counts].filter(([, count]) => count.total > 0).map(([name, count]) => ({ name, ...count }));
  const correct = components.reduce((sum, c) => sum + c.correct, 0);
  const total = components.reduce((sum, c) => sum + c.total, 0);
  return { corpus, rows: cases.length, components, overall: total === 0 ? 0 : correct / total };
}

function ours(input: string): Components {
  return componentsOf(parseUsAddress(input));
}

/** parseUsAddress, per corpus and component. */
export function measureAddressAccuracy(corporaDir: URL = CORPORA): CorpusAccuracy[] {
  return corpora(corporaDir).map(({ corpus, cases }) => score(corpus, cases, ours));
}

/** Every disagreement, for looking at what is still wrong (`parse-address`: the baseline's). */
export function listAddressErrors(
  parser: 'mailsure' | 'parse-address' = 'mailsure',
  corporaDir: URL = CORPORA,
): { corpus: string; errors: RowError[] }[] {
  return corpora(corporaDir).map(({ corpus, cases }) => {
    const errors: RowError[] = [];
    score(corpus, cases, parser === 'mailsure' ? ours : theirs, errors);
    return { corpus, errors };
  });
}

function theirs(input: string): Components {
  let found: ReturnType<typeof parseAddress.parseLocation>;
  try {
    found = parseAddress.parseLocation(input);
  } catch {
    found = null;
  }
  return found === null ? {} : parseAddressExpected({ input, components: found as Record<string, string> });
}

/** parse-address's `parseLocation` alone, scored the same way: the baseline we improve on. */
export function measureParseAddressBaseline(corporaDir: URL = CORPORA): CorpusAccuracy[] {
  return corpora(corporaDir).map(({ corpus, cases }) => score(corpus, cases, theirs));
}
