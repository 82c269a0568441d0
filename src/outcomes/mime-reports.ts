/**
 * Reports posted as messages: a delivery status notification (RFC 3464, `multipart/report;
 * report-type=delivery-status`) and an abuse report (ARF, RFC 5965, `report-type=feedback-report`).
 * The body is either the whole message (`message/rfc822`) or the report itself, its boundary in the
 * request's Content-Type (`multipart/report`). postal-mime splits the MIME tree; the report parts'
 * fields are read here. Only those fields are kept; the returned message and its text never are.
 * There is no ESP event id: an event's id is a SHA-256 of the fields it was read from, so the
 * same report posted twice gives the same ids.
 */
import { createHash } from 'node:crypto';
import PostalMime, { type Email } from 'postal-mime';
import type { OutcomeDelivery, OutcomeEvent, OutcomeKind, OutcomeSource } from './outcome-event.js';
import { enhancedStatus, occurredAt, outcomeEvent, refuse, requireEmail } from './outcome-fields.js';
import { field, fieldGroups, typedAddress } from './report-fields.js';

const DSN_PARTS = new Set(['message/delivery-status', 'message/global-delivery-status']);
const ARF_PARTS = new Set(['message/feedback-report']);
const ORIGINAL_PARTS = new Set(['message/rfc822', 'message/global', 'text/rfc822-headers', 'message/global-headers']);
/** RFC 3464 actions: `relayed` and `expanded` say nothing about a mailbox. */
const ACTIONS: Readonly<Record<string, OutcomeKind>> = { failed: 'bounce', delayed: 'deferral', delivered: 'delivery' };

export async function parseDsn(delivery: OutcomeDelivery, _secrets: unknown, now: Date): Promise<{ events: OutcomeEvent[] }> {
  const email = await readReport(delivery, 'delivery-status');
  const part = reportPart(email, DSN_PARTS);
  if (part === undefined)
    refuse(422, 'DSN: the report has no message/delivery-status part (RFC 3464 needs one after the human-readable part)');
  const [perMessage, ...perRecipient] = fieldGroups(part);
  if (perRecipient.length === 0) refuse(422, 'DSN: the delivery-status part has no per-recipient fields (Final-Recipient, Action, Status)');
  const events: OutcomeEvent[] = [];
  for (const recipient of perRecipient) {
    const action = field(recipient, 'action')?.toLowerCase();
    const kind = action === undefined ? undefined : ACTIONS[action];
    if (action === undefined) refuse(422, 'DSN: a per-recipient group has no Action field');
    if (kind === undefined) continue;
    const address = requireEmail(
      typedAddress(field(recipient, 'final-recipient') ?? field(recipient, 'original-recipient')),
      'DSN: Final-Recipient',
    );
    const status = enhancedStatus(field(recipient, 'status')?.split(/\s/)[0]);
    const diagnostic = field(recipient, 'diagnostic-code');
    const when = field(recipient, 'last-attempt-date') ?? field(perMessage, 'arrival-date') ?? email.date;
    events.push(
      outcomeEvent({
        source: 'dsn',
        eventId: digest('dsn', [
          field(perMessage, 'reporting-mta'),
          field(perMessage, 'original-envelope-id'),
          field(perMessage, 'arrival-date'),
          address.toLowerCase(),
          action,
          status,
          diagnostic,
          field(recipient, 'last-attempt-date'),
        ]),
        email: address,
        kind,
        status,
        diagnostic,
        occurredAt: occurredAt(when, now),
      }),
    );
  }
  return { events };
}

