/**
 * First-name agreement through nicknames (data/nicknames.tsv, Apache-2.0, see data/README.md),
 * read once on first use.
 *
 * Variants go one hop each way: a name's nicknames and the formal names it is a nickname of. The
 * list links some names loosely (`robert` → `bill`, `william` → `bill`), so following links
 * further would chain `robert` to `william`, `bela` and beyond.
 */
import { readFileSync } from 'node:fs';
import { normalizeNamePart } from './normalize-person-name.js';

export type FirstNameAgreement = 'exact' | 'nickname' | 'initial' | 'none';

const EMPTY: ReadonlySet<string> = new Set();

interface NicknameIndex {
  nicknamesOf: ReadonlyMap<string, ReadonlySet<string>>;
  formalNamesOf: ReadonlyMap<string, ReadonlySet<string>>;
}

let index: NicknameIndex | undefined;

function add(map: Map<string, Set<string>>, key: string, value: string): void {
  let values = map.get(key);
  if (values === undefined) map.set(key, (values = new Set()));
  values.add(value);
}

function nicknameIndex(): NicknameIndex {
  if (index !== undefined) return index;
  const text = readFileSync(new URL('./data/nicknames.tsv', import.meta.url), 'utf8');
  const nicknamesOf = new Map<string, Set<string>>();
  const formalNamesOf = new Map<string, Set<string>>();
  const lines = text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
  if (lines[0] !== 'name\tnickname') throw new Error(`nicknames.tsv: unexpected header ${JSON.stringify(lines[0])}`);
  for (const line of lines.slice(1)) {
    const [rawName, rawNickname] = line.split('\t');
    const name = normalizeNamePart(rawName);
    const nickname = normalizeNamePart(rawNickname);
    if (name === '' || nickname === '') throw new Error(`nicknames.tsv: malformed line ${JSON.stringify(line)}`);
    if (name === nickname) continue;
    add(nicknamesOf, name, nickname);
    add(formalNamesOf, nickname, name);
  }
  index = { nicknamesOf, formalNamesOf };
  return index;
}

/** Every name the nickname data holds, formal or nickname, normalised. */
export function nicknameDataNames(): Iterable<string> {
  const { nicknamesOf, formalNamesOf } = nicknameIndex();
  return new Set([...nicknamesOf.keys(), ...formalNamesOf.keys()]);
}

/**
 * The normalised first name, its nicknames and the formal names it is a nickname of
 * (`bob` → `bob`, `robert`; `robert` → `robert`, `bob`, `rob`, …). The input may be raw or already
 * normalised; empty for a name with no letters or digits.
 */
export function nameVariants(first: string): ReadonlySet<string> {
  const name = normalizeNamePart(first);
  if (name === '') return EMPTY;
  const { nicknamesOf, formalNamesOf } = nicknameIndex();
  return new Set([name, ...(nicknamesOf.get(name) ?? EMPTY), ...(formalNamesOf.get(name) ?? EMPTY)]);
}

/**
 * How two first names agree, strongest first: `exact` after normalisation; `initial` when one is a
 * single letter and the other starts with it; `nickname` when one is a variant of the other.
 * Symmetric; `none` when either is empty.
 */
export function firstNamesAgree(a: string, b: string): FirstNameAgreement {
  const x = normalizeNamePart(a);
  const y = normalizeNamePart(b);
  if (x === '' || y === '') return 'none';
  if (x === y) return 'exact';
  if (isInitialOf(x, y) || isInitialOf(y, x)) return 'initial';
  // The index is built as two inverse maps, so one direction decides for both.
  const { nicknamesOf, formalNamesOf } = nicknameIndex();
  if (nicknamesOf.get(x)?.has(y) || formalNamesOf.get(x)?.has(y)) return 'nickname';
  return 'none';
}

function isInitialOf(initial: string, name: string): boolean {
  // Code points, not UTF-16 units, so an initial outside the Basic Multilingual Plane counts too.
  const letters = [...initial];
  return letters.length === 1 && name.startsWith(initial);
}
