/**
 * Outcome parsing alone: the events per second parseOutcomes (and classifyOutcome) reads from
 * webhook bodies, with no storage. The ingestion bench's baseline: its ratio is ingestion's rate
 * over this one, on the same bodies (issue 32: goal ≥ 0.5).
 */
import { classifyOutcome } from '../../src/outcomes/classify.js';
import type { OutcomeDelivery, OutcomeSource } from '../../src/outcomes/outcome-event.js';
import { parseOutcomes } from '../../src/outcomes/parse-outcomes.js';

export const PARSE_ROUNDS = 5;

/** Best of `rounds` passes over every body (after one warm-up pass), in events per second. */
export async function parsingEventsPerSecond(
  source: OutcomeSource,
  bodies: readonly Buffer[],
  rounds = PARSE_ROUNDS,
  contentType = 'application/json',
): Promise<number> {
  const deliveries: OutcomeDelivery[] = bodies.map((body) => ({ body, contentType, contentTypeHeader: contentType, headers: {} }));
  const now = new Date();
  const pass = async (): Promise<number> => {
    let events = 0;
    let bouncers = 0;
    for (const delivery of deliveries) {
      const result = await parseOutcomes(source, delivery, {}, now);
      if (!result.ok) throw new Error(`bench body refused: ${result.refusal.message}`);
      events += result.events.length;
      for (const event of result.events) if (classifyOutcome(event) === 'add-bouncer') bouncers++;
    }
    if (bouncers > events) throw new Error('unreachable: keeps the classification observable');
    return events;
  };
  await pass();
  let best = 0;
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    const events = await pass();
    best = Math.max(best, (events * 1000) / (performance.now() - start));
  }
  return best;
}
