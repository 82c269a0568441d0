/**
 * Amazon SES notifications, delivered through an Amazon SNS HTTPS subscription. The body is an
 * SNS message (`Type`, `MessageId`, `Message`, `Signature`, `SigningCertURL`…) whose `Message` is
 * the SES notification as a JSON string (`notificationType` for SES's notifications, `eventType`
 * for a configuration set's event publishing).
 *
 * SNS messages are signed with RSA by a certificate that the message itself names, so nothing in a
 * message is followed blindly: the certificate URL must be https on an Amazon SNS host
 * (`sns.<region>.amazonaws.com`) before the port is asked for it, and a subscription confirmation
 * is handed back to the operator (its SubscribeURL, only when it is on such a host), never visited
 * here. Raw message delivery (the SES JSON without the SNS envelope) carries no signature and is
 * refused.
 */
import { createVerify, X509Certificate } from 'node:crypto';
import type { OutcomeDelivery, OutcomeEvent, OutcomeKind } from './outcome-event.js';
import {
  enhancedStatus,
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

export interface SnsCertificates {
  /** The PEM at an Amazon SNS certificate URL (already checked against the pinned hosts); may cache. */
  fetchCertificate(url: string): Promise<string>;
}

/** The port failed (network, Amazon down): not the body's fault, so not a 4xx that SNS would give up on. */
export class CertificateUnavailable extends Error {}

const SNS_HOST = /^sns\.[a-z]{2}(-[a-z]+)+-\d\.amazonaws\.com(\.cn)?$/;

/** Whether a URL is https on an Amazon SNS host (the only place a certificate or confirmation may come from). */
export function isSnsUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return url.protocol === 'https:' && url.port === '' && url.username === '' && url.password === '' && SNS_HOST.test(url.hostname);
}

const NOTIFICATION_FIELDS = ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'];
const CONFIRMATION_FIELDS = ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];

export async function parseSes(
  delivery: OutcomeDelivery,
  now: Date,
  ports: Partial<SnsCertificates>,
): Promise<{ events: OutcomeEvent[]; subscribeUrl?: string }> {
  requireJson(delivery.contentType, 'Amazon SNS');
  const body = parseJson(delivery.body);
  if (!isObject(body) || typeof body.Type !== 'string' || typeof body.MessageId !== 'string') {
    const raw = isObject(body) && ('notificationType' in body || 'eventType' in body);
    refuse(
      422,
      raw
        ? 'Amazon SES: raw message delivery carries no signature; subscribe with raw message delivery off'
        : 'Amazon SNS: expected an SNS message with "Type", "MessageId" and "Message"',
    );
  }
  await checkSignature(body, ports);
  switch (body.Type) {
    case 'SubscriptionConfirmation': {
      const url = text(body.SubscribeURL);
      if (url === undefined || !isSnsUrl(url)) refuse(422, 'Amazon SNS: the SubscribeURL is not https on an Amazon SNS host');
      return { events: [], subscribeUrl: url };
    }
    case 'UnsubscribeConfirmation':
      return { events: [] };
    case 'Notification':
      return { events: sesEvents(body, now) };
    default:
      return refuse(422, 'Amazon SNS: expected Type Notification, SubscriptionConfirmation or UnsubscribeConfirmation');
  }
}

