/**
 * Outcome ingestion as metrics: each event received by source, kind and the effect classification
 * gives it, each refused webhook by source and status, and at scrape time the accuracy table over
 * the rolling window (every key). Bounded labels only: never an address, a domain, a key or a token.
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { accuracyReport, DEFAULT_ACCURACY_DAYS, OUTCOME_KINDS, VERDICT_CLASSES, windowStart } from '../outcomes/accuracy.js';
import type { OutcomeIngest } from '../outcomes/ingest-outcomes.js';
import type { OutcomeEffect, OutcomeEvent } from '../outcomes/outcome-event.js';
import type { OutcomeStore } from '../outcomes/outcome-store.js';
import type { Metrics } from './metrics.js';

export function observeOutcomeIngest(
  inner: OutcomeIngest,
  metrics: Metrics,
  classify: (event: OutcomeEvent) => OutcomeEffect,
): OutcomeIngest {
  return {
    async ingest(token, source, delivery) {
      const result = await inner.ingest(token, source, delivery);
      if (!result.ok) metrics.outcomeRefusals.inc({ source, status: String(result.refusal.status) });
      else
        for (const event of result.events) metrics.outcomeEvents.inc({ source: event.source, kind: event.kind, effect: classify(event) });
      return result;
    },
  };
}

export function watchOutcomeAccuracy(
  metrics: Metrics,
  sources: { outcomes: Pick<OutcomeStore, 'accuracy'>; clock: Clock; logger: Logger },
): void {
  metrics.onScrape(async () => {
    try {
      const since = windowStart(sources.clock.now(), DEFAULT_ACCURACY_DAYS);
      const report = accuracyReport(await sources.outcomes.accuracy(undefined, since), since);
      for (const cls of VERDICT_CLASSES)
        for (const kind of OUTCOME_KINDS) metrics.outcomeAccuracy.set({ class: cls, kind }, report.classes[cls][kind]);
    } catch (error) {
      // The gauges keep their last values; the scrape still answers with everything else.
      sources.logger.warn({ err: error }, 'metrics: could not read the outcome accuracy counts');
    }
  });
}
