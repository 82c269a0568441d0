// Migration 0005's frozen copy of identity/address/parse-street.ts as it stood at the freeze (frozen/0005-blocking.ts): never edit.
/**
 * A US delivery address line (no city, state or ZIP) split into Publication 28 components.
 *
 * The line is read left to right for what only appears at its start (a leading unit, a PO Box
 * or rural route box, the house number), then the unit is cut off the end, and the rest — the
 * street proper — is read by street-core.ts.
 *
 * Total: any string gives a result (`name: ''` when there is nothing like a street), and the
 * tokenizer caps the work on long input.
 */
import { formatStreetLine } from './format-street.js';
import { houseNumber } from './house-number.js';
import { joinUnits, leadingUnit, unitAfterBox, unitBeforeBox } from './line-units.js';
import { unitDesignatorOf } from './pub28.js';
import { boxAt } from './street-box.js';
import { streetCore } from './street-core.js';
import { afterSuffix, bareUnitAt } from './street-tail.js';
import { unitFrom, unitStart, type Unit } from './street-unit.js';
import { COMMA, isUnitId, tokenize } from './tokens.js';

export interface ParsedStreet {
  /** House number as written, upper-case: `123`, `123-B`, `12 1/2`, `N165 W2123`. */
  number?: string;
  /** Publication 28 directional before the name: `N`, `SW`. */
  preDirectional?: string;
  /** Upper-case, punctuation removed, ordinals as `1ST`, route words spelled out; `''` if none. */
  name: string;
  /** Publication 28 standard suffix abbreviation: `ST`, `AVE`. */
  suffix?: string;
  postDirectional?: string;
  /** Publication 28 secondary unit designator: `APT`, `STE`, `UNIT`, `#`; absent for a bare trailing unit number. */
  unitType?: string;
  unitId?: string;
}

function result(parts: Omit<ParsedStreet, 'unitType' | 'unitId'>, unit: Unit | undefined): ParsedStreet {
  // Keys in one order and only when set, so equal parses are deep-equal whatever path built them.
  return {
    ...(parts.number && { number: parts.number }),
    ...(parts.preDirectional && { preDirectional: parts.preDirectional }),
    name: parts.name,
    ...(parts.suffix && { suffix: parts.suffix }),
    ...(parts.postDirectional && { postDirectional: parts.postDirectional }),
    ...(unit?.type && { unitType: unit.type }),
    ...(unit?.id && { unitId: unit.id }),
  };
}

export function parseStreetTokens(all: readonly string[]): ParsedStreet {
  const tokens = all.filter((token) => token !== COMMA);
  let start = 0;
  let unit: Unit | undefined;
  const lead = leadingUnit(tokens) ?? (boxAt(tokens, 0) ? undefined : unitBeforeBox(tokens));
  if (lead) {
    unit = lead.unit;
    start = lead.next;
  }

  const box = boxAt(tokens, start);
  if (box) {
    // `RR 4 BOX 164 A`: a letter written apart after the box number belongs to it.
    const after = box.next + 1;
    const lettered =
      /^[A-DF-MO-RT-VX-Z]$/.test(tokens[box.next] ?? '') && (after === tokens.length || unitAfterBox(tokens, after) !== undefined);
    const number = lettered ? `${box.number} ${tokens[box.next]}` : box.number;
    return result({ number, name: box.name }, unit ?? unitAfterBox(tokens, lettered ? after : box.next));
  }

  const house = houseNumber(tokens, start);
  let end = tokens.length;
  // `110 W Edwards PO Box 5000`: a street and a box on one line; the street is the address.
  // A bare `BOX` there needs its number right after it: `MAIN BOX # 5` keeps box and unit apart.
  for (let k = house.next + 1; k < end; k++) {
    const trailingBox = boxAt(tokens, k);
    const bare = tokens[k] === 'BOX' && !/^\d/.test(tokens[k + 1] ?? '');
    if (trailingBox && trailingBox.next === end && !bare) {
      end = k;
      break;
    }
  }
  // A designator and its number right after the house number: the whole line's unit when
  // nothing but units follows (`123 # 12`); `6910 # G MARY CAROLINE CIR` has its unit first.
  // Any other word there starts the street (`100 FRONT ST`).
  let houseEnd = house.next;
  if (
    house.number !== undefined &&
    tokens[houseEnd] === '#' &&
    isUnitId(tokens[houseEnd + 1]) &&
    houseEnd + 2 < end &&
    unitStart(tokens, houseEnd + 2, end) !== houseEnd + 2
  ) {
    unit = joinUnits(unit, { type: '#', id: tokens[houseEnd + 1]! });
    houseEnd += 2;
  }
  const atStart =
    house.number !== undefined &&
    unitDesignatorOf(tokens[houseEnd] ?? '')?.requiresRange &&
    unitStart(tokens, houseEnd, end) === houseEnd &&
    isUnitId(tokens[houseEnd + 1]);
  const cut = atStart ? houseEnd : unitStart(tokens, houseEnd + 1, end);
  if (cut < end) {
    unit = joinUnits(unit, unitFrom(tokens.slice(0, end), cut));
    end = cut;
  }
  if (house.number !== undefined && unit === undefined) {
    const bare = bareUnitAt(tokens, houseEnd, end, house.preDirectional);
    if (bare < end) {
      unit ??= { type: '', id: tokens[bare]! };
      end = bare;
    }
  }
  const tail = afterSuffix(tokens, houseEnd, end);
  end = tail.end;
  if (tail.unit && unit === undefined) unit = tail.unit;
  const street = streetCore(tokens.slice(houseEnd, end), house.preDirectional);
  return result({ number: house.number, ...street }, unit);
}

function sameStreet(a: ParsedStreet, b: ParsedStreet): boolean {
  return (
    a.number === b.number &&
    a.preDirectional === b.preDirectional &&
    a.name === b.name &&
    a.suffix === b.suffix &&
    a.postDirectional === b.postDirectional &&
    a.unitType === b.unitType &&
    a.unitId === b.unitId
  );
}

/**
 * The parse of the canonical line, taken to a fixpoint: for the rare line whose canonical form
 * reads differently (`PO` or `FL` left inside a name), the canonical reading wins, so parsing
 * `formatStreetLine(p)` always gives `p` back. Almost every line is stable on the first round.
 */
export function settleStreet(first: ParsedStreet): ParsedStreet {
  let p = first;
  for (let round = 0; round < 4; round++) {
    const again = parseStreetTokens(tokenize(formatStreetLine(p)));
    if (sameStreet(again, p)) return p;
    p = again;
  }
  return p;
}

export function parseStreet(line: string): ParsedStreet {
  return settleStreet(parseStreetTokens(tokenize(line)));
}