async function checkSignature(body: Json, ports: Partial<SnsCertificates>): Promise<void> {
  const version = body.SignatureVersion;
  const signature = text(body.Signature);
  const certUrl = text(body.SigningCertURL);
  if ((version !== '1' && version !== '2') || signature === undefined || certUrl === undefined)
    refuse(401, 'Amazon SNS signature missing (SignatureVersion 1 or 2, Signature, SigningCertURL)');
  if (!isSnsUrl(certUrl) || !new URL(certUrl).pathname.endsWith('.pem'))
    refuse(401, 'Amazon SNS signature refused: SigningCertURL is not a certificate on an Amazon SNS host');
  if (!ports.fetchCertificate) refuse(401, 'Amazon SNS signature cannot be checked: no certificate source configured');
  let pem: string;
  try {
    pem = await ports.fetchCertificate(certUrl);
  } catch (error) {
    throw new CertificateUnavailable(`Amazon SNS signing certificate unavailable: ${(error as Error).message}`);
  }
  const fields = body.Type === 'Notification' ? NOTIFICATION_FIELDS : CONFIRMATION_FIELDS;
  const signed = fields
    .filter((field) => typeof body[field] === 'string')
    .map((field) => `${field}\n${body[field] as string}\n`)
    .join('');
  let valid = false;
  try {
    const key = new X509Certificate(pem).publicKey;
    valid = createVerify(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256')
      .update(signed, 'utf8')
      .verify(key, Buffer.from(signature, 'base64'));
  } catch {
    valid = false;
  }
  if (!valid) refuse(401, 'Amazon SNS signature does not match');
}

function sesEvents(envelope: Json, now: Date): OutcomeEvent[] {
  const message = typeof envelope.Message === 'string' ? safeJson(envelope.Message) : undefined;
  if (!isObject(message)) refuse(422, 'Amazon SES: expected the SNS Message to hold an SES notification (JSON)');
  const type = message.notificationType ?? message.eventType;
  const id = (recipient: string) => requireEventId(`${envelope.MessageId as string}:${recipient.toLowerCase()}`, 'Amazon SNS: MessageId');
  const recipients = (list: unknown, where: string): Json[] => {
    if (!Array.isArray(list) || list.length === 0) refuse(422, `Amazon SES ${where}: expected a list of recipients`);
    return list.map((item: unknown) => (isObject(item) ? item : { emailAddress: item }));
  };
  const event = (entry: Json, where: string, kind: OutcomeKind, detail: Json, diagnostic: string | undefined) => {
    const email = requireEmail(entry.emailAddress, `Amazon SES ${where}: emailAddress`);
    return outcomeEvent({
      source: 'ses',
      eventId: id(email),
      email,
      kind,
      status: enhancedStatus(entry.status),
      diagnostic,
      occurredAt: occurredAt(detail.timestamp, now),
    });
  };
  switch (type) {
    case 'Bounce': {
      const bounce = part(message, 'bounce');
      const kind = bounceKind(bounce);
      return recipients(bounce.bouncedRecipients, 'bounce.bouncedRecipients').map((entry) =>
        event(entry, 'bounce', kind, bounce, text(entry.diagnosticCode) ?? text(bounce.bounceSubType)),
      );
    }
    case 'Complaint': {
      const complaint = part(message, 'complaint');
      return recipients(complaint.complainedRecipients, 'complaint.complainedRecipients').map((entry) =>
        event(entry, 'complaint', 'complaint', complaint, text(complaint.complaintFeedbackType)),
      );
    }
    case 'Delivery': {
      const delivered = part(message, 'delivery');
      return recipients(delivered.recipients, 'delivery.recipients').map((entry) =>
        event(entry, 'delivery', 'delivery', delivered, text(delivered.smtpResponse)),
      );
    }
    case 'DeliveryDelay': {
      const delay = part(message, 'deliveryDelay');
      return recipients(delay.delayedRecipients, 'deliveryDelay.delayedRecipients').map((entry) =>
        event(entry, 'deliveryDelay', 'deferral', delay, text(entry.diagnosticCode) ?? text(delay.delayType)),
      );
    }
    default:
      if (typeof type !== 'string') refuse(422, 'Amazon SES: expected a notificationType or eventType');
      return [];
  }
}

/**
 * SES's bounce types: Transient is a soft bounce; a Permanent bounce of the suppressed sub-types
 * is SES declining to send (its own or the account's suppression list), never the recipient's
 * server speaking; Undetermined is a final failure whose reply text alone can prove anything.
 */
const SES_DECLINED = new Set(['Suppressed', 'OnAccountSuppressionList', 'UnsubscribedRecipient']);

function bounceKind(bounce: Json): OutcomeKind {
  if (bounce.bounceType === 'Transient') return 'deferral';
  if (typeof bounce.bounceSubType === 'string' && SES_DECLINED.has(bounce.bounceSubType)) return 'blocked';
  return 'bounce';
}

function part(message: Json, name: string): Json {
  const value = message[name];
  if (!isObject(value)) refuse(422, `Amazon SES: expected a "${name}" object`);
  return value;
}

function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}
