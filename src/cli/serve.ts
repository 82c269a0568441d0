/** `mailsure serve`: the HTTPS API (what `npm start` runs). */
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/logger.js';
import { createContainer } from '../wiring/container.js';
import { assembleApp } from '../wiring/http-app.js';
import { createLifecycle, stopOnSignals } from '../wiring/lifecycle.js';
import { loadTls } from '../http/tls.js';
import { loadDemoData } from './demo-data.js';
import { demoBanner, demoWanted, ensureDemoKey, isEmptyDataDir } from './demo-key.js';
import { todayUtc } from '../enrichment/activity-metrics.js';
import { hostname } from 'node:os';
import { print } from './output.js';
import { egressLine, mailboxLine } from '../verification/health/render-health.js';
import { metricsLine } from '../observability/metrics-server.js';

export async function serve(options: { worker?: boolean } = {}): Promise<void> {
  const config = loadConfig(process.env);
  // Read before storage opens, which fills the directory.
  const wantsDemo = demoWanted(config, isEmptyDataDir(config.dataDir));
  const logger = createLogger(config.logLevel, undefined, config.logFormat);
  // `--no-worker`: the API alone; `mailsure worker` processes run the lists.
  const runLists = options.worker !== false;
  // Embedded, one server owns its data directory: a restarted one takes its own chunk leases back
  // at once. Sharing a database, each process is its own worker (a dead one's leases run out).
  const worker = config.databaseUrl ? `${hostname()}:${process.pid}` : `${hostname()}:${config.dataDir}`;
  const container = await createContainer({ config, logger, worker, runLists });
  const tls = config.trustProxy ? null : await loadTls(config);
  const app = await assembleApp({ container, ...(tls ? { https: { key: tls.key, cert: tls.cert } } : {}) });
  const lifecycle = createLifecycle({ container, runLists, app });
  stopOnSignals(logger, 'shutting down', lifecycle.stop);

  await lifecycle.prepare();
  await app.listen({ port: config.port, host: config.host });
  await lifecycle.startBackground();
  // Decided before the first line is printed: once a process says it listens, its demo is made or not.
  const demo = await ensureDemoKey(container.storage, wantsDemo);
  // Only into an empty people table: synthetic people never mix with, or overwrite, real ones.
  const demoEmail =
    demo && (await container.storage.people.count()) === 0 ? await loadDemoData(container.storage, todayUtc(Date.now())) : undefined;
  const scheme = config.trustProxy ? 'http' : 'https';
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const baseUrl = `${scheme}://${shownHost}:${config.port}`;
  print(
    `Mailsure listening on ${baseUrl} (${container.storage.engine}${tls?.generatedAt ? `, self-signed certificate in ${tls.generatedAt}` : ''})`,
  );
  print(mailboxLine(container.proberHealth.state(), config.verifyDepth));
  const egresses = egressLine(container.proberHealth.state(), config.verifyDepth, container.proberHealth.egresses());
  if (egresses) print(egresses);
  const metrics = lifecycle.metricsServer();
  if (metrics && config.metrics) print(metricsLine(config.metrics.host, metrics.port));
  if (demo) print(demoBanner(demo, baseUrl, demoEmail));
}
