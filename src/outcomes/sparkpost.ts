/**
 * SparkPost's webhooks: a JSON array of `{msys: {<category>: {type, event_id, rcpt_to, …}}}`
 * (SparkPost posts `[{"msys":{}}]` to test an endpoint). Bounces carry SparkPost's own
 * `bounce_class`, which decides the kind: hard classes are bounces (their reply text then decides
 * whether they prove the mailbox), block classes are blocked, soft ones deferrals; auto-replies,
 * challenge-responses, (un)subscribe requests and undetermined bounces are not outcomes and are skipped.
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
  text,
} from './outcome-fields.js';

/** SparkPost's bounce classification codes by category: Hard, Block (with Admin, 25), Soft; Undetermined (1) and the rest are skipped. */
const HARD = new Set([10, 30]);
const BLOCK = new Set([25, 50, 51, 52, 53, 54]);
const SOFT = new Set([20, 21, 22, 23, 24, 40, 70]);

export function parseSparkpost(delivery: OutcomeDelivery, _secrets: OutcomeSecrets, now: Date): OutcomeEvent[] {
  requireJson(delivery.contentType, 'SparkPost');
  const body = parseJson(delivery.body);
  if (!Array.isArray(body)) refuse(422, 'SparkPost webhook: expected a JSON array of {"msys": {…}} events');
  const events: OutcomeEvent[] = [];
  body.forEach((item: unknown, index) => {
    const where = `SparkPost event ${index}`;
    if (!isObject(item) || !isObject(item.msys)) refuse(422, `${where}: expected an object with "msys"`);
    for (const category of Object.values(item.msys)) {
      if (!isObject(category) || typeof category.type !== 'string') refuse(422, `${where}: expected msys.<category>.type`);
      const kind = kindOf(category.type, Number(category.bounce_class));
      if (kind === undefined) continue;
      const code = Number(category.error_code);
      events.push(
        outcomeEvent({
          source: 'sparkpost',
          eventId: requireEventId(idText(category.event_id), `${where}: event_id`),
          email: requireEmail(category.rcpt_to, `${where}: rcpt_to`),
          kind,
          smtpCode: Number.isInteger(code) && code >= 200 && code < 600 ? code : undefined,
          diagnostic: text(category.raw_reason) ?? text(category.reason),
          occurredAt: occurredAt(category.timestamp, now),
        }),
      );
    }
  });
  return events;
}

function kindOf(type: string, bounceClass: number): OutcomeKind | undefined {
  switch (type) {
    case 'bounce':
    case 'out_of_band':
      if (HARD.has(bounceClass)) return 'bounce';
      if (BLOCK.has(bounceClass)) return 'blocked';
      if (SOFT.has(bounceClass)) return 'deferral';
      return undefined;
    case 'delay':
      return 'deferral';
    case 'policy_rejection':
      return 'blocked';
    case 'delivery':
      return 'delivery';
    case 'spam_complaint':
      return 'complaint';
    default:
      return undefined;
  }
}
