/**
 * SendGrid's event webhook: a JSON array of events, each with `event`, `email`, `timestamp` and
 * `sg_event_id`. Only the outcomes matter here (bounce, dropped, deferred, delivered,
 * spamreport); engagement events (processed, open, click, unsubscribe…) are skipped.
 *
 * A `bounce` event's `type` says which it was: `bounce` (the remote server refused the recipient)
 * or `blocked` (SendGrid's word for a refusal of the message or of its sender). A `dropped` event is
 * SendGrid declining to send at all (its own suppression lists, invalid headers): never a word
 * from the recipient's server, so it is recorded as blocked.
 *
 * Signed event webhooks (when the operator set the verification key): an ECDSA P-256 signature,
 * base64 DER, over the timestamp header followed by the raw body.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { OutcomeDelivery, OutcomeEvent, OutcomeKind, OutcomeSecrets } from './outcome-event.js';
import {
  enhancedStatus,
  idText,
  isObject,
  occurredAt,
  outcomeEvent,
  parseJson,
  refuse,
  requireEmail,
  requireEventId,
  requireJson,
  text,
} from './outcome-fields.js';

const SIGNATURE_HEADER = 'x-twilio-email-event-webhook-signature';
const TIMESTAMP_HEADER = 'x-twilio-email-event-webhook-timestamp';

export function parseSendgrid(delivery: OutcomeDelivery, secrets: OutcomeSecrets, now: Date): OutcomeEvent[] {
  if (secrets.sendgridPublicKey !== undefined) checkSignature(delivery, secrets.sendgridPublicKey);
  requireJson(delivery.contentType, 'SendGrid');
  const body = parseJson(delivery.body);
  if (!Array.isArray(body)) refuse(422, 'SendGrid event webhook: expected a JSON array of events');
  const events: OutcomeEvent[] = [];
  body.forEach((item: unknown, index) => {
    const where = `SendGrid event ${index}`;
    if (!isObject(item) || typeof item.event !== 'string') refuse(422, `${where}: expected an object with an "event" field`);
    const kind = kindOf(item);
    if (kind === undefined) return;
    const diagnostic = text(item.reason) ?? text(item.response);
    events.push(
      outcomeEvent({
        source: 'sendgrid',
        eventId: requireEventId(idText(item.sg_event_id), `${where}: sg_event_id`),
        email: requireEmail(item.email, `${where}: email`),
        kind,
        status: enhancedStatus(item.status),
        diagnostic: item.event === 'dropped' && diagnostic ? `dropped by SendGrid: ${diagnostic}` : diagnostic,
        occurredAt: occurredAt(item.timestamp, now),
      }),
    );
  });
  return events;
}

function kindOf(item: Record<string, unknown>): OutcomeKind | undefined {
  switch (item.event) {
    case 'bounce':
      return item.type === 'blocked' ? 'blocked' : 'bounce';
    case 'dropped':
      return 'blocked';
    case 'deferred':
      return 'deferral';
    case 'delivered':
      return 'delivery';
    case 'spamreport':
      return 'complaint';
    default:
      return undefined;
  }
}

function checkSignature(delivery: OutcomeDelivery, publicKey: string): void {
  const signature = delivery.headers[SIGNATURE_HEADER];
  const timestamp = delivery.headers[TIMESTAMP_HEADER];
  if (!signature || !timestamp) refuse(401, 'SendGrid signature missing: the key expects signed event webhooks');
  let key: KeyObject;
  try {
    key = publicKey.includes('BEGIN')
      ? createPublicKey(publicKey)
      : createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
  } catch {
    return refuse(401, 'SendGrid signature cannot be checked: the configured verification key is not a valid public key');
  }
  let valid = false;
  try {
    valid = verify('sha256', Buffer.concat([Buffer.from(timestamp, 'utf8'), delivery.body]), key, Buffer.from(signature, 'base64'));
  } catch {
    valid = false;
  }
  if (!valid) refuse(401, 'SendGrid signature does not match');
}
