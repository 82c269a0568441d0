/**
 * Gauges read when Prometheus scrapes, from the sources that know: lists by status from the
 * database (every process shares it, so any process answers for all), prober health from this
 * process's own checks.
 */
import type { Logger } from '../core/logger.js';
import type { ListStore } from '../lists/list-record.js';
import type { ListQueue } from '../lists/pipeline/list-queue.js';
import { LIST_STATUSES } from '../lists/list-record.js';
import { CONCERNS, type HealthLevel } from '../verification/health/health-state.js';
import type { ProberHealth } from '../verification/health/prober-health.js';
import type { Metrics } from './metrics.js';

const LEVELS: readonly HealthLevel[] = ['ok', 'degraded', 'failed', 'unknown'];

export function watchScrapeTimeGauges(
  metrics: Metrics,
  sources: {
    lists: Pick<ListStore, 'countByStatus'>;
    queue: Pick<ListQueue, 'jobCounts'>;
    proberHealth: Pick<ProberHealth, 'state'>;
    logger: Logger;
  },
): void {
  metrics.onScrape(async () => {
    try {
      const counts = await sources.lists.countByStatus();
      for (const status of LIST_STATUSES) metrics.lists.set({ status }, counts[status] ?? 0);
    } catch (error) {
      // The gauge keeps its last value; the scrape still answers with everything else.
      sources.logger.warn({ err: error }, 'metrics: could not count lists');
    }
  });
  metrics.onScrape(async () => {
    try {
      const jobs = await sources.queue.jobCounts();
      metrics.listQueueJobs.set({ state: 'waiting' }, jobs.waiting);
      metrics.listQueueJobs.set({ state: 'active' }, jobs.active);
    } catch (error) {
      sources.logger.warn({ err: error }, 'metrics: could not count list jobs');
    }
  });
  metrics.onScrape(() => {
    const state = sources.proberHealth.state();
    for (const concern of CONCERNS)
      for (const level of LEVELS) metrics.proberHealth.set({ concern, state: level }, state[concern].state === level ? 1 : 0);
  });
}
