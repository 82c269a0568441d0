/**
 * The plain data files in ./data (sources and licences in their headers and data/README.md), read
 * once on first use. The ZIP reference is exported for other modules: the identity issue checks
 * that a ZIP exists and agrees with its state and city against the same file.
 */
import { readFileSync } from 'node:fs';

export interface ZipPlace {
  /** Five digits. */
  zip: string;
  /** USPS preferred city name, e.g. `Saint Louis`. */
  city: string;
  /** Two-letter code. */
  state: string;
}

function dataLines(name: string): string[] {
  const text = readFileSync(new URL(`./data/${name}`, import.meta.url), 'utf8');
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

let zipPlaces: readonly ZipPlace[] | undefined;

/** Every line of data/us-zips.tsv, in file (ZIP) order. */
export function usZipPlaces(): readonly ZipPlace[] {
  if (zipPlaces === undefined) {
    const [header, ...rows] = dataLines('us-zips.tsv');
    if (header !== 'zip\tcity\tstate') throw new Error(`us-zips.tsv: unexpected header ${JSON.stringify(header)}`);
    zipPlaces = rows.map((row, i) => {
      const [zip, city, state] = row.split('\t');
      if (!/^\d{5}$/.test(zip ?? '') || !city || !/^[A-Z]{2}$/.test(state ?? '')) {
        throw new Error(`us-zips.tsv: malformed row ${i + 1}: ${JSON.stringify(row)}`);
      }
      return Object.freeze({ zip: zip!, city, state: state! });
    });
  }
  return zipPlaces;
}

let zipIndex: ReadonlyMap<string, ZipPlace> | undefined;

/** ZIP5 → its place, for lookups ("does this ZIP exist, in this state and city?"). */
export function zipReference(): ReadonlyMap<string, ZipPlace> {
  zipIndex ??= new Map(usZipPlaces().map((p) => [p.zip, p]));
  return zipIndex;
}

export interface NameLists {
  /** Most frequent first. */
  female: readonly string[];
  male: readonly string[];
  last: readonly string[];
  streets: readonly string[];
}

let names: NameLists | undefined;

export function nameLists(): NameLists {
  names ??= {
    female: dataLines('first-names-female.txt'),
    male: dataLines('first-names-male.txt'),
    last: dataLines('last-names.txt'),
    streets: dataLines('street-names.txt'),
  };
  return names;
}
