/**
 * Postmark's webhooks, one record per request, told apart by `RecordType`: `Bounce` (its `Type`
 * says which: HardBounce, SoftBounce, SpamNotification…), `SpamComplaint` and `Delivery`. Other
 * records (Open, Click, SubscriptionChange) and bounce types that are not outcomes
 * (auto-responders, subscribe requests, address changes…) are skipped.
 *
 * A bounce's `ID` is a 64-bit integer, above what a JSON number keeps exactly, so it is read from
 * the text. Postmark authenticates with basic auth in the webhook URL, compared in constant time
 * when the operator set it.
 */
import type { OutcomeDelivery, OutcomeEvent, OutcomeKind, OutcomeSecrets } from './outcome-event.js';
import {
  idText,
  isObject,
  occurredAt,
  outcomeEvent,
  parseJson,
  refuse,
  requireEmail,
  requireEventId,
  requireJson,
  sameSecret,
  text,
  type Json,
} from './outcome-fields.js';

/** Bounce types by what they say of the recipient (Postmark's bounce type list). */
const BOUNCE_KINDS: Readonly<Record<string, OutcomeKind>> = {
  HardBounce: 'bounce',
  BadEmailAddress: 'bounce',
  SoftBounce: 'deferral',
  Transient: 'deferral',
  DnsError: 'deferral',
  SpamNotification: 'blocked',
  VirusNotification: 'blocked',
  Blocked: 'blocked',
  DMARCPolicy: 'blocked',
  ManuallyDeactivated: 'blocked',
  SpamComplaint: 'complaint',
};

export function parsePostmark(delivery: OutcomeDelivery, secrets: OutcomeSecrets, now: Date): OutcomeEvent[] {
  if (secrets.postmarkBasicAuth !== undefined) checkBasicAuth(delivery.headers.authorization, secrets.postmarkBasicAuth);
  requireJson(delivery.contentType, 'Postmark');
  const body = parseJson(exactIds(delivery.body));
  if (!isObject(body) || typeof body.RecordType !== 'string')
    refuse(422, 'Postmark webhook: expected an object with a "RecordType" (Bounce, SpamComplaint or Delivery)');
  switch (body.RecordType) {
    case 'Bounce':
    case 'SpamComplaint':
      return bounce(body, now);
    case 'Delivery':
      return [
        outcomeEvent({
          source: 'postmark',
          eventId: requireEventId(deliveryId(body), 'Postmark Delivery: MessageID'),
          email: requireEmail(body.Recipient, 'Postmark Delivery: Recipient'),
          kind: 'delivery',
          diagnostic: text(body.Details),
          occurredAt: occurredAt(body.DeliveredAt, now),
        }),
      ];
    default:
      return [];
  }
}

function bounce(body: Json, now: Date): OutcomeEvent[] {
  const type = text(body.Type);
  const kind = body.RecordType === 'SpamComplaint' ? 'complaint' : type && BOUNCE_KINDS[type];
  if (!kind) return [];
  const id = idText(body.ID);
  return [
    outcomeEvent({
      source: 'postmark',
      eventId: requireEventId(id === undefined ? undefined : `${body.RecordType}:${id}`, `Postmark ${String(body.RecordType)}: ID`),
      email: requireEmail(body.Email, `Postmark ${String(body.RecordType)}: Email`),
      kind,
      // Details holds the remote server's reply; Description is Postmark's text for the type, not evidence.
      diagnostic: text(body.Details),
      occurredAt: occurredAt(body.BouncedAt, now),
    }),
  ];
}

/** A Delivery record has no id of its own: the message and the recipient name it. */
function deliveryId(body: Json): string | undefined {
  const message = text(body.MessageID);
  const recipient = text(body.Recipient);
  return message && recipient ? `Delivery:${message}:${recipient.toLowerCase()}` : undefined;
}

/** `"ID": 4323372036854775807` → `"ID": "4323372036854775807"`, before JSON numbers round it. */
function exactIds(body: Buffer): string {
  return body.toString('utf8').replace(/"ID"(\s*):(\s*)(-?\d+)/g, '"ID"$1:$2"$3"');
}

function checkBasicAuth(header: string | undefined, expected: string): void {
  const match = header === undefined ? null : /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) refuse(401, 'Postmark basic auth missing: the key expects credentials in the webhook URL');
  if (!sameSecret(Buffer.from(match[1]!, 'base64').toString('utf8'), expected)) refuse(401, 'Postmark basic auth does not match');
}
