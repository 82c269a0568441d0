/**
 * Identity append over the generated people dataset (the enrichment bench's, built once per run;
 * MAILSURE_BENCH_PEOPLE sets its size): GET /v5/eppend by name + postal address against a bare
 * Fastify route served the same way, and POST /v5/eppend/bulk of 1,250 records against the
 * matcher alone over the same queries and the same SQLite file.
 */
import autocannon from 'autocannon';
import { request } from 'node:https';
import { createIdentityMatcher, type IdentityMatch } from '../src/identity/match/index.js';
import { openStorage } from '../src/storage/open-storage.js';
import { startChildServer } from './support/child-server.js';
import { eppendPath, identityQueries, type NamePostalQuery } from './support/identity-queries.js';
import { peopleDataset } from './support/people-dataset.js';
import type { BenchResult } from './types.js';

const SECONDS = 5;
const DISTINCT = 2_000;
const BULK = 1_250;

interface Load {
  /** Mean requests per second over the round. */
  rps: number;
  /** 99th percentile latency of the round, ms. */
  p99: number;
}

async function load(port: number, key: string, queries: readonly NamePostalQuery[]): Promise<Load> {
  const result = await autocannon({
    url: `https://127.0.0.1:${port}`,
    connections: 32,
    duration: SECONDS,
    requests: queries.map((q) => ({ method: 'GET', path: eppendPath(q, key) })),
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`bench saw ${result.non2xx} non-2xx and ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
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

type Answer = { email_append?: { email_match_type: string }[]; error_code?: number };

/** What the answers held, so a bench of empty answers cannot pass unnoticed. */
function describe(answers: readonly Answer[]): { individual: number; meanEmails: number } {
  const individual = answers.filter((a) => a.email_append?.some((e) => e.email_match_type === 'Individual')).length;
  const emails = answers.reduce((n, a) => n + (a.email_append?.length ?? 0), 0);
  return { individual: individual / answers.length, meanEmails: emails / answers.length };
}

export default async function run(): Promise<BenchResult[]> {
  const data = await peopleDataset();
  const queries = await identityQueries(data, DISTINCT);
  const env = { BENCH_DATA_DIR: data.dataDir, BENCH_SERVICES: 'email_append,postal_append' };
  const ours = await startChildServer('bench/support/ev-server.ts', ['mailsure', 'syntax'], env);
  const bare = await startChildServer('bench/support/identity-server.ts', []);
  let eppend = { ours: 0, bare: 0 };
  // The lowest p99 of the rounds, like the best rate: the round least disturbed by the machine.
  let p99 = { ours: Infinity, bare: Infinity };
  let bulkMs = Infinity;
  let manyMs = Infinity;
  let loopMs = Infinity;
  let found = { individual: 0, meanEmails: 0 };
  try {
    await load(ours.port, ours.key, queries);
    await load(bare.port, bare.key, queries);
    for (let round = 0; round < 3; round++) {
      const mine = await load(ours.port, ours.key, queries);
      const theirs = await load(bare.port, bare.key, queries);
      eppend = { ours: Math.max(eppend.ours, mine.rps), bare: Math.max(eppend.bare, theirs.rps) };
      p99 = { ours: Math.min(p99.ours, mine.p99), bare: Math.min(p99.bare, theirs.p99) };
    }

    const records = queries.slice(0, BULK);
    if (records.length !== BULK) throw new Error(`the dataset gave ${records.length} queries, not ${BULK}`);
    const body = JSON.stringify(records);
    const storage = await openStorage({ dataDir: data.dataDir });
    const matcher = createIdentityMatcher({ people: storage.people });
    try {
      const bulk = async (): Promise<Answer[]> => {
        const res = await post(ours.port, `/v5/eppend/bulk?api_key=${ours.key}`, body);
        const answers = res.status === 200 ? (JSON.parse(res.text) as Answer[]) : [];
        if (answers.length !== BULK || answers.some((a) => a.error_code !== undefined))
          throw new Error(`bulk answered ${res.status}: ${res.text.slice(0, 200)}`);
        return answers;
      };
      const many = async (): Promise<IdentityMatch[][]> => matcher.matchMany(records);
      found = describe(await bulk());
      await many();
      for (let round = 0; round < 3; round++) {
        let started = performance.now();
        await bulk();
        bulkMs = Math.min(bulkMs, performance.now() - started);
        started = performance.now();
        await many();
        manyMs = Math.min(manyMs, performance.now() - started);
        started = performance.now();
        for (const record of records) await matcher.match(record);
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
  const answered = `${(found.individual * 100).toFixed(1)} % of the ${BULK.toLocaleString('en-US')} bulk records matched an Individual, ${found.meanEmails.toFixed(2)} addresses per answer`;
  return [
    {
      title: `/v5/eppend by name + postal over ${people} people vs a bare Fastify route (HTTPS, same logger)`,
      ours: { label: 'GET /v5/eppend', value: Math.round(eppend.ours), unit: 'req/s' },
      baseline: { label: 'bare Fastify GET route', value: Math.round(eppend.bare), unit: 'req/s' },
      ratio: eppend.ours / eppend.bare,
      // The issue sets no goal for this one (it does for /v5/td: ≥ 0.4). A fuzzy match is a
      // blocking query and the scoring of every candidate it returns, not one indexed lookup.
      goal: 'recorded (no goal set)',
      met: true,
      notes:
        `autocannon, 32 connections, ${queries.length.toLocaleString('en-US')} distinct people of the dataset asked by first, last, street, city, state and ZIP as stored, ` +
        '3 alternating rounds of 5 s after a warm-up, best round of each; key with email_append + postal_append; ' +
        `p99 latency (lowest of the rounds) ${p99.ours} ms for /v5/eppend, ${p99.bare} ms for the bare route; ` +
        'the bare route (bench/support/identity-server.ts) answers two email_append entries built from the query without a lookup',
    },
    {
      title: `/v5/eppend/bulk of ${BULK.toLocaleString('en-US')} records (HTTPS) vs the matcher alone over the same queries`,
      ours: { label: 'POST /v5/eppend/bulk', value: Math.round(bulkMs), unit: 'ms' },
      baseline: { label: `matcher.matchMany of ${BULK.toLocaleString('en-US')}`, value: Math.round(manyMs), unit: 'ms' },
      ratio: bulkMs / manyMs,
      goal: '≤ 2',
      met: bulkMs / manyMs <= 2,
      notes:
        `best of 3 after a warm-up; the baseline is createIdentityMatcher over the same SQLite file in the bench process; ours adds TLS, JSON parsing, ` +
        `request validation (ZIP reference), append and serialisation; ${answered}; ` +
        `one match() per record instead: ${Math.round(loopMs).toLocaleString('en-US')} ms`,
    },
  ];
}
