/**
 * Mailgun's webhooks (the JSON form): `{signature: {timestamp, token, signature}, "event-data":
 * {event, id, recipient, timestamp, severity, reason, delivery-status: {code, message,
 * description}}}`, one event per request. `failed` is a bounce when its severity is permanent and a
 * deferral when temporary; a failure whose reason is `suppress-*` is Mailgun declining to send to
 * an address on its own lists (never a word from the recipient's server), so it is recorded as
 * blocked. Engagement events (opened, clicked, unsubscribed…) are skipped.
 *
 * When the operator set the signing key: HMAC-SHA256 of timestamp + token, hex, compared in
 * constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
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
  type Json,
} from './outcome-fields.js';

export function parseMailgun(delivery: OutcomeDelivery, secrets: OutcomeSecrets, now: Date): OutcomeEvent[] {
  requireJson(delivery.contentType, 'Mailgun');
  const body = parseJson(delivery.body);
  // The signature first: a forged body is a 401 whatever its shape.
  if (secrets.mailgunSigningKey !== undefined) checkSignature(isObject(body) ? body.signature : undefined, secrets.mailgunSigningKey);
  if (!isObject(body) || !isObject(body['event-data']))
    refuse(422, 'Mailgun webhook: expected an object with "signature" and "event-data" (the JSON webhook format)');
  const data = body['event-data'];
  if (typeof data.event !== 'string') refuse(422, 'Mailgun event-data: expected an "event" field');
  const kind = kindOf(data);
  if (kind === undefined) return [];
  const status = isObject(data['delivery-status']) ? data['delivery-status'] : {};
  const code = typeof status.code === 'number' && status.code >= 200 && status.code < 600 ? status.code : undefined;
  const diagnostic = text(status.message) ?? text(status.description) ?? text(data.reason);
  return [
    outcomeEvent({
      source: 'mailgun',
      eventId: requireEventId(idText(data.id), 'Mailgun event-data: id'),
      email: requireEmail(data.recipient, 'Mailgun event-data: recipient'),
      kind,
      status: enhancedStatus(status['enhanced-code']),
      smtpCode: code,
      diagnostic: kind === 'blocked' && !code ? `not sent by Mailgun: ${String(data.reason)}` : diagnostic,
      occurredAt: occurredAt(data.timestamp, now),
    }),
  ];
}

function kindOf(data: Json): OutcomeKind | undefined {
  switch (data.event) {
    case 'failed':
      if (typeof data.reason === 'string' && data.reason.startsWith('suppress-')) return 'blocked';
      return data.severity === 'temporary' ? 'deferral' : 'bounce';
    case 'delivered':
      return 'delivery';
    case 'complained':
      return 'complaint';
    default:
      return undefined;
  }
}

function checkSignature(signature: unknown, signingKey: string): void {
  if (!isObject(signature)) refuse(401, 'Mailgun signature missing: the key expects signed webhooks');
  const timestamp = idText(signature.timestamp);
  const token = text(signature.token);
  const given = text(signature.signature);
  if (timestamp === undefined || token === undefined || given === undefined || !/^[0-9a-f]+$/i.test(given))
    refuse(401, 'Mailgun signature missing: the key expects signed webhooks');
  const expected = createHmac('sha256', signingKey)
    .update(timestamp + token)
    .digest();
  const actual = Buffer.from(given, 'hex');
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) refuse(401, 'Mailgun signature does not match');
}
