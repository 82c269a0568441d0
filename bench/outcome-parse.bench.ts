/**
 * Outcome parsing (issue 32): SendGrid webhook batches of a generated outcome stream, parsed and
 * classified by parseOutcomes / classifyOutcome, against JSON.parse of the same bodies alone (the
 * floor any parser of these bodies pays). The ingestion bench's baseline is this parser itself
 * (parsingEventsPerSecond, support/outcome-parsing.ts), so its ratio cannot see the parser: a
 * slower parser would even raise it. This one keeps the parser's own cost in view.
 */
import { outcomeStream, sendgridBatches } from '../src/generate/outcome-stream.js';
import { parsingEventsPerSecond, PARSE_ROUNDS } from './support/outcome-parsing.js';
import type { BenchResult } from './types.js';

export default async function run(): Promise<BenchResult> {
  const stream = outcomeStream({ seed: 'bench', events: 10_000 });
  const bodies = sendgridBatches(stream.events, 100);
  const ours = await parsingEventsPerSecond('sendgrid', bodies);
  const baseline = jsonParseEventsPerSecond(bodies);
  const ratio = ours / baseline;
  return {
    title: 'Outcome webhooks parsed and classified (SendGrid batches of 100)',
    ours: { label: 'parseOutcomes + classifyOutcome', value: Math.round(ours), unit: 'events/s' },
    baseline: { label: 'JSON.parse of the same bodies', value: Math.round(baseline), unit: 'events/s' },
    ratio,
    goal: '≥ 0.2',
    met: ratio >= 0.2,
    notes: `10,000 events of a generated outcome stream (src/generate/outcome-stream.ts, seed "bench") in 100 bodies; best of ${PARSE_ROUNDS} passes after a warm-up, in one process.`,
  };
}

function jsonParseEventsPerSecond(bodies: readonly Buffer[]): number {
  const pass = () => bodies.reduce((events, body) => events + (JSON.parse(body.toString('utf8')) as unknown[]).length, 0);
  pass();
  let best = 0;
  for (let round = 0; round < PARSE_ROUNDS; round++) {
    const start = performance.now();
    const events = pass();
    best = Math.max(best, (events * 1000) / (performance.now() - start));
  }
  return best;
}
