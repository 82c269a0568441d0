/**
 * Which list services a file's columns can feed (decisions §6): `email_validation` needs
 * addresses; `email_append` a name and a postal address; `email_intelligence` an address, a
 * hashed address, or a name with a postal address (decisions §5: first + last with street, city
 * and state, or with a ZIP). Whether one record has the data is the record's business; this
 * only decides from the columns.
 */
import { fail, ok, type Outcome } from '../outcome.js';
import { NO_EMAIL_COLUMN } from './email-column.js';
import type { ListServiceName } from '../list-record.js';
import type { HeaderRole } from './header-map.js';

export type ListService = ListServiceName;

export type RoleColumns = Partial<Record<HeaderRole, number>>;

export function feedableServices(columns: RoleColumns): ListService[] {
  const has = (role: HeaderRole) => columns[role] !== undefined;
  const name = has('first') && has('last');
  const streetAddress = has('street') && ((has('city') && has('state')) || has('zip'));
  const postal = (has('street') && has('city') && has('state')) || has('zip');
  const services: ListService[] = [];
  if (has('email')) services.push('email_validation');
  if (has('email') || has('sha1') || has('md5') || (name && postal)) services.push('email_intelligence');
  if (name && streetAddress) services.push('email_append');
  return services;
}

/** The services that read the email column when the file has one. */
const READS_EMAIL: readonly ListService[] = ['email_validation', 'email_intelligence'];

/**
 * The key's list services that the file can feed, in the key's order; none is `Invalid`.
 * `emailColumnMismatch` (email-column.ts: the `email_column` parameter names a column without
 * addresses) makes it `Invalid` too when a planned service would read that column: verifying a
 * column of names bills every record for nothing.
 */
export function planServices(
  keyServices: readonly ListService[],
  columns: RoleColumns,
  emailColumnMismatch?: string,
): Outcome<ListService[]> {
  const feedable = new Set(feedableServices(columns));
  const planned = keyServices.filter((s) => feedable.has(s));
  if (emailColumnMismatch !== undefined && planned.some((s) => READS_EMAIL.includes(s))) return fail(emailColumnMismatch);
  if (planned.length > 0) return ok(planned);
  if (columns.email === undefined) return fail(NO_EMAIL_COLUMN);
  return fail(`The file's columns cannot feed any service of this key (${keyServices.join(', ') || 'none'})`);
}
