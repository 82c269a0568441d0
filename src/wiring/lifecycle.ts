/**
 * The one start-up and shutdown of a long-running process (`serve`, `worker`) over its container:
 * what runs before the first verdict, the background work after, and the order things stop in.
 */
import type { Container } from './container.js';
import type { Logger } from '../core/logger.js';
import { loadZipReference } from '../identity/postal/index.js';
import { sweepCallbacks } from '../lists/pipeline/callback-sender.js';
import { startRetention } from '../lists/pipeline/retention.js';
import { startMetricsServer, type MetricsServer } from '../observability/metrics-server.js';

/** How often a worker without Redis looks in the database for lists to run. */
const POLL_MS = 2_000;
/**
 * With Redis, how often a list-running process still looks in the database for unfinished lists:
 * a Redis that lost its data (restart without persistence, failover, eviction) loses their queue
 * jobs, and nothing else would ever run them again. Queueing a list already queued adds nothing.
 */
export const REQUEUE_MS = 15_000;

export interface LifecycleOptions {
  /** The services, stores and background work of this process. */
  container: Container;
  /** This process runs lists: resume them and their callbacks at start, sweep callbacks after. */
  runLists: boolean;
  /** Look for unfinished lists every few seconds (a worker without a shared queue). */
  pollForLists?: boolean;
  /** The HTTP app, closed before the container. */
  app?: { close(): Promise<unknown> };
}

export interface Lifecycle {
  /**
   * Before serving anybody: the ZIP reference (identity) loads in ~200 ms, before the first request
   * rather than during it; the first prober-health check, so that a lying resolver or a closed
   * port 25 is known before anybody's address is judged.
   */
  prepare(): Promise<void>;
  /**
   * Once serving: retention; with `runLists`, the lists and callbacks an earlier process left
   * unfinished carry on where they stopped, and callbacks are swept; with `pollForLists`, polling.
   */
  startBackground(): Promise<void>;
  /** Stops what started, then closes the app and the container; at any point, and only once. */
  stop(): Promise<void>;
  /** The metrics listener once started (MAILSURE_METRICS), for the start-up line and tests. */
  metricsServer(): MetricsServer | undefined;
}

export function createLifecycle(options: LifecycleOptions): Lifecycle {
  const { container } = options;
  const { config, logger } = container;
  const stops: (() => void)[] = [];
  let stopping: Promise<void> | undefined;
  let metricsServer: MetricsServer | undefined;

  return {
    async prepare() {
      loadZipReference();
      await container.proberHealth.start();
    },
    async startBackground() {
      if (container.metrics && config.metrics) metricsServer = await startMetricsServer(container.metrics, config.metrics);
      const retention = startRetention({
        store: container.storage.lists,
        files: container.listFiles,
        retentionDays: config.retentionDays,
        clock: container.clock,
        logger,
      });
      stops.push(() => retention.stop());
      if (options.runLists) {
        await container.listQueue.resume();
        await container.listCallbacks.resume();
        stops.push(sweepCallbacks(container.listCallbacks, logger));
      }
      const every = options.pollForLists ? POLL_MS : options.runLists && config.redisUrl ? REQUEUE_MS : undefined;
      if (every !== undefined) {
        const poll = setInterval(
          () => void container.listQueue.resume().catch((error: unknown) => logger.warn({ err: error }, 'could not look for lists')),
          every,
        );
        poll.unref();
        stops.push(() => clearInterval(poll));
      }
    },
    stop() {
      stopping ??= (async () => {
        for (const stopOne of stops.splice(0).reverse()) stopOne();
        await metricsServer?.close();
        await options.app?.close();
        await container.close();
      })();
      return stopping;
    },
    metricsServer: () => metricsServer,
  };
}

/** SIGTERM and SIGINT: log `message` once, stop, and exit 0. */
export function stopOnSignals(logger: Logger, message: string, stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, message);
    await stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void onSignal('SIGTERM'));
  process.on('SIGINT', () => void onSignal('SIGINT'));
}
