/**
 * A benchmark server in its own process, so the load generator does not share its event loop:
 * `mailsure` is the real app as `serve` wires it (HTTPS, SQLite, info logging); `bare` is a bare
 * Fastify route served the same way (same certificate, same logger). Prints {"port","key"}.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import Fastify from 'fastify';
import { createKey } from '../../src/accounts/key-admin.js';
import { loadConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/logger.js';
import { createContainer, listRouteDeps } from '../../src/container.js';
import { buildApp } from '../../src/http/app.js';
import { loadTls } from '../../src/http/tls.js';
import { startTestWorld } from '../../test/helpers/world/index.js';

const kind = process.argv[2];
/** `syntax`, or `domain` against a test world (real DNS server on loopback) started here. */
const depth = process.argv[3] ?? 'syntax';
const world = depth === 'domain' ? await startTestWorld() : undefined;
/** BENCH_DATA_DIR: serve an existing data dir (the people dataset); BENCH_SERVICES: the key's services. */
const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'mailsure-bench-'));
const config = loadConfig({ MAILSURE_DATA_DIR: dataDir, MAILSURE_VERIFY_DEPTH: depth, MAILSURE_DEMO: '0', ...(world?.env ?? {}) });
const tls = await loadTls(config);
const logger = createLogger('info', pino.destination('/dev/null'));

if (kind === 'bare') {
  const app = Fastify({ loggerInstance: logger, https: { key: tls.key, cert: tls.cert } });
  app.get('/v5/ev', async (request) => {
    const { email } = request.query as { email: string };
    return { safe_to_send: { address: email, status: 'valid', status_code: 10 } };
  });
  // A record of the size /v5/td answers, built without any lookup.
  app.get('/v5/td', async () => ({ age: '35-44', gender: 'Female', zip: '62701', household_income: '75k-100k', occupation: 'Nurse', interests: { books: true } }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(JSON.stringify({ port: (app.server.address() as { port: number }).port, key: 'none' }) + '\n');
} else {
  const container = await createContainer(config, logger);
  // Verification alone: the syntax and domain paths, as the goals name them (corrections have their own bench).
  const name = `bench-${process.pid}`;
  const { key } = await createKey(container.storage.keys, name, { services: process.env.BENCH_SERVICES ?? 'verification', rate: '1000000' });
  const app = await buildApp({
    logger,
    authenticator: container.authenticator,
    meter: container.meter,
    verify: container.verify,
    enrich: container.enrich,
    append: container.append,
    lists: listRouteDeps(container),
    redis: null,
    trustProxy: false,
    readiness: {},
    serverOptions: { https: { key: tls.key, cert: tls.cert } },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(JSON.stringify({ port: (app.server.address() as { port: number }).port, key }) + '\n');
}
process.on('SIGINT', () => process.exit(0));
