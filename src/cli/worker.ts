/**
 * `mailsure worker`: list workers without the HTTP server. With Redis they take jobs from the
 * shared queue; without it they look for unfinished lists in the database every few seconds
 * (an API process started with `--no-worker` leaves them there).
 */
import { hostname } from 'node:os';
import { createContainer } from '../container.js';
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/logger.js';
import { startRetention } from '../lists/pipeline/retention.js';
import { sweepCallbacks } from '../lists/pipeline/callback-sender.js';
import { loadZipReference } from '../identity/postal/index.js';
import { mailboxLine } from '../verification/health/render-health.js';

const POLL_MS = 2_000;

export async function worker(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);
  const container = await createContainer(config, logger, undefined, { worker: `${hostname()}:${process.pid}`, runLists: true });
  loadZipReference();
  // Lists get verdicts from this process: know its resolver and egress before the first one.
  await container.proberHealth.start();
  const retention = startRetention({ store: container.storage.lists, files: container.listFiles, retentionDays: config.retentionDays, clock: container.clock, logger });
  await container.listQueue.resume();
  await container.listCallbacks.resume();
  const stopSweeping = sweepCallbacks(container.listCallbacks, logger);
  const poll = config.redisUrl
    ? undefined
    : setInterval(() => void container.listQueue.resume().catch((error: unknown) => logger.warn({ err: error }, 'could not look for lists')), POLL_MS);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker shutting down');
    if (poll) clearInterval(poll);
    stopSweeping();
    retention.stop();
    await container.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  logger.info({ engine: container.storage.engine, queue: config.redisUrl ? 'redis' : 'database' }, 'list worker started');
  process.stdout.write(`Mailsure list worker running (${container.storage.engine}, ${config.redisUrl ? 'Redis queue' : 'polling the database'})\n`);
  process.stdout.write(`${mailboxLine(container.proberHealth.state(), config.verifyDepth)}\n`);
}
