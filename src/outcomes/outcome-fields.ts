/**
 * What every parser shares: refusals, the JSON body, and the bounds on what an event may carry.
 * An event is kept only with an address and an id (ingestion dedupes on the id and lists key on
 * the address); diagnostic text is cut to 500 characters, since only parsed fields are kept and a
 * remote server's reply can be long.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { OutcomeEvent, OutcomeParse, OutcomeRefusal } from './outcome-event.js';

export const MAX_DIAGNOSTIC = 500;
/** RFC 5321's path limit; anything longer is not an address a list could hold. */
const MAX_EMAIL = 320;
const MAX_EVENT_ID = 256;

export class Refused extends Error {
  constructor(readonly refusal: OutcomeRefusal) {
    super(refusal.message);
  }
}

export function refuse(status: OutcomeRefusal['status'], message: string): never {
  throw new Refused({ status, message });
}

export function refusal(status: OutcomeRefusal['status'], message: string): OutcomeParse {
  return { ok: false, refusal: { status, message } };
}

/** Compares two secrets in constant time (over their digests, so lengths leak nothing either). */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export function requireJson(contentType: string, format: string): void {
  // ESPs send application/json; some proxies add a vendor suffix (`application/vnd.x+json`), and SNS sends text/plain.
  if (contentType !== 'application/json' && contentType !== 'text/plain' && !contentType.endsWith('+json'))
    refuse(415, `${format} webhooks are JSON: expected Content-Type application/json, got ${contentType || 'none'}`);
}

export function parseJson(body: Buffer | string): unknown {
  try {
    return JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    return refuse(400, 'Invalid JSON');
  }
}

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A string field, trimmed; undefined when absent, empty or not a string. */
export function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed.length > 0 ? trimmed : undefined;
}

/** An id field that an ESP may send as a string or a number. */
export function idText(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return text(value);
}

/** The recipient as the ESP wrote it, or a refusal naming the field that should have held it. */
export function requireEmail(value: unknown, where: string): string {
  const email = text(value);
  if (email === undefined || !email.includes('@') || email.length > MAX_EMAIL || /\s/.test(email))
    refuse(422, `${where}: expected a recipient address`);
  return email;
}

export function requireEventId(value: string | undefined, where: string): string {
  if (value === undefined || value.length > MAX_EVENT_ID)
    refuse(422, `${where}: expected an event id (at most ${MAX_EVENT_ID} characters)`);
  return value;
}

/** An address inside a reply text (`<gone@receiver.example>`): its local part is the personal part. */
const ADDRESS_IN_TEXT = /[\w.!#$%&'*+/=?^`{|}~-]+@((?:[\w-]+\.)+[\w-]+)/g;

/** `smtp; 550 …` (RFC 3464's diagnostic-type: `smtp` or an `X-` name, also in SES, Postmark and SparkPost texts) names the kind of text. */
const DIAGNOSTIC_TYPE = /^(?:smtp|x-[a-z0-9-]+)\s*;\s*/i;

/**
 * The diagnostic as kept: whitespace flattened, any diagnostic-type prefix removed, at most 500 characters, and every address in it
 * reduced to its domain (`*@receiver.example`): replies echo the recipient, and the text is kept
 * beside counts that never name an address.
 */
export function clipDiagnostic(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  // Cut first: the texts come from anyone, and the work below must not grow with a 10 MB body.
  let flat = value
    .slice(0, MAX_DIAGNOSTIC * 4)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(DIAGNOSTIC_TYPE, '');
  if (flat.includes('@')) flat = flat.replace(ADDRESS_IN_TEXT, '*@$1');
  if (flat.length === 0) return undefined;
  return flat.length > MAX_DIAGNOSTIC ? flat.slice(0, MAX_DIAGNOSTIC) : flat;
}

/** Seconds since the epoch (SendGrid, Mailgun; SparkPost as a string) or a date (SES, Postmark, DSN); `now` when unusable. */
export function occurredAt(value: unknown, now: Date): Date {
  if (typeof value === 'number' && Number.isFinite(value)) {
    const date = new Date(Math.round(value * 1000));
    if (!Number.isNaN(date.getTime())) return date;
  }
  if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim())) return occurredAt(Number(value), now);
  if (typeof value === 'string' && value.trim().length > 0) {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return now;
}

const ENHANCED = /(?:^|[\s;(#])([245]\.\d{1,3}\.\d{1,3})(?=[\s;:,.)\]]|$)/;
const LEADING_CODE = /^(?:[a-z0-9-]+;\s*)?([245]\d\d)(?=[\s-]|$)/i;

/**
 * The SMTP reply code and RFC 3463 enhanced status a diagnostic text carries: `smtp; 550 5.1.1 …`
 * (a DSN's Diagnostic-Code, SES's diagnosticCode), `550 5.1.1 …`, `… (#5.1.1 - chkuser)`.
 */
export function replyCodes(diagnostic: string | undefined): { smtpCode?: number; enhancedStatus?: string } {
  if (diagnostic === undefined) return {};
  const code = LEADING_CODE.exec(diagnostic)?.[1];
  const enhanced = ENHANCED.exec(diagnostic)?.[1];
  return { ...(code ? { smtpCode: Number(code) } : {}), ...(enhanced ? { enhancedStatus: enhanced } : {}) };
}

/** A well-formed RFC 3463 status field (`5.1.1`), else undefined. */
export function enhancedStatus(value: unknown): string | undefined {
  const status = text(value);
  return status !== undefined && /^[245]\.\d{1,3}\.\d{1,3}$/.test(status) ? status : undefined;
}

/** Builds an event, leaving out what is unknown and preferring the ESP's status field to the one in the text. */
export function outcomeEvent(fields: {
  source: OutcomeEvent['source'];
  eventId: string;
  email: string;
  kind: OutcomeEvent['kind'];
  status?: string | undefined;
  smtpCode?: number | undefined;
  diagnostic?: string | undefined;
  occurredAt: Date;
}): OutcomeEvent {
  const diagnostic = clipDiagnostic(fields.diagnostic);
  const fromText = replyCodes(diagnostic);
  // An ESP's status field that says only "failed" (`5.0.0`) yields to a precise code in the text.
  const enhanced = fields.status && !/\.0\.0$/.test(fields.status) ? fields.status : (fromText.enhancedStatus ?? fields.status);
  const smtpCode = fields.smtpCode ?? fromText.smtpCode;
  return {
    source: fields.source,
    eventId: fields.eventId,
    email: fields.email,
    kind: fields.kind,
    ...(enhanced ? { enhancedStatus: enhanced } : {}),
    ...(smtpCode !== undefined ? { smtpCode } : {}),
    ...(diagnostic ? { diagnostic } : {}),
    occurredAt: fields.occurredAt,
  };
}
