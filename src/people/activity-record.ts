/**
 * One row of `mailsure import activity` (decisions §2): `email`, `source`, `seen_at` and `event`,
 * checked and turned into an ActivityEvent on the UTC day it happened.
 */
import { normalizeEmail } from './email-hash.js';
import type { ActivityEvent } from './person.js';
import { describe, emailProblem, isBlank, textProblem, unknownFieldProblems } from './person-record.js';

export const ACTIVITY_COLUMNS: readonly string[] = ['email', 'source', 'seen_at', 'event'];
const EVENTS: readonly string[] = ['seen', 'open'];
const MAX_SOURCE = 100;
/** Clock skew between the data's source and this server. */
const FUTURE_SLACK_MS = 86_400_000;
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/** `now` bounds `seen_at`: an event can't come from the future. */
export function activityFrom(
  record: Record<string, unknown>,
  now: Date = new Date(),
): { activity: ActivityEvent } | { problems: string[] } {
  const problems = unknownFieldProblems(record, ACTIVITY_COLUMNS);
  const problem = (field: string, message: string) => problems.push(`${field}: ${message}`);
  const required = (field: string): string | undefined => {
    const value = record[field];
    if (isBlank(value)) {
      problem(field, 'missing');
      return undefined;
    }
    const wrong = textProblem(value, field === 'source' ? MAX_SOURCE : 4096);
    if (wrong) problem(field, wrong);
    return wrong ? undefined : (value as string).trim();
  };

  const email = required('email');
  if (email !== undefined) {
    const wrong = emailProblem(email);
    if (wrong) problem('email', wrong);
  }
  const source = required('source');
  const seenAt = required('seen_at');
  const seenOn = seenAt === undefined ? undefined : utcDay(seenAt);
  if (seenAt !== undefined && seenOn === undefined) problem('seen_at', `${describe(seenAt)} is not an ISO date or date-time`);
  else if (seenOn !== undefined && Date.parse(seenOn) > now.getTime() + FUTURE_SLACK_MS)
    problem('seen_at', `${describe(seenAt)} is in the future`);
  const event = required('event');
  if (event !== undefined && !EVENTS.includes(event)) problem('event', `${describe(event)} is not seen or open`);

  if (problems.length > 0) return { problems };
  return { activity: { email: normalizeEmail(email!), source: source!, seenOn: seenOn!, event: event as ActivityEvent['event'] } };
}

/**
 * The UTC day of `2024-03-05`, `2024-03-05T23:30:00-05:00` (→ 2024-03-06) or `2024-03-05 10:00`;
 * a date-time without a zone is taken as UTC. Undefined for anything else or an impossible date.
 */
export function utcDay(text: string): string | undefined {
  const m = ISO.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1, 7).map((part) => (part === undefined ? undefined : Number(part))) as number[];
  if (y! < 1970 || y! > 2100 || h > 23 || mi > 59 || s > 59) return undefined;
  const local = Date.UTC(y!, mo! - 1, d!, h, mi, s);
  const date = new Date(Date.UTC(y!, mo! - 1, d!));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo! - 1 || date.getUTCDate() !== d) return undefined;
  const offset = zoneOffsetMinutes(m[7]);
  if (offset === undefined) return undefined;
  return new Date(local - offset * 60_000).toISOString().slice(0, 10);
}

function zoneOffsetMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 14 || minutes > 59) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}
