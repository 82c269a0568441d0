/**
 * `mailsure worker`: list workers without the HTTP server. With Redis they take jobs from the
 * shared queue; without it they look for unfinished lists in the database every few seconds
 * (an API process started with `--no-worker` leaves them there).
 */
import { hostname } from 'node:os';
import { createContainer } from '../wiring/container.js';
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/logger.js';
import { createLifecycle, stopOnSignals } from '../wiring/lifecycle.js';
import { mailboxLine } from '../verification/health/render-health.js';
import { metricsLine } from '../observability/metrics-server.js';

export async function worker(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel, undefined, config.logFormat);
  const container = await createContainer({ config, logger, worker: `${hostname()}:${process.pid}`, runLists: true });
  const lifecycle = createLifecycle({ container, runLists: true, pollForLists: !config.redisUrl });
  // Lists get verdicts from this process: know its resolver and egress before the first one.
  await lifecycle.prepare();
  await lifecycle.startBackground();
  stopOnSignals(logger, 'worker shutting down', lifecycle.stop);
  logger.info({ engine: container.storage.engine, queue: config.redisUrl ? 'redis' : 'database' }, 'list worker started');
  process.stdout.write(
    `Mailsure list worker running (${container.storage.engine}, ${config.redisUrl ? 'Redis queue' : 'polling the database'})\n`,
  );
  process.stdout.write(`${mailboxLine(container.proberHealth.state(), config.verifyDepth)}\n`);
  const metrics = lifecycle.metricsServer();
  if (metrics && config.metrics) process.stdout.write(`${metricsLine(config.metrics.host, metrics.port)}\n`);
}