export async function parseArf(delivery: OutcomeDelivery, _secrets: unknown, now: Date): Promise<{ events: OutcomeEvent[] }> {
  const email = await readReport(delivery, 'feedback-report');
  const part = reportPart(email, ARF_PARTS);
  if (part === undefined) refuse(422, 'ARF: the report has no message/feedback-report part (RFC 5965 needs one)');
  const report = fieldGroups(part)[0];
  const feedbackType = field(report, 'feedback-type')?.toLowerCase();
  if (feedbackType === undefined) refuse(422, 'ARF: the feedback report has no Feedback-Type field');
  // Only an abuse report is a complaint; not-spam, virus, fraud and auth-failure reports are not about the recipient's wish.
  if (feedbackType !== 'abuse') return { events: [] };
  const recipients = report?.get('original-rcpt-to')?.map(typedAddress) ?? (await originalRecipients(email));
  const addresses = recipients.filter((value): value is string => value !== undefined);
  if (addresses.length === 0) refuse(422, 'ARF: no recipient (expected Original-Rcpt-To, or a To header in the original message)');
  const when = field(report, 'arrival-date') ?? field(report, 'received-date') ?? email.date;
  return {
    events: addresses.map((value) => {
      const address = requireEmail(value, 'ARF: Original-Rcpt-To');
      return outcomeEvent({
        source: 'arf',
        eventId: digest('arf', [
          feedbackType,
          field(report, 'original-mail-from'),
          field(report, 'arrival-date') ?? field(report, 'received-date'),
          field(report, 'source-ip'),
          field(report, 'reported-domain'),
          address.toLowerCase(),
          email.messageId,
        ]),
        email: address,
        kind: 'complaint',
        diagnostic: field(report, 'user-agent') ? `abuse report from ${field(report, 'user-agent')!}` : 'abuse report',
        occurredAt: occurredAt(when, now),
      });
    }),
  };
}

async function readReport(delivery: OutcomeDelivery, reportType: string): Promise<Email> {
  const format = reportType === 'delivery-status' ? 'DSN' : 'ARF';
  let raw: Buffer;
  if (delivery.contentType === 'multipart/report') {
    // The request's Content-Type is the report's: its boundary is there, not in the body.
    raw = Buffer.concat([Buffer.from(`Content-Type: ${delivery.contentTypeHeader.replace(/[\r\n]/g, ' ')}\r\n\r\n`), delivery.body]);
  } else if (delivery.contentType === 'message/rfc822' || delivery.contentType === 'text/plain') {
    raw = delivery.body;
  } else {
    return refuse(415, `${format}: expected the report as message/rfc822 or multipart/report, got ${delivery.contentType || 'none'}`);
  }
  let email: Email;
  try {
    email = await PostalMime.parse(raw, { forceRfc822Attachments: true, maxNestingDepth: 20 });
  } catch {
    return refuse(422, `${format}: the message could not be read as MIME`);
  }
  const contentType = email.headers.find((header) => header.key === 'content-type')?.value ?? '';
  if (!/^\s*multipart\/report\b/i.test(contentType))
    refuse(422, `${format}: expected a multipart/report message (report-type=${reportType})`);
  const declared = /;\s*report-type\s*=\s*"?([a-z-]+)"?/i.exec(contentType)?.[1]?.toLowerCase();
  if (declared !== undefined && declared !== reportType)
    refuse(422, `${format}: expected report-type=${reportType}, got report-type=${declared}`);
  return email;
}

function reportPart(email: Email, types: ReadonlySet<string>): string | undefined {
  const part = email.attachments.find((attachment) => types.has(attachment.mimeType));
  return part === undefined ? undefined : contentText(part.content);
}

/** The To addresses of the message the report is about (its third part), when it came with one. */
async function originalRecipients(email: Email): Promise<string[]> {
  const original = email.attachments.find((attachment) => ORIGINAL_PARTS.has(attachment.mimeType));
  if (original === undefined) return [];
  try {
    const message = await PostalMime.parse(original.content, { forceRfc822Attachments: true, maxNestingDepth: 20 });
    return (message.to ?? []).flatMap((address) => (address.group ? address.group.map((member) => member.address) : [address.address]));
  } catch {
    return [];
  }
}

function contentText(content: ArrayBuffer | Uint8Array | string): string {
  return typeof content === 'string' ? content : new TextDecoder().decode(content);
}

function digest(source: OutcomeSource, fields: (string | undefined)[]): string {
  return createHash('sha256')
    .update(JSON.stringify([source, ...fields.map((value) => value ?? null)]))
    .digest('hex');
}
