/**
 * Comparisons of two parsed streets' parts that a plain string test gets wrong:
 *
 * - a numbered road (Publication 28 section 237) is the same road under another class word of its
 *   kind: `STATE HIGHWAY 61`, `STATE ROUTE 61` and `STATE ROAD 61` are what states call one state
 *   road, and `HIGHWAY 61` or `ROUTE 61` with the class left out may be the state or the US road
 *   of that number; never a county road, and never another number (`HIGHWAY 61` and `HIGHWAY 62`
 *   are one letter apart and a mile apart, so no typo tolerance applies to them);
 * - a number in a street name is never a typo of another number (`125TH`, `126TH`);
 * - a unit id is the same in any punctuation: `3-C`, `3 C` and `3C` (and `03C`).
 */

/** Road classes whose class words name the same roads. */
const ROAD_CLASS: Readonly<Record<string, string>> = {
  'STATE HIGHWAY': 'state',
  'STATE ROUTE': 'state',
  'STATE ROAD': 'state',
  'US HIGHWAY': 'us',
  HIGHWAY: 'any',
  ROUTE: 'any',
  'COUNTY ROAD': 'county',
  'COUNTY HIGHWAY': 'county',
  'COUNTY ROUTE': 'county',
  'TOWNSHIP ROAD': 'township',
  'TOWNSHIP HIGHWAY': 'township',
  INTERSTATE: 'interstate',
  FM: 'fm',
  'RANCH ROAD': 'ranch',
};

/** A class with the class word left out may be one of these. */
const UNQUALIFIED_MAY_BE: ReadonlySet<string> = new Set(['state', 'us', 'any']);

const ROAD = new RegExp(`^(${Object.keys(ROAD_CLASS).join('|')}) 0*([0-9][0-9A-Z]*)$`);

export interface NumberedRoad {
  roadClass: string;
  number: string;
}

/** `STATE HIGHWAY 61` → state road 61; undefined for a name that is not a numbered road alone. */
export function numberedRoad(name: string): NumberedRoad | undefined {
  const m = ROAD.exec(name);
  return m ? { roadClass: ROAD_CLASS[m[1]!]!, number: m[2]! } : undefined;
}

/**
 * Whether two normalised street names (parseStreet's `name`) are one numbered road; undefined
 * when either is not a numbered road, for the caller's own comparison.
 */
export function sameNumberedRoad(a: string, b: string): boolean | undefined {
  const x = numberedRoad(a);
  const y = numberedRoad(b);
  if (x === undefined || y === undefined) return undefined;
  if (x.number !== y.number) return false;
  if (x.roadClass === y.roadClass) return true;
  return (x.roadClass === 'any' && UNQUALIFIED_MAY_BE.has(y.roadClass)) || (y.roadClass === 'any' && UNQUALIFIED_MAY_BE.has(x.roadClass));
}

/**
 * Whether two street names carry the same numbers (`125TH`, `RR 2 BOX`, `COUNTY ROAD 5`): a
 * number in a name is not a typo away from another (`125TH ST` and `126TH ST` are two streets).
 */
export function sameNumbersInName(a: string, b: string): boolean {
  const numbers = (s: string) => (s.match(/\d+/g) ?? []).map((n) => n.replace(/^0+(?=\d)/, '')).join(' ');
  return numbers(a) === numbers(b);
}

/** A unit id in one punctuation: `3-C`, `3 C` → `3C`; `C-3` → `C3`; leading zeros dropped. Other ids as given. */
export function unitIdKey(id: string | undefined): string | undefined {
  if (id === undefined) return undefined;
  const parts = id.split(/[\s-]+/).filter((part) => part !== '');
  const digits = (s: string) => s.replace(/^0+(?=\d)/, '');
  if (parts.length === 1 && /^\d+$/.test(parts[0]!)) return digits(parts[0]!);
  const m = /^(\d+)([A-Z])$|^([A-Z])(\d+)$/.exec(parts.join(''));
  // Only a number and a letter: `12-10` is two numbers (building and apartment), kept apart.
  if (m === null || parts.length > 2 || (parts.length === 2 && parts.every((part) => /^\d+$/.test(part)))) return id;
  return m[1] !== undefined ? `${digits(m[1])}${m[2]}` : `${m[3]}${digits(m[4]!)}`;
}
