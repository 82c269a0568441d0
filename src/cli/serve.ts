/** `mailsure serve`: the HTTPS API (what `npm start` runs). */
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/logger.js';
import { createContainer, listRouteDeps } from '../container.js';
import { buildApp } from '../http/app.js';
import { loadTls } from '../http/tls.js';
import { loadDemoData } from './demo-data.js';
import { demoBanner, ensureDemoKey } from './demo-key.js';
import { todayUtc } from '../enrichment/activity-metrics.js';
import { hostname } from 'node:os';
import { print } from './output.js';
import { startRetention } from '../lists/pipeline/retention.js';
import { sweepCallbacks } from '../lists/pipeline/callback-sender.js';
import { loadZipReference } from '../identity/postal/index.js';
import { mailboxLine, renderHealthBody } from '../verification/health/render-health.js';

export async function serve(options: { worker?: boolean } = {}): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);
  // `--no-worker`: the API alone; `mailsure worker` processes run the lists.
  const runLists = options.worker !== false;
  // Embedded, one server owns its data directory: a restarted one takes its own chunk leases back
  // at once. Sharing a database, each process is its own worker (a dead one's leases run out).
  const worker = config.databaseUrl ? `${hostname()}:${process.pid}` : `${hostname()}:${config.dataDir}`;
  const container = await createContainer(config, logger, undefined, { worker, runLists });
  const tls = config.trustProxy ? null : await loadTls(config);
  const app: FastifyInstance = await buildApp({
    logger,
    authenticator: container.authenticator,
    meter: container.meter,
    verify: container.verify,
    enrich: container.enrich,
    append: container.append,
    lists: listRouteDeps(container),
    redis: container.redis,
    trustProxy: config.trustProxy,
    readiness: {
      database: () => container.storage.ping(),
      ...(container.redis ? { redis: async () => void (await container.redis!.ping()) } : {}),
    },
    proberHealth: () => renderHealthBody(container.proberHealth.state(), config.verifyDepth === 'mailbox'),
    ...(tls ? { serverOptions: { https: { key: tls.key, cert: tls.cert } } } : {}),
  });

  let stopping = false;
  let stopSweeping = (): void => {};
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    retention.stop();
    stopSweeping();
    await app.close();
    await container.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  // The ZIP reference (identity) loads in ~200 ms: before the first request, not during it.
  loadZipReference();
  // The first prober-health check before the first verdict: a lying resolver or a closed port 25
  // must be known before anybody's address is judged.
  await container.proberHealth.start();
  await app.listen({ port: config.port, host: config.host });
  // Lists an earlier process left unfinished carry on where they stopped, and so do their callbacks.
  if (runLists) {
    await container.listQueue.resume();
    await container.listCallbacks.resume();
    stopSweeping = sweepCallbacks(container.listCallbacks, logger);
  }
  const retention = startRetention({ store: container.storage.lists, files: container.listFiles, retentionDays: config.retentionDays, clock: container.clock, logger });
  const scheme = config.trustProxy ? 'http' : 'https';
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const baseUrl = `${scheme}://${shownHost}:${config.port}`;
  print(`Mailsure listening on ${baseUrl} (${container.storage.engine}${tls?.generatedAt ? `, self-signed certificate in ${tls.generatedAt}` : ''})`);
  print(mailboxLine(container.proberHealth.state(), config.verifyDepth));
  const demo = await ensureDemoKey(container.storage, config);
  if (demo) {
    const demoEmail = (await container.storage.people.count()) === 0 ? await loadDemoData(container.storage, todayUtc(Date.now())) : undefined;
    print(demoBanner(demo, baseUrl, demoEmail));
  }
}
