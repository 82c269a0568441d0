/**
 * Issue 27's benchmark: real-time `/v5/ev` calls at depth mailbox, each for a distinct address at
 * the Google simulator (25 business domains behind aspmx.l.google.com; three in five addresses
 * hold a mailbox: bench/support/provider-world.ts), through the real `mailsure serve` in a child
 * process with production defaults: the per-provider connection budget on (Google: 20 new
 * connections a minute for the one egress), the default 10 s timeout, the verdict memory on
 * (distinct addresses: it never answers). Calls arrive open-loop at a steady rate over HTTPS
 * for MAILSURE_BENCH_REALTIME_SECONDS (default 60): 10 calls/s, then 50 calls/s (overload); then
 * 40 calls/s through 4 egresses (4 SOCKS5 proxies on loopback, each connecting out from its own
 * 127.0.0.x, MAILSURE_SMTP_PROXY a list of the 4), each egress's connections counted apart by the
 * simulator (its sessions by client address); then 10 calls/s with 3 calls in 10 repeating an
 * address asked before (repeats must cost no RCPT: the simulator's RCPTs for the asked addresses
 * equal the distinct addresses; catch-all probes, random local parts, counted apart).
 *
 * Per run: answers definitive (50 for a mailbox the simulator holds, 400 for one it does not),
 * other codes, latency p50/p99, the simulator's sessions and RCPTs, and the most connections it
 * accepted in any 60 s interval (sampled every 250 ms). The run fails on any false verdict (400
 * for an existing mailbox, 50 for a missing one).
 *
 * Baseline: the same 10 calls/s run on the code before the shared session pool (issue 27's
 * "Why", measured on main then): 13 definitive answers of 600. It is recorded, not re-run: that
 * code is gone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROFILES } from '../src/verification/providers/profiles.js';
import { startTestWorld } from '../test/helpers/world/index.js';
import { startSocksProxy, type TestSocksProxy } from '../test/helpers/world/socks-proxy.js';
import { createKeyByCli, startMailsure } from '../test/integration/list-server.js';
import { pinServer } from './support/pin-server.js';
import { providerWorld, type ProviderWorld } from './support/provider-world.js';
import type { BenchResult } from './types.js';

const SECONDS = Number(process.env.MAILSURE_BENCH_REALTIME_SECONDS ?? 60);
const RATES = [10, 50];
/** Issue 27, measured on main before the pool: 13 definitive answers of 600 at 10 calls/s. */
const BASELINE = { definitive: 13, calls: 600 };
const GOOGLE = PROFILES.find((p) => p.id === 'google')!;

interface Run {
  label: string;
  rate: number;
  calls: number;
  definitive: number;
  codes: Record<string, number>;
  wrong: string[];
  p50: number;
  p99: number;
  sessions: number;
  rcpts: number;
  /** Most connections the simulator accepted in any 60 s interval. */
  maxPerMinute: number;
  /** The same per egress (by the address its sessions came from), with several egresses. */
  perEgress: Record<string, number>;
  distinct: number;
  /** RCPTs for the asked addresses (every other RCPT is a catch-all probe's random local part). */
  mailboxRcpts: number;
  catchAllRcpts: number;
}

interface Scenario {
  label: string;
  rate: number;
  /** Extra settings of the server (the egress list). */
  env?: Record<string, string>;
  /** Of every ten calls, how many repeat an address asked at least 2 s before. */
  repeatsOfTen?: number;
  /** Client addresses whose sessions are counted apart (one per egress). */
  egressAddresses?: string[];
}

