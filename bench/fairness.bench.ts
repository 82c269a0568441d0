/**
 * Fairness under heavy bulk load: the /v5/ev latency one well-behaved client sees while eight
 * others keep sending 5,000-record /v5/ei/bulk calls, against the same client on an idle server.
 * The server is one real process (HTTPS, SQLite, the people dataset); the bulk clients run in this
 * process and the measured client in a process of its own, so neither load generator's event loop
 * shows up in the other's figures.
 */
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:https';
import { peopleDataset } from './support/people-dataset.js';
import { startChildServer } from './support/child-server.js';
import type { BenchResult } from './types.js';

const BULK_CLIENTS = 8;
const BULK_RECORDS = 5_000;
const WARMUP = 200;
const MEASURED = 1_000;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The measured client's latencies (ms), from its own process. */
function measure(port: number, key: string): Promise<number[]> {
  const path = `/v5/ev?email=${encodeURIComponent('jane.doe@example.com')}&api_key=${key}`;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['bin/run-ts.js', 'bench/support/latency-client.ts', String(port), path, String(WARMUP), String(MEASURED)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as number[]) : reject(new Error(`latency client exited with ${code}`)),
    );
  });
}

/** One bulk client: sends the same call again as soon as the last one is answered, until stopped. */
async function bulkClient(port: number, key: string, body: string, running: () => boolean, answered: () => void): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    while (running()) {
      await new Promise<void>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: `/v5/ei/bulk?api_key=${key}`,
            method: 'POST',
            agent,
            rejectUnauthorized: false,
            headers: { 'content-type': 'application/json' },
          },
          (res) => {
            res.resume();
            res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`bulk answered ${res.statusCode}`))));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      answered();
    }
  } finally {
    agent.destroy();
  }
}

export default async function run(): Promise<BenchResult> {
  const data = await peopleDataset();
  const server = await startChildServer('bench/support/ev-server.ts', ['mailsure', 'syntax'], {
    BENCH_DATA_DIR: data.dataDir,
    BENCH_SERVICES: 'verification,enrichment,eam',
    // The eight bulk clients share the server's one key: all eight at once, as eight keys would be.
    BENCH_BULK_CALLS_PER_KEY: String(BULK_CLIENTS),
  });
  const records = Array.from({ length: BULK_RECORDS }, (_, i) => ({ email: data.emails[i % data.emails.length]! }));
  const body = JSON.stringify(records);
  let alone: number[];
  let loaded: number[];
  let bulkCalls = 0;
  let loadSeconds = 0;
  try {
    alone = await measure(server.port, server.key);
    let running = true;
    let first: () => void = () => {};
    const firstAnswer = new Promise<void>((resolve) => (first = resolve));
    const clients = Array.from({ length: BULK_CLIENTS }, () =>
      bulkClient(
        server.port,
        server.key,
        body,
        () => running,
        () => {
          bulkCalls++;
          first();
        },
      ),
    );
    await firstAnswer; // the bulk path is warm and every client has a call in flight
    const started = performance.now();
    const callsBefore = bulkCalls;
    try {
      loaded = await measure(server.port, server.key);
    } finally {
      running = false;
      loadSeconds = (performance.now() - started) / 1000;
      bulkCalls -= callsBefore;
      await Promise.all(clients);
    }
  } finally {
    await server.stop();
  }
  const [alone99, loaded99] = [percentile(alone, 99), percentile(loaded, 99)];
  const ratio = loaded99 / alone99;
  const ms = (v: number) => v.toFixed(2);
  return {
    title: `/v5/ev p99 latency of one client while ${BULK_CLIENTS} others send ${BULK_RECORDS.toLocaleString('en-US')}-record /v5/ei/bulk calls, vs the same client alone`,
    ours: { label: 'p99 under bulk load', value: Number(ms(loaded99)), unit: 'ms' },
    baseline: { label: 'p99 alone', value: Number(ms(alone99)), unit: 'ms' },
    ratio,
    goal: '≤ 3',
    met: ratio <= 3,
    notes:
      `one real server process (HTTPS, SQLite, ${data.count.toLocaleString('en-US')} people) pinned to one core where taskset exists; ` +
      `the measured client in its own process sends ${MEASURED.toLocaleString('en-US')} sequential GET /v5/ev (depth syntax) over one keep-alive connection after ${WARMUP} unmeasured ones; ` +
      `${BULK_CLIENTS} bulk clients in the bench process each send the next call as soon as the last is answered. ` +
      `This run: median ${ms(percentile(alone, 50))} ms alone, ${ms(percentile(loaded, 50))} ms under load; ` +
      `${bulkCalls} bulk calls answered during the loaded measurement (${Math.round((bulkCalls * BULK_RECORDS) / loadSeconds).toLocaleString('en-US')} records/s)`,
  };
}
