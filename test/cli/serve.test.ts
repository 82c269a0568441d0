/**
 * The acceptance path end to end: `mailsure serve` on an empty data dir makes a certificate and
 * a demo key, and answers the printed curl line over real HTTPS.
 */
import { mkdtempSync, existsSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT, runCli, startServe } from '../helpers/cli.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'mailsure-serve-'));
  dirs.push(dir);
  return dir;
};

function get(url: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { rejectUnauthorized: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('mailsure serve', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('serves HTTPS with a generated certificate and prints a working demo curl line', async () => {
    const dataDir = tempDir();
    const server = startServe(
      { MAILSURE_DATA_DIR: dataDir, MAILSURE_PORT: '18543', MAILSURE_HOST: '127.0.0.1' },
      /synthetic people were loaded/,
    );
    try {
      const out = await server.ready;
      expect(existsSync(join(dataDir, 'tls', 'cert.pem'))).toBe(true);
      expect(existsSync(join(dataDir, 'mailsure.sqlite'))).toBe(true);
      const url = /curl -k "([^"]+)"/.exec(out)![1]!;
      expect(url).toMatch(/^https:\/\/127\.0\.0\.1:18543\/v5\/ev\?email=john\.\.doe@gmail\.com&api_key=ms_/);
      const res = await get(url);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ safe_to_send: { address: 'john..doe@gmail.com', status: 'invalid', status_code: 120 } });
      // The demo dataset answers the printed /v5/td line.
      const tdUrl = /curl -k "([^"]+\/v5\/td[^"]+)"/.exec(out)![1]!;
      const td = await get(tdUrl);
      expect(td.status).toBe(200);
      expect(Object.keys(JSON.parse(td.body))).toEqual(expect.arrayContaining(['age', 'eam', 'postal_address']));
      const bad = await get('https://127.0.0.1:18543/v5/ev?email=a@b.com&api_key=wrong-key-123456');
      expect(bad).toMatchObject({ status: 401, body: 'Invalid API key' });
      expect(bad.type).toMatch(/^text\/plain/);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    // Second start: the database has a key, so no new demo key is made.
    const again = startServe({ MAILSURE_DATA_DIR: dataDir, MAILSURE_PORT: '18543', MAILSURE_HOST: '127.0.0.1' }, /listening/);
    await again.ready;
    await new Promise((r) => setTimeout(r, 300));
    expect(again.output().stdout).not.toContain('Demo key');
    await again.stop();
    expect(runCli(['keys', 'list'], { MAILSURE_DATA_DIR: dataDir }).stdout.match(/^demo /m)).not.toBeNull();
  });

  it('makes no demo key with MAILSURE_DEMO=0', async () => {
    const dataDir = tempDir();
    const server = startServe(
      { MAILSURE_DATA_DIR: dataDir, MAILSURE_PORT: '18544', MAILSURE_HOST: '127.0.0.1', MAILSURE_DEMO: '0' },
      /listening/,
    );
    await server.ready;
    await new Promise((r) => setTimeout(r, 300));
    await server.stop();
    expect(server.output().stdout).not.toContain('Demo key');
    expect(runCli(['keys', 'list'], { MAILSURE_DATA_DIR: dataDir }).stdout.trim()).toBe('no keys');
  });

  it('serves Prometheus metrics on their own listener with MAILSURE_METRICS, and logs one JSON line per request', async () => {
    const dataDir = tempDir();
    const env = {
      MAILSURE_DATA_DIR: dataDir,
      MAILSURE_PORT: '18545',
      MAILSURE_HOST: '127.0.0.1',
      MAILSURE_DEMO: '0',
      MAILSURE_METRICS: '127.0.0.1:0',
    };
    const server = startServe(env, /Prometheus metrics on http:\/\/127\.0\.0\.1:\d+\/metrics/);
    try {
      const out = await server.ready;
      const metricsUrl = /Prometheus metrics on (\S+)/.exec(out)![1]!;
      expect((await get('https://127.0.0.1:18545/v5/ev?email=a@b.com&api_key=wrong-key-123456')).status).toBe(401);
      const scraped = await fetch(metricsUrl);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('mailsure_http_requests_total{method="GET",route="/v5/ev",status="401"} 1');
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const requestLines = server
      .output()
      .stdout.split('\n')
      .filter((line) => line.startsWith('{') && line.includes('"url"'));
    expect(requestLines.map((line) => JSON.parse(line) as unknown)).toMatchObject([
      { msg: 'GET /v5/ev?email=~&api_key=~ 401 ' + (JSON.parse(requestLines[0]!) as { ms: number }).ms + ' ms', status: 401 },
    ]);
  });

  it('refuses to start on bad configuration, listing every bad variable', () => {
    const result = runCli(['serve'], {
      MAILSURE_DATA_DIR: tempDir(),
      MAILSURE_PORT: 'http',
      MAILSURE_VERIFY_DEPTH: 'deep',
      MAILSURE_REDIS_URL: 'localhost:6379',
    });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain('mailsure: invalid configuration:');
    expect(result.stderr).toContain('MAILSURE_PORT="http"');
    expect(result.stderr).toContain('MAILSURE_VERIFY_DEPTH="deep"');
    expect(result.stderr).toContain('MAILSURE_REDIS_URL="localhost:6379"');
  });
});
