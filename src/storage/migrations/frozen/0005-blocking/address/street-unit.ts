// Migration 0005's frozen copy of identity/address/street-unit.ts as it stood at the freeze (frozen/0005-blocking.ts): never edit.
/**
 * Secondary units (Publication 28 Appendix C2): where a unit starts in a street line and what it
 * holds. A unit runs from its designator to the end of the line; a second designator inside it
 * (`BLDG A FL 3`) stays in the unit id, abbreviated, rather than being dropped.
 */
import { routePrefixAt, unitDesignatorOf } from './pub28.js';
import { hasDigit, isUnitId } from './tokens.js';

export interface Unit {
  type: string;
  id?: string;
}

/**
 * Designators that mean a unit even with nothing after them at the end of a line (`… APT`); not
 * `KEY`, `PIER`, `LOT`, which also end street names, nor `NO`, which is then North.
 */
const BARE_AT_END = new Set(['APT', 'APARTMENT', 'STE', 'SUITE', 'UNIT', 'RM', 'ROOM', 'BLDG', 'BUILDING', 'DEPT']);

/**
 * `27TH FL`, `SECOND FLOOR ROOM 905`: a floor written ordinal first. Not when a number follows
 * the `FL` (`W 1ST FL 5` is 1st Street, floor 5).
 */
export function isFloorBefore(tokens: readonly string[], at: number): boolean {
  if (!/^\d+(ST|ND|RD|TH)$/.test(tokens[at] ?? '')) return false;
  if (unitDesignatorOf(tokens[at + 1] ?? '')?.abbreviation !== 'FL') return false;
  return !isUnitId(tokens[at + 2]) && tokens[at + 2] !== '#';
}

/** `#`, `NO`, `NUM`: "number", which adds nothing next to a designator. */
function isNumberSign(token: string | undefined): boolean {
  return token !== undefined && unitDesignatorOf(token)?.abbreviation === '#';
}

/** Whether a unit id follows `tokens[at]`, past number signs (`APT # 4`, `DEPT NO 12`). */
function idAfter(tokens: readonly string[], at: number): boolean {
  let k = at;
  while (k < at + 2 && isNumberSign(tokens[k])) k++;
  return isUnitId(tokens[k]);
}

/** The unit spelled by `tokens[from…]`, which starts with a designator. */
export function unitFrom(tokens: readonly string[], from: number): Unit {
  const first = tokens[from]!;
  if (isFloorBefore(tokens, from)) {
    const rest = unitFrom(tokens, from + 1);
    return { type: 'FL', id: [first, rest.id].filter((part) => part !== undefined).join(' ') };
  }
  const type = unitDesignatorOf(first)?.abbreviation ?? first;
  // Designators inside the id are abbreviated (`BLDG A FLOOR 3` → `A FL 3`), except the
  // number signs, kept as written. A sign right after the designator adds nothing (`APT # 4`).
  const rest = tokens
    .slice(from + 1)
    .filter((token) => token !== ',')
    .map((token) => {
      const designator = unitDesignatorOf(token);
      return designator && designator.abbreviation !== '#' ? designator.abbreviation : token;
    });
  while (isNumberSign(rest[0]) && rest.length > 1) rest.shift();
  return rest.length === 0 ? { type } : { type, id: rest.join(' ') };
}

/**
 * Index of the first token that starts a unit in `tokens[from…to)`, or `to` when there is none.
 * `minStart` keeps the street name non-empty: a designator cannot be the street's first word
 * (`100 Front St`, `100 Ste Genevieve Ave`).
 */
export function unitStart(tokens: readonly string[], minStart: number, to: number): number {
  for (let q = minStart; q < to; q++) {
    const token = tokens[q]!;
    const next = tokens[q + 1];
    const isLast = q === to - 1;
    if (isFloorBefore(tokens, q) && q + 1 < to) return q;
    // `# APT 3`: the sign before a designator adds nothing.
    if (token === '#' && unitDesignatorOf(next ?? '') !== undefined && next !== '#') continue;
    const designator = unitDesignatorOf(token);
    if (designator === undefined) continue;
    // `HIGHWAY NO 130`: after a route word `NO` is part of the road's name.
    if (token === 'NO' && q > 0 && routePrefixAt(tokens, q - 1)?.anywhere) continue;
    if (designator.requiresRange) {
      // `NO`, `#` need their number right after them (`MAIN NO # 12` is the street NO, unit 12).
      if (!isLast && (designator.abbreviation === '#' ? isUnitId(next) : idAfter(tokens, q + 1))) return q;
      if (isLast && BARE_AT_END.has(token)) return q;
      continue;
    }
    // `REAR`, `LOBBY`, `FRONT`: only at the end, or followed by a number or letter that ends
    // the line (`LOBBY 2`, not `FRONT ST`).
    if (isLast || (q === to - 2 && isUnitId(next) && (hasDigit(next) || next!.length === 1))) return q;
  }
  return to;
}
