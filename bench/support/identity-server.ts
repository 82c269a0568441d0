/**
 * The baseline server of the identity bench, in its own process: a bare Fastify GET /v5/eppend
 * served as ev-server.ts serves its bare routes (same certificate, same logger), answering an
 * email_append of the size a name + postal match over the generated people answers (two
 * addresses; the bench counts about 2.2 an answer), built from the query without any lookup.
 * Prints {"port","key"} for child-server.ts.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { pino } from 'pino';
import { loadConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/logger.js';
import { loadTls } from '../../src/http/tls.js';

const config = loadConfig({ MAILSURE_DATA_DIR: mkdtempSync(join(tmpdir(), 'mailsure-bench-')), MAILSURE_DEMO: '0' });
const tls = await loadTls(config);
const logger = createLogger('info', pino.destination('/dev/null'));

const app = Fastify({ loggerInstance: logger, https: { key: tls.key, cert: tls.cert } });
app.get('/v5/eppend', async (request) => {
  const { first = '', last = '' } = request.query as { first?: string; last?: string };
  const name = `${first}.${last}`.toLowerCase();
  return {
    email_append: [
      { email: `${name}@gmail.com`, email_match_type: 'Individual' },
      { email: `${last.toLowerCase()}.family@yahoo.com`, email_match_type: 'Household' },
    ],
  };
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(JSON.stringify({ port: (app.server.address() as { port: number }).port, key: 'none' }) + '\n');
process.on('SIGINT', () => process.exit(0));
