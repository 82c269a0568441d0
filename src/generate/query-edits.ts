/**
 * The small edits identity query variants are made of (query-variants.ts): the exact query for a
 * record, dropping parameters, name keys, keyboard neighbours for typos, and the edit distance the
 * variants use to keep a "different" name truly different.
 */
import type { IdentityQuery } from '../identity/match/types.js';
import type { PersonImportRecord } from './records.js';

/** The query an integrator holding exactly the record would send. */
export function exactQuery(p: PersonImportRecord): IdentityQuery {
  const address = { street: p.address, city: p.city, state: p.state, zip: p.zip };
  return p.middle_name === undefined
    ? { first: p.first_name, last: p.last_name, ...address }
    : { first: p.first_name, middle: p.middle_name, last: p.last_name, ...address };
}

export function withoutKeys(q: IdentityQuery, ...keys: (keyof IdentityQuery)[]): IdentityQuery {
  const copy = { ...q };
  for (const k of keys) delete copy[k];
  return copy;
}

/** Lower-case letters only: how names compare here (`O'Brien` = `obrien`). */
export function key(name: string): string {
  return name.toLowerCase().replace(/[^a-z]/g, '');
}

export function capitalise(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

export const KEYBOARD_NEIGHBOURS: ReadonlyMap<string, string[]> = (() => {
  const rows = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
  const map = new Map<string, string[]>();
  for (const row of rows) {
    for (let i = 0; i < row.length; i++)
      map.set(
        row[i]!,
        [row[i - 1], row[i + 1]].filter((c): c is string => c !== undefined),
      );
  }
  return map;
})();

/** Optimal string alignment distance (Levenshtein with adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
