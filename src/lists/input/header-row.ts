/**
 * Whether the first row is a header.
 *
 * The `header` parameter defaults to `false`, and the commonest upload is one column of
 * addresses under an `email` heading sent without `header=true`; verifying the word "email" as
 * an address (and counting it as a record) is never what the caller meant. So the parameter is
 * the default and the row itself can overrule it, in both directions, only when it is
 * unmistakable:
 *
 * - `header=false`, yet the first row has a recognised column name and no address in it: it is a
 *   header, used exactly as with `header=true` (its other names map columns too).
 * - `header=true`, yet the first row has no recognised column name and holds an address: it is
 *   data (otherwise the first record would silently disappear).
 */
import { roleOf } from './header-map.js';

/** '@' with text on both sides, after trimming; the loose test used for detection only. */
export function looksLikeEmail(value: string): boolean {
  const v = value.trim();
  const at = v.indexOf('@');
  return at > 0 && v.lastIndexOf('@') < v.length - 1;
}

export interface HeaderDecision {
  header: boolean;
  /** True when the row overruled the `header` parameter. */
  overruled: boolean;
}

export function decideHeader(firstRow: readonly string[], headerParam: boolean): HeaderDecision {
  const named = firstRow.some((cell) => roleOf(cell) !== undefined);
  const holdsAddress = firstRow.some(looksLikeEmail);
  const header = headerParam ? named || !holdsAddress : named && !holdsAddress;
  return { header, overruled: header !== headerParam };
}
