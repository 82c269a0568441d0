// Migration 0005's frozen copy of identity/address/line-units.ts as it stood at the freeze (frozen/0005-blocking.ts): never edit.
/**
 * Units found away from the end of a street line: before the house number (`APT 4 123 MAIN
 * ST`), around a PO Box (`DEPT 3234 PO BOX 123234`, `PO BOX 60000 FILE 73484`), and the joining
 * of a leading unit with a trailing one.
 */
import { routePrefixAt, unitDesignatorOf } from './pub28.js';
import { boxAt } from './street-box.js';
import { isFloorBefore, unitFrom, unitStart, type Unit } from './street-unit.js';
import { hasDigit, isHouseNumber, isUnitId } from './tokens.js';

/**
 * `APT 4 123 Main St`, `#42 233 S Wacker Dr`, `Suite 200 Bldg 17 7000 Peachtree Rd`: units
 * written before the house number, or a line that is nothing but units (`Bldg 15, Suite 100`).
 */
export function leadingUnit(tokens: readonly string[]): { unit: Unit; next: number } | undefined {
  let next = 0;
  while (next < tokens.length) {
    const designator = unitDesignatorOf(tokens[next]!);
    // `41ST FLOOR 1221 AVE OF THE AMERICAS`: here a number after the floor is the house's.
    const floor = /^\d+(ST|ND|RD|TH)$/.test(tokens[next]!) && unitDesignatorOf(tokens[next + 1] ?? '')?.abbreviation === 'FL';
    if (floor || isFloorBefore(tokens, next) || (designator?.requiresRange && isUnitId(tokens[next + 1]))) next += 2;
    else break;
  }
  if (next === 0) return undefined;
  // `APT 4 123` with nothing after the number: all unit, there is no street to number.
  if (next === tokens.length - 1 && isHouseNumber(tokens[next])) next++;
  if (next < tokens.length && !isHouseNumber(tokens[next]) && boxAt(tokens, next) === undefined) return undefined;
  return { unit: unitFrom(tokens.slice(0, next), 0), next };
}

/**
 * `DEPT 3234 PO BOX 123234`, `MAIL CODE 5021 PO BOX 660367`: words and a number before a PO
 * Box are a department or mail code — a unit of the box, whatever the words.
 */
export function unitBeforeBox(tokens: readonly string[]): { unit: Unit; next: number } | undefined {
  if (routePrefixAt(tokens, 0) !== undefined) return undefined;
  for (let k = 2; k <= Math.min(4, tokens.length); k++) {
    if (boxAt(tokens, k) === undefined) continue;
    const words = tokens.slice(0, k).filter((token) => !isNumberSign(token));
    const id = words[words.length - 1];
    if (words.length < 2 || !hasDigit(id) || !isUnitId(id) || !words.slice(0, -1).every(isUnitWord)) return undefined;
    const type = words
      .slice(0, -1)
      .map((word) => unitDesignatorOf(word)?.abbreviation ?? word)
      .join(' ');
    return { unit: { type, id: id! }, next: k };
  }
  return undefined;
}

function isNumberSign(token: string): boolean {
  return unitDesignatorOf(token)?.abbreviation === '#';
}

/** A word that can name a unit outside Appendix C2 (`FILE`, `LOCKBOX`, `MAIL CODE`). */
function isUnitWord(token: string): boolean {
  return /^[A-Z]{2,}$/.test(token) && !isNumberSign(token);
}

/**
 * `PO BOX 60000 FILE 73484`, `PO BOX 48 SUBSTATION # 1`: whatever follows a box and ends in a
 * number is its unit — Publication 28 designators, or the lockbox, file, bin and mail-code words
 * that box addresses carry.
 */
export function unitAfterBox(tokens: readonly string[], from: number): Unit | undefined {
  if (from >= tokens.length) return undefined;
  if (unitStart(tokens, from, tokens.length) === from) return unitFrom(tokens, from);
  const rest = tokens.slice(from).filter((token) => !isNumberSign(token));
  const id = rest[rest.length - 1];
  if (rest.length < 2 || rest.length > 4 || !hasDigit(id) || !isUnitId(id) || !rest.slice(0, -1).every(isUnitWord)) return undefined;
  return { type: rest.slice(0, -1).join(' '), id: id! };
}

/** A unit before the house number and one after it (`DEPT PN-12 1500 S HICKS RD STE 400`) are kept as one. */
export function joinUnits(first: Unit | undefined, second: Unit): Unit {
  if (first === undefined) return second;
  return { type: first.type, id: [first.id, second.type, second.id].filter((part) => part).join(' ') };
}
