/**
 * PO Box, rural route and highway contract route lines (Publication 28 sections 24, 25, 28 and
 * military 225). They have no street: we store the box as `name` + `number` so that one shape
 * holds every delivery line and `streetKey` still compares them:
 *
 * - `PO BOX 123`, `P.O. Box 123`, `POB 123`, `Post Office Box 123`, `Box 123` → name `PO BOX`,
 *   number `123`;
 * - `RR 2 Box 152`, `Rural Route 2 Box 152`, `RFD 2 Box 152` → name `RR 2 BOX`, number `152`;
 *   `HC 68 Box 23A`, `Highway Contract Route 68 …`, `Star Route 68 …` → `HC 68 BOX`; the route
 *   number without leading zeros (`RR 02` is RR 2), the box written first (`Box 152 RR 2`) or
 *   with a number sign (`RR 2 # 152`) as well;
 *   military `PSC 3 Box 1234` / `CMR 411 Box 3568` keep their designator.
 */
import { unitDesignatorOf } from './pub28.js';
import { isUnitId } from './tokens.js';

export interface BoxMatch {
  name: string;
  number: string;
  /** Index of the first token after the box. */
  next: number;
}

const PO_FORMS: readonly (readonly string[])[] = [
  ['POST', 'OFFICE', 'BOX'],
  ['P', 'O', 'BOX'],
  ['P', 'O', 'B'],
  ['PO', 'BOX'],
  ['PO', 'BX'],
  ['POBOX'],
  ['POB'],
  ['BOX'],
  ['BX'],
  ['POST', 'OFFICE'],
  ['ROUTE', 'BOX'],
  ['PO'],
];

const GROUP_FORMS: readonly (readonly [readonly string[], string])[] = [
  [['HIGHWAY', 'CONTRACT', 'ROUTE'], 'HC'],
  [['HIGHWAY', 'CONTRACT', 'RTE'], 'HC'],
  [['HIGHWAY', 'CONTRACT', 'RT'], 'HC'],
  [['HWY', 'CONTRACT', 'ROUTE'], 'HC'],
  [['HWY', 'CONTRACT', 'RTE'], 'HC'],
  [['HIGHWAY', 'CONTRACT'], 'HC'],
  [['HWY', 'CONTRACT'], 'HC'],
  [['STAR', 'ROUTE'], 'HC'],
  [['STAR', 'RTE'], 'HC'],
  [['HC', 'ROUTE'], 'HC'],
  [['HC', 'R'], 'HC'],
  [['H', 'C'], 'HC'],
  [['HCR'], 'HC'],
  [['HC'], 'HC'],
  [['RURAL', 'ROUTE'], 'RR'],
  [['RURAL', 'RTE'], 'RR'],
  [['RURAL', 'RT'], 'RR'],
  [['R', 'F', 'D'], 'RR'],
  [['R', 'R'], 'RR'],
  // Rural delivery (Pennsylvania's `RD 2 Box 152`): Publication 28 writes it as a rural route. Only
  // with a box after the group (routeBoxAt), so `RD 2` alone stays a road.
  [['RURAL', 'DELIVERY'], 'RR'],
  [['R', 'D'], 'RR'],
  [['RD'], 'RR'],
  [['RFD'], 'RR'],
  [['RR'], 'RR'],
  [['ROUTE'], 'RR'],
  [['RTE'], 'RR'],
  [['RT'], 'RR'],
  [['PSC'], 'PSC'],
  [['CMR'], 'CMR'],
];

function formAt(tokens: readonly string[], at: number, form: readonly string[]): boolean {
  return form.every((word, k) => tokens[at + k] === word);
}

/** The box id after a box word: skips a `#`; `undefined` when none follows. */
function idAt(tokens: readonly string[], at: number): { id: string; next: number } | undefined {
  const k = unitDesignatorOf(tokens[at] ?? '')?.abbreviation === '#' ? at + 1 : at;
  const id = tokens[k];
  // `PO 1ST` is not a box: an ordinal is a street name.
  return isUnitId(id) && !/^\d+(ST|ND|RD|TH)$/.test(id!) ? { id: id!, next: k + 1 } : undefined;
}

/** `PO BOX 123` (and its spellings) starting at `tokens[at]`. */
export function poBoxAt(tokens: readonly string[], at: number): BoxMatch | undefined {
  for (const form of PO_FORMS) {
    if (!formAt(tokens, at, form)) continue;
    const id = idAt(tokens, at + form.length);
    // A bare `BOX`, `PO` or `POST OFFICE` needs a number after it: `Box Elder St` is a street.
    if (id === undefined || ((form.length === 1 || form[0] === 'POST') && form[0] !== 'POB' && form[0] !== 'POBOX' && !/\d/.test(id.id)))
      continue;
    return { name: 'PO BOX', number: id.id, next: id.next };
  }
  return undefined;
}

/** A route group: `RR 2` (and its spellings) at `tokens[at]`, the number without leading zeros. */
function groupAt(tokens: readonly string[], at: number): { kind: string; id: string; next: number } | undefined {
  for (const [form, kind] of GROUP_FORMS) {
    if (!formAt(tokens, at, form)) continue;
    const group = idAt(tokens, at + form.length);
    if (group === undefined) continue;
    return { kind, id: group.id.replace(/^0+(?=\d)/, ''), next: group.next };
  }
  return undefined;
}

/** `RR 2 BOX 152`, `HC 68 BOX 23A`, `PSC 3 BOX 1234`, `RR 2 # 152` starting at `tokens[at]`. */
export function routeBoxAt(tokens: readonly string[], at: number): BoxMatch | undefined {
  for (const [form] of GROUP_FORMS) {
    if (!formAt(tokens, at, form)) continue;
    const group = groupAt(tokens, at);
    if (group === undefined) return undefined;
    const box = poBoxAt(tokens, group.next);
    if (box !== undefined) return { name: `${group.kind} ${group.id} BOX`, number: box.number, next: box.next };
    // `RR 2 # 152`: on a rural route the number after the sign can only be the box.
    const signed = group.kind === 'RR' && tokens[group.next] === '#' ? idAt(tokens, group.next) : undefined;
    if (signed !== undefined && /^\d/.test(signed.id) && signed.next === tokens.length)
      return { name: `${group.kind} ${group.id} BOX`, number: signed.id, next: signed.next };
    return undefined;
  }
  return undefined;
}

/** `BOX 152 RR 2`: a bare box written before its route, the whole line (`PO BOX 5 RT 3` stays a PO Box). */
function boxBeforeRoute(tokens: readonly string[], at: number): BoxMatch | undefined {
  if (tokens[at] !== 'BOX' && tokens[at] !== 'BX') return undefined;
  const box = poBoxAt(tokens, at);
  if (box === undefined) return undefined;
  const group = groupAt(tokens, box.next);
  if (group === undefined || group.kind !== 'RR' || group.next !== tokens.length) return undefined;
  return { name: `${group.kind} ${group.id} BOX`, number: box.number, next: group.next };
}

export function boxAt(tokens: readonly string[], at: number): BoxMatch | undefined {
  return routeBoxAt(tokens, at) ?? boxBeforeRoute(tokens, at) ?? poBoxAt(tokens, at);
}
