/**
 * Keep-alive clients that send their next call as soon as the last answer has arrived, as every
 * HTTP agent does: large answers must never cost the next call its connection (Node's server
 * reset such connections over TLS with HPE_PAUSED; src/http/end-after-drain.ts).
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTlsTestApp, type TlsTestApp } from '../helpers/tls-app.js';

const run = promisify(execFile);
let server: TlsTestApp;
let key: string;

beforeAll(async () => {
  // Six clients of one key send bulk calls at once: the key's cap on bulk calls in progress is six.
  server = await startTlsTestApp({ env: { MAILSURE_BULK_CALLS_PER_KEY: '6' } });
  ({ key } = await server.t.key('keep-alive', { services: 'verification,enrichment,eam', rate: '1000000' }));
});
afterAll(() => server.close());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function call(agent: Agent, method: string, path: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path,
        agent,
        rejectUnauthorized: false,
        headers: body ? { 'content-type': 'application/json' } : {},
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('keep-alive connections under large answers', () => {
  it('answers every call of clients that reuse their connection at once, with nothing reset', async () => {
    // The clients run in a process of their own: in this one, the server's and the clients'
    // events would take turns in one loop and the race this guards against could not happen.
    const bodyFile = join(server.t.dataDir, 'bulk.json');
    await writeFile(bodyFile, JSON.stringify(Array.from({ length: 5_000 }, (_, i) => ({ email: `someone${i}@example.com` }))));
    const { stdout } = await run(process.execPath, [
      'test/helpers/keep-alive-clients.mjs',
      String(server.port),
      `/v5/ei/bulk?api_key=${key}`,
      '6',
      '8',
      bodyFile,
    ]);
    expect(JSON.parse(stdout)).toEqual({ answered: 48, failures: [] });
  });

  it('keeps the length of a large answer sent in one piece, and the connection', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < 3; i++) {
        const answer = await call(agent, 'GET', '/openapi.json');
        expect(answer.status).toBe(200);
        expect(Buffer.byteLength(answer.body)).toBeGreaterThan(16 * 1024);
        expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.body)));
        expect(JSON.parse(answer.body)).toHaveProperty('openapi');
      }
    } finally {
      agent.destroy();
    }
  });

  it('answers HEAD without a body', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const answer = await call(agent, 'HEAD', '/openapi.json');
      expect(answer.status).toBe(200);
      expect(answer.body).toBe('');
    } finally {
      agent.destroy();
    }
  });
});
