/**
 * A benchmark server in its own process, so the load generator does not share its event loop:
 * `mailsure` is the real app as `serve` wires it (HTTPS, SQLite, info logging); `bare` is a bare
 * Fastify route served the same way (same certificate, same logger). Prints {"port","key"}. The
 * app is the compiled dist/, as `mailsure serve` runs it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import Fastify from 'fastify';
import { startTestWorld } from '../../test/helpers/world/index.js';

// The server's code as `mailsure serve` runs it: the compiled dist/ (run-all.ts builds it when
// older than src/), not src/ through this script's TypeScript loader, which wraps every function
// it makes in a naming helper: a cost production never pays, on every closure made per request.
const dist = (path: string) => new URL(`../../dist/${path}`, import.meta.url).href;
const { createKey } = (await import(dist('accounts/key-admin.js'))) as typeof import('../../src/accounts/key-admin.js');
const { loadConfig } = (await import(dist('core/config.js'))) as typeof import('../../src/core/config.js');
const { createLogger } = (await import(dist('core/logger.js'))) as typeof import('../../src/core/logger.js');
const { assembleApp } = (await import(dist('wiring/http-app.js'))) as typeof import('../../src/wiring/http-app.js');
const { createContainer } = (await import(dist('wiring/container.js'))) as typeof import('../../src/wiring/container.js');
const { loadTls } = (await import(dist('http/tls.js'))) as typeof import('../../src/http/tls.js');

const kind = process.argv[2];
/** `syntax`, or `domain` against a test world (real DNS server on loopback) started here. */
const depth = process.argv[3] ?? 'syntax';
const world = depth === 'domain' ? await startTestWorld() : undefined;
/**
 * BENCH_DATA_DIR: serve an existing data dir (the people dataset); BENCH_SERVICES: the key's
 * services; BENCH_BULK_CALLS_PER_KEY: the key's bulk calls in progress (MAILSURE_BULK_CALLS_PER_KEY).
 */
const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'mailsure-bench-'));
const bulkCalls = process.env.BENCH_BULK_CALLS_PER_KEY;
const config = loadConfig({
  MAILSURE_DATA_DIR: dataDir,
  MAILSURE_VERIFY_DEPTH: depth,
  MAILSURE_DEMO: '0',
  ...(bulkCalls ? { MAILSURE_BULK_CALLS_PER_KEY: bulkCalls } : {}),
  ...(world?.env ?? {}),
});
const tls = await loadTls(config);
const logger = createLogger('info', pino.destination(process.env.BENCH_LOG ?? '/dev/null'));

if (kind === 'bare') {
  const app = Fastify({ loggerInstance: logger, https: { key: tls.key, cert: tls.cert } });
  app.get('/v5/ev', async (request) => {
    const { email } = request.query as { email: string };
    return { safe_to_send: { address: email, status: 'valid', status_code: 10 } };
  });
  // A record of the size and shape /v5/td answers for a generated person with every field and
  // eam (about 580 bytes), built without any lookup: the same bytes to serialise and encrypt.
  const record = {
    age: '55-64',
    gender: 'Male',
    zip: '48098',
    household_income: '250k+',
    net_worth: '500k-1mm',
    home_market_value: '1mm+',
    home_owner_status: 'Own',
    length_of_residence: '7 Years',
    marital_status: 'Married',
    presence_of_children: 'No',
    occupation: 'Middle Management',
    life_stage_segment: 'Tenured Proprietors',
    life_stage_group: 'Top Wealth',
    financial_segment: 'Limited Risk Traditionalists',
    financial_group: 'Conservative Wealth',
    interests: { cooking: true, pets: true },
    eam: { date_first_seen: '2026-08-17', longevity: 2, velocity: 5, popularity: 1, month_last_open: '2026-11' },
  };
  app.get('/v5/td', async () => record);
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(JSON.stringify({ port: (app.server.address() as { port: number }).port, key: 'none' }) + '\n');
} else {
  const container = await createContainer({ config, logger });
  // Verification alone: the syntax and domain paths, as the goals name them (corrections have their own bench).
  const name = `bench-${process.pid}`;
  const { key } = await createKey(container.storage.keys, name, {
    services: process.env.BENCH_SERVICES ?? 'verification',
    rate: '1000000',
  });
  const app = await assembleApp({ container, https: { key: tls.key, cert: tls.cert } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(JSON.stringify({ port: (app.server.address() as { port: number }).port, key }) + '\n');
}
process.on('SIGINT', () => process.exit(0));
