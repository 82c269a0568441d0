/**
 * Recognised header names (decisions §6), compared with case, spaces, underscores and dashes
 * ignored: `E-Mail`, `email_address` and ` Email Address ` are all the email column.
 * Two names beyond the decision's list, both harmless: `middle name` (beside `first name` and
 * `last name`) and `zip4` (decisions §5 accepts `zip4` for `zip` everywhere else).
 */
export const ROLES = ['email', 'first', 'middle', 'last', 'street', 'city', 'state', 'zip', 'sha1', 'md5'] as const;
export type HeaderRole = (typeof ROLES)[number];

const NAMES: Record<HeaderRole, string[]> = {
  email: ['email', 'email address', 'e-mail'],
  first: ['first', 'first name', 'fname'],
  middle: ['middle', 'middle name'],
  last: ['last', 'last name', 'lname'],
  street: ['street', 'address', 'address1'],
  city: ['city'],
  state: ['state'],
  zip: ['zip', 'zipcode', 'postal code', 'zip4'],
  sha1: ['sha1_email'],
  md5: ['md5_email'],
};

export function normalizeHeaderName(cell: string): string {
  return cell.toLowerCase().replace(/[\s_-]+/g, '');
}

const BY_NAME = new Map<string, HeaderRole>(ROLES.flatMap((role) => NAMES[role].map((name) => [normalizeHeaderName(name), role] as const)));

export function roleOf(cell: string): HeaderRole | undefined {
  return BY_NAME.get(normalizeHeaderName(cell));
}

export interface HeaderMap {
  /** The first column (0-based) of each recognised role. */
  columns: Partial<Record<HeaderRole, number>>;
  /** Every column of each role, for roles named more than once (several email columns). */
  all: Partial<Record<HeaderRole, number[]>>;
  /** Columns whose names are not recognised; they are carried into the results unchanged. */
  unrecognised: number[];
}

export function mapHeader(cells: readonly string[]): HeaderMap {
  const map: HeaderMap = { columns: {}, all: {}, unrecognised: [] };
  cells.forEach((cell, index) => {
    const role = roleOf(cell);
    if (!role) {
      map.unrecognised.push(index);
      return;
    }
    map.columns[role] ??= index;
    (map.all[role] ??= []).push(index);
  });
  return map;
}
