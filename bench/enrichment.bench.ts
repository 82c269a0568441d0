/**
 * Enrichment over a generated dataset (1,000,000 people by default; MAILSURE_BENCH_PEOPLE to
 * change): the import rate against parsing the same file, /v5/td against a bare Fastify route
 * served the same way, and /v5/ei/bulk of 5,000 records against the store-only lookup loop.
 */
import autocannon from 'autocannon';
import { request } from 'node:https';
import { openStorage } from '../src/storage/open-storage.js';
import { peopleDataset } from './support/people-dataset.js';
import { startChildServer } from './support/child-server.js';
import type { BenchResult } from './types.js';

const SECONDS = 5;

async function load(port: number, key: string, emails: string[]): Promise<number> {
  const result = await autocannon({
    url: `https://127.0.0.1:${port}`,
    connections: 32,
    duration: SECONDS,
    requests: emails.slice(0, 2_000).map((email) => ({ method: 'GET', path: `/v5/td?email=${encodeURIComponent(email)}&api_key=${key}` })),
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`bench saw ${result.non2xx} non-2xx and ${result.errors} errors`);
  return result.requests.average;
}

function post(port: number, path: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', rejectUnauthorized: false, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export default async function run(): Promise<BenchResult[]> {
  const data = await peopleDataset();
  const env = { BENCH_DATA_DIR: data.dataDir, BENCH_SERVICES: 'enrichment,eam' };
  const ours = await startChildServer('bench/support/ev-server.ts', ['mailsure', 'syntax'], env);
  const bare = await startChildServer('bench/support/ev-server.ts', ['bare', 'syntax']);
  let td = { ours: 0, bare: 0 };
  let bulkMs = Infinity;
  let loopMs = Infinity;
  try {
    await load(ours.port, ours.key, data.emails);
    await load(bare.port, bare.key, data.emails);
    for (let round = 0; round < 3; round++) {
      td = {
        ours: Math.max(td.ours, await load(ours.port, ours.key, data.emails)),
        bare: Math.max(td.bare, await load(bare.port, bare.key, data.emails)),
      };
    }
    const records = data.emails.slice(0, 5_000).map((email) => ({ email }));
    const body = JSON.stringify(records);
    const storage = await openStorage({ dataDir: data.dataDir });
    try {
      for (let round = 0; round < 3; round++) {
        let started = performance.now();
        const res = await post(ours.port, `/v5/ei/bulk?api_key=${ours.key}`, body);
        if (res.status !== 200 || (JSON.parse(res.text) as unknown[]).length !== records.length)
          throw new Error(`bulk answered ${res.status}`);
        bulkMs = Math.min(bulkMs, performance.now() - started);
        started = performance.now();
        for (const record of records) await storage.people.findProfiles('email', [record.email], false);
        loopMs = Math.min(loopMs, performance.now() - started);
      }
    } finally {
      await storage.close();
    }
  } finally {
    await ours.stop();
    await bare.stop();
  }
  const people = data.count.toLocaleString('en-US');
  return [
    {
      title: `import people (${people} generated people, SQLite) vs reading and JSON-parsing the same file`,
      ours: { label: 'mailsure import people', value: Math.round(data.importRowsPerSecond), unit: 'rows/s' },
      baseline: { label: 'read + JSON.parse', value: Math.round(data.parseRowsPerSecond), unit: 'rows/s' },
      ratio: data.importRowsPerSecond / data.parseRowsPerSecond,
      goal: 'recorded (no goal set)',
      met: true,
      notes: 'validation against every catalog, normalisation, SHA-1/MD5, batched upserts of 10,000 rows',
    },
    {
      title: `/v5/td by email over ${people} people vs a bare Fastify route (HTTPS, same logger)`,
      ours: { label: 'GET /v5/td', value: Math.round(td.ours), unit: 'req/s' },
      baseline: { label: 'bare Fastify GET route', value: Math.round(td.bare), unit: 'req/s' },
      ratio: td.ours / td.bare,
      goal: '≥ 0.4',
      met: td.ours / td.bare >= 0.4,
      notes:
        'autocannon, 32 connections, 2,000 distinct addresses of the dataset, 3 alternating rounds of 5 s after a warm-up; key with enrichment + eam',
    },
    {
      title: '/v5/ei/bulk of 5,000 records (HTTPS) vs the store-only lookup loop of the same records',
      ours: { label: 'POST /v5/ei/bulk', value: Math.round(bulkMs), unit: 'ms' },
      baseline: { label: '5,000 × findProfiles (one address each)', value: Math.round(loopMs), unit: 'ms' },
      ratio: bulkMs / loopMs,
      goal: '≤ 2',
      met: bulkMs / loopMs <= 2,
      notes: 'best of 3; ours includes TLS, JSON parsing and serialisation, activity metrics and projection',
    },
  ];
}