function get(agent: Agent, port: number, path: string): Promise<{ ms: number; code: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request({ host: '127.0.0.1', port, path, agent, rejectUnauthorized: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`GET ${path} answered ${res.statusCode}`));
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { safe_to_send: { status_code: number } };
        resolve({ ms: performance.now() - started, code: body.safe_to_send.status_code });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Most of `count` at any moment within a 60 s interval of the samples. */
function maxInMinute(samples: { at: number; count: number }[]): number {
  let most = 0;
  for (const from of samples) {
    const within = samples.filter((s) => s.at >= from.at && s.at <= from.at + 60_000);
    most = Math.max(most, within.at(-1)!.count - from.count);
  }
  // Connections made in the first interval count from zero.
  return Math.max(most, samples.filter((s) => s.at <= 60_000).at(-1)?.count ?? 0);
}

/** The call sequence: distinct addresses, or with `repeatsOfTen` in ten an address asked ≥ 20 calls before. */
function sequence(addresses: string[], calls: number, repeatsOfTen: number): string[] {
  const asked: string[] = [];
  let fresh = 0;
  for (let i = 0; i < calls; i++) {
    const repeat = i >= 20 && i % 10 < repeatsOfTen;
    asked.push(repeat ? asked[(i * 7919) % (i - 19)]! : addresses[fresh++]!);
  }
  return asked;
}

async function runAt(scenario: Scenario, world: ProviderWorld, addresses: string[], root: string, wrap: string[]): Promise<Run> {
  const { rate } = scenario;
  const w = await startTestWorld(world.spec);
  const options = {
    dataDir: join(root, `data-${rate}-${scenario.label.replace(/\W+/g, '-')}`),
    env: { ...w.env, MAILSURE_VERIFY_DEPTH: 'mailbox', MAILSURE_SMTP_THROTTLE: 'on', MAILSURE_VERDICT_MEMORY: 'on', ...scenario.env },
    wrap,
  };
  try {
    const key = await createKeyByCli(options, 'bench', 'verification');
    const server = await startMailsure(options);
    const agent = new Agent({ keepAlive: true, maxSockets: 1_000 });
    const log = w.smtp[world.serverOf.google]!;
    const samples: { at: number; connections: number; byEgress: Record<string, number> }[] = [];
    const egressAddresses = scenario.egressAddresses ?? [];
    const sample = (at: number) => ({
      at,
      connections: log.connections,
      byEgress: Object.fromEntries(egressAddresses.map((a) => [a, log.sessions.filter((s) => s.remoteAddress === a).length])),
    });
    try {
      w.reset();
      const started = performance.now();
      const sampler = setInterval(() => samples.push(sample(performance.now() - started)), 250);
      const calls = Math.round(rate * SECONDS);
      const asked = sequence(addresses, calls, scenario.repeatsOfTen ?? 0);
      const answers: Promise<{ ms: number; code: number; address: string }>[] = [];
      for (let i = 0; i < calls; i++) {
        const due = (i * 1000) / rate;
        const wait = due - (performance.now() - started);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const address = asked[i]!;
        answers.push(
          get(agent, server.port, `/v5/ev?email=${encodeURIComponent(address)}&api_key=${key}`).then((a) => ({ ...a, address })),
        );
      }
      const done = await Promise.all(answers);
      clearInterval(sampler);
      samples.push(sample(performance.now() - started));
      const codes: Record<string, number> = {};
      const wrong: string[] = [];
      let definitive = 0;
      for (const { code, address } of done) {
        codes[code] = (codes[code] ?? 0) + 1;
        const exists = world.accepts(address);
        if ((code === 50 && exists) || (code === 400 && !exists)) definitive++;
        else if (code === 50 || code === 400) wrong.push(`${address} ${code}`);
      }
      const latencies = done.map((a) => a.ms).sort((a, b) => a - b);
      const distinct = new Set(asked);
      const rcpts = log.sessions.flatMap((s) => s.rcpts.map((r) => r.address.toLowerCase()));
      const mailboxRcpts = rcpts.filter((r) => distinct.has(r)).length;
      return {
        label: scenario.label,
        rate,
        calls,
        definitive,
        codes,
        wrong,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        sessions: log.sessions.length,
        rcpts: rcpts.length,
        maxPerMinute: maxInMinute(samples.map((s) => ({ at: s.at, count: s.connections }))),
        perEgress: Object.fromEntries(
          egressAddresses.map((a) => [a, maxInMinute(samples.map((s) => ({ at: s.at, count: s.byEgress[a] ?? 0 })))]),
        ),
        distinct: distinct.size,
        mailboxRcpts,
        catchAllRcpts: rcpts.length - mailboxRcpts,
      };
    } finally {
      agent.destroy();
      await server.kill();
    }
  } finally {
    await w.close();
  }
}

const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)} %`;
const describeRun = (r: Run) =>
  `${r.label}, ${r.rate} calls/s for ${SECONDS} s: ${r.definitive} of ${r.calls} definitive (${pct(r.definitive, r.calls)}; ${Math.round((r.definitive * 60) / SECONDS)} a minute), ` +
  `codes ${Object.entries(r.codes)
    .map(([c, n]) => `${c}×${n}`)
    .join(
      ' ',
    )}, p50 ${Math.round(r.p50)} ms, p99 ${Math.round(r.p99)} ms; the simulator saw ${r.sessions} sessions, ${r.rcpts} RCPTs, at most ${r.maxPerMinute} connections in a 60 s interval` +
  (Object.keys(r.perEgress).length > 0 ? ` (per egress at most ${Object.values(r.perEgress).join(', ')})` : '') +
  (r.distinct < r.calls
    ? `; ${r.distinct} distinct addresses of ${r.calls} calls, ${r.mailboxRcpts} RCPTs for them, ${r.catchAllRcpts} catch-all probes`
    : '');

/** Where each of the 4 egresses' proxy connects out from: the simulator tells the egresses apart by it. */
const EGRESS_ADDRESSES = ['127.0.0.231', '127.0.0.232', '127.0.0.233', '127.0.0.234'];

export default async function run(): Promise<BenchResult[]> {
  const root = mkdtempSync(join(tmpdir(), 'mailsure-bench-realtime-'));
  const wrap = pinServer();
  try {
    // The provider world's list is interleaved over 250 domains: one row in ten is at Google.
    const world = providerWorld(Math.max(...RATES) * SECONDS * 10, false);
    const addresses = world.addresses.filter((a) => world.domainOf(a).group === 'google');
    const runs: Run[] = [];
    const proxies: TestSocksProxy[] = [];
    try {
      for (const out of EGRESS_ADDRESSES) proxies.push(await startSocksProxy({ outboundAddress: out }));
      const scenarios: Scenario[] = [
        ...RATES.map((rate) => ({ label: 'one egress', rate })),
        {
          label: '4 egresses',
          rate: 40,
          env: { MAILSURE_SMTP_PROXY: proxies.map((p) => p.url).join(',') },
          egressAddresses: EGRESS_ADDRESSES,
        },
        { label: 'one egress, 30 % repeats', rate: 10, repeatsOfTen: 3 },
      ];
      for (const scenario of scenarios) {
        runs.push(await runAt(scenario, world, addresses, root, wrap));
        process.stdout.write(`  realtime-mailbox: ${describeRun(runs.at(-1)!)}\n`);
      }
    } finally {
      await Promise.all(proxies.map((p) => p.close()));
    }
    const wrong = runs.flatMap((r) => r.wrong);
    if (wrong.length > 0) throw new Error(`${wrong.length} false verdicts, e.g. ${wrong.slice(0, 3).join('; ')}`);
    const [steady, overload, pooled, repeated] = runs as [Run, Run, Run, Run];
    const budget = GOOGLE.limits.connectionsPerMinute;
    const share = steady.definitive / steady.calls;
    const met =
      share >= 0.95 &&
      steady.p99 <= 3_000 &&
      steady.maxPerMinute <= budget + 1 &&
      overload.definitive / overload.calls >= 0 &&
      overload.definitive >= steady.definitive &&
      overload.p99 <= 10_500 &&
      overload.maxPerMinute <= budget + 1;
    const pooledShare = pooled.definitive / pooled.calls;
    const pooledMet =
      pooledShare >= 0.95 &&
      pooled.p99 <= 3_000 &&
      Object.values(pooled.perEgress).every((n) => n <= budget + 1) &&
      Object.keys(pooled.perEgress).length === EGRESS_ADDRESSES.length;
    const repeatedShare = repeated.definitive / repeated.calls;
    const steadyResult: BenchResult = {
      title: `real-time /v5/ev at depth mailbox, distinct addresses at the Google simulator, connection budget on, one egress: definitive answers at 10 calls/s`,
      ours: { label: 'shared session pool', value: 100 * share, unit: '% definitive' },
      baseline: {
        label: 'a session per call (main before issue 27, recorded)',
        value: (100 * BASELINE.definitive) / BASELINE.calls,
        unit: '% definitive',
      },
      ratio: share / (BASELINE.definitive / BASELINE.calls),
      goal: `≥ 95 % definitive, p99 ≤ 3 s, ≤ ${budget + 1} connections a minute at 10 calls/s; at 50 calls/s definitive a minute ≥ the 10 calls/s run's, p99 ≤ 10.5 s; 0 false verdicts`,
      met,
      notes:
        `issue 27. Real \`mailsure serve\` child (SQLite) pinned to one core where taskset exists, calls over HTTPS (keep-alive), open-loop at a steady rate, default timeout (10 s), ` +
        `MAILSURE_SMTP_THROTTLE=on with the Google profile's budget (${budget} connections a minute, ${GOOGLE.limits.sessionsPerHost} sessions at once, ${GOOGLE.limits.rcptsPerSession} RCPTs a session), one egress (direct), verdict memory on (every address distinct). ` +
        `Google simulator behind aspmx.l.google.com, 25 business domains, 3 in 5 addresses hold a mailbox. ` +
        `This run: ${runs.map(describeRun).join('. ')}. ` +
        `False verdicts (400 for a mailbox the simulator holds, 50 for one it does not): 0 (any fails the run). ` +
        `Baseline: issue 27's measurement on main before the pool (a session per call), ${BASELINE.definitive} of ${BASELINE.calls} definitive at 10 calls/s (4 of 3,000 at 50 calls/s). ` +
        `The 4-egress and 30 % repeat rows are the next two results of this bench. MAILSURE_BENCH_REALTIME_SECONDS sets the length`,
    };
    const pooledResult: BenchResult = {
      title: `real-time /v5/ev at depth mailbox, distinct addresses at the Google simulator, connection budget on, 4 egresses: definitive answers at 40 calls/s`,
      ours: { label: '4 egresses (SOCKS5 proxies), shared session pool', value: 100 * pooledShare, unit: '% definitive' },
      baseline: { label: 'one egress at 10 calls/s (this run)', value: 100 * share, unit: '% definitive' },
      ratio: share > 0 ? pooledShare / share : 0,
      goal: `≥ 95 % definitive, p99 ≤ 3 s, each egress ≤ ${budget + 1} connections a minute at 40 calls/s; 0 false verdicts`,
      met: pooledMet,
      notes:
        `issue 27. As the one-egress row, with MAILSURE_SMTP_PROXY a list of 4 SOCKS5 proxies on loopback (in the bench process), each connecting out from its own address (${EGRESS_ADDRESSES.join(', ')}), ` +
        `so the simulator counts each egress's connections apart (its sessions by client address, sampled every 250 ms). This run: ${describeRun(pooled)}`,
    };
    const repeatedResult: BenchResult = {
      title: `real-time /v5/ev at depth mailbox at the Google simulator, one egress, 10 calls/s with 30 % repeats: RCPTs for the asked addresses per distinct address`,
      ours: {
        label: 'verdict memory and single flight',
        value: repeated.distinct > 0 ? repeated.mailboxRcpts / repeated.distinct : 0,
        unit: 'RCPTs per distinct address',
      },
      baseline: {
        label: 'one probe per call',
        value: repeated.distinct > 0 ? repeated.calls / repeated.distinct : 0,
        unit: 'RCPTs per distinct address',
      },
      ratio: repeated.calls > 0 ? repeated.mailboxRcpts / repeated.calls : 0,
      goal: `1.0 (repeats cost no RCPT), ≥ 95 % definitive; 0 false verdicts`,
      met: repeated.mailboxRcpts === repeated.distinct && repeatedShare >= 0.95,
      notes:
        `issue 27. As the one-egress row at 10 calls/s; from the 21st call on, 3 calls in 10 repeat an address asked at least 20 calls (2 s) before, by the same key (the verdict memory per key, on by default). ` +
        `RCPTs counted at the simulator for the asked addresses; catch-all probes (random local parts) counted apart. This run: ${describeRun(repeated)}`,
    };
    return [steadyResult, pooledResult, repeatedResult];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
