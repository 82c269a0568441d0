/**
 * One webhook delivery in, the outcome events it reports out: the entry point ingestion calls.
 * Pure and total: whatever the body, the answer is events or a refusal (status and message),
 * never an exception, and a refused delivery yields no event at all (an ESP retries on 4xx, and
 * half a batch stored would then be stored twice).
 */
import type { OutcomeDelivery, OutcomeEvent, OutcomeParse, OutcomeSecrets, OutcomeSource } from './outcome-event.js';
import { refusal, Refused } from './outcome-fields.js';
import { parseSendgrid } from './sendgrid.js';

type Parser = (delivery: OutcomeDelivery, secrets: OutcomeSecrets, now: Date) => OutcomeEvent[];

const PARSERS: Partial<Record<OutcomeSource, Parser>> = {
  sendgrid: parseSendgrid,
};

export function parseOutcomes(source: OutcomeSource, delivery: OutcomeDelivery, secrets: OutcomeSecrets, now: Date): OutcomeParse {
  const parser = PARSERS[source];
  if (!parser) return refusal(422, `outcomes from ${source} are not accepted yet`);
  try {
    return { ok: true, events: parser(delivery, secrets, now) };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, refusal: error.refusal };
    // A parser bug must not become a 500 that the ESP retries forever: the body is refused, and
    // the message names no part of it (it may hold addresses).
    return refusal(422, `the ${source} body could not be read`);
  }
}
