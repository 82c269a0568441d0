/**
 * Lists at depth mailbox through the real `mailsure serve` in a child process, against a test
 * world of 50 domains: spread over 10 MX hosts, then all on one MX host (as business domains at
 * one hosted provider). A list's probes for one MX host share SMTP sessions (batching prober);
 * the baseline, measured in this run, is one session per address (the real-time prober, as lists
 * probed before), through the same domain scheduler and per-host limit of two sessions.
 *
 * The world's own counters give the sessions, RCPTs and the most sessions open at once per host;
 * more than the limit at any host fails the bench.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDomainScheduler } from '../src/lists/pipeline/domain-scheduler.js';
import { createSmtpProber } from '../src/verification/smtp/prober.js';
import { createKeyByCli, ListClient, startMailsure } from '../test/integration/list-server.js';
import { startTestWorld, type TestWorld, type WorldSpec } from '../test/helpers/world/index.js';
import type { Zone } from '../test/helpers/world/dns-zone.js';
import type { SmtpServerSpec } from '../test/helpers/world/smtp-behaviour.js';
import { pinServer } from './support/pin-server.js';
import type { BenchResult } from './types.js';

const ADDRESSES = Number(process.env.MAILSURE_BENCH_BATCH_ADDRESSES ?? 20_000);
const DOMAINS = 50;
const SESSIONS_PER_HOST = 2;
const BASELINE_SAMPLE = 400;
const POLL_MS = 250;
const RECORDS_GOAL = 500;

/** 50 domains over `hosts` MX hosts (one loopback server each), plus the canary's. */
function world(hosts: number): WorldSpec {
  const zone: Zone = {};
  const smtp: Record<string, SmtpServerSpec> = {};
  const domains: Record<string, string> = { canary: 'bench-canary-mail.com' };
  for (let h = 0; h < hosts; h++) {
    const name = `mx${h}.bench-hosting.com`;
    zone[name] = { a: [`127.0.0.${60 + h}`] };
    smtp[`host${h}`] = { address: `127.0.0.${60 + h}`, behaviour: 'mailboxes', mailboxes: [] };
  }
  for (let d = 0; d < DOMAINS; d++) {
    const domain = `bench-company-${String(d).padStart(2, '0')}.com`;
    domains[`d${d}`] = domain;
    zone[domain] = { mx: [{ priority: 10, exchange: `mx${d % hosts}.bench-hosting.com` }], ns: [`ns1.${domain}`], txt: ['v=spf1 -all'] };
    // A few real mailboxes per domain; the rest answer 550 5.1.1, each for its own recipient.
    (smtp[`host${d % hosts}`]!.mailboxes as string[]).push(...[0, 1, 2, 3].map((i) => `person${i * 97}@${domain}`));
  }
  zone[domains.canary!] = { mx: [{ priority: 10, exchange: `mx.${domains.canary}` }], ns: [`ns1.${domains.canary}`] };
  zone[`mx.${domains.canary}`] = { a: ['127.0.0.90'] };
  smtp.canary = { address: '127.0.0.90', behaviour: 'mailboxes' };
  return { zone, smtp, domains, addresses: {} };
}

/** Addresses interleaved over the domains, as a real list mixes them. */
function addresses(spec: WorldSpec, count: number): string[] {
  const list: string[] = [];
  for (let i = 0; i < count; i++) list.push(`person${Math.floor(i / DOMAINS)}@${spec.domains[`d${i % DOMAINS}`]}`);
  return list;
}

interface Seen {
  sessions: number;
  rcpts: number;
  maxOpen: number;
}

function seen(w: TestWorld<WorldSpec>): Seen {
  const logs = Object.entries(w.smtp)
    .filter(([name]) => name.startsWith('host'))
    .map(([, log]) => log);
  return {
    sessions: logs.reduce((n, log) => n + log.connections, 0),
    rcpts: logs.reduce((n, log) => n + log.sessions.reduce((m, s) => m + s.rcpts.length, 0), 0),
    maxOpen: Math.max(...logs.map((log) => log.maxActive)),
  };
}

/** The list through `mailsure serve`: records/s from upload to Results, and what the world saw. */
async function runList(hosts: number, root: string, wrap: string[]): Promise<{ perSecond: number; seen: Seen; seconds: number }> {
  const spec = world(hosts);
  const w = await startTestWorld(spec);
  try {
    const options = { dataDir: join(root, `data-${hosts}`), env: { ...w.env, MAILSURE_VERIFY_DEPTH: 'mailbox' }, wrap };
    const key = await createKeyByCli(options, 'bench', 'verification,lists');
    const file = join(root, `list-${hosts}.csv`);
    writeFileSync(file, `Email\n${addresses(spec, ADDRESSES).join('\n')}\n`);
    const server = await startMailsure(options);
    const client = new ListClient(server.port, key);
    try {
      w.reset();
      const started = performance.now();
      const listId = await client.submit(file);
      await client.waitResults(listId, POLL_MS);
      const seconds = (performance.now() - started) / 1000;
      const counts = seen(w);
      if (counts.maxOpen > SESSIONS_PER_HOST)
        throw new Error(`${counts.maxOpen} sessions open at once at one host, over the limit of ${SESSIONS_PER_HOST}`);
      return { perSecond: ADDRESSES / seconds, seen: counts, seconds };
    } finally {
      client.close();
      await server.kill();
    }
  } finally {
    await w.close();
  }
}

/** One session per address (the real-time prober) through the list's scheduler: probes/s and sessions. */
async function baseline(hosts: number, count: number): Promise<{ perSecond: number; seen: Seen }> {
  const spec = world(hosts);
  const w = await startTestWorld(spec);
  try {
    const prober = createSmtpProber({
      port: w.smtpPort,
      helo: 'bench.mailsure.local',
      from: 'verify@mailsure.local',
      maxSessionsPerHost: SESSIONS_PER_HOST,
    });
    const scheduler = createDomainScheduler({ concurrency: 64, perDomain: 4 });
    const hostOf = (address: string) => {
      const domain = address.slice(address.indexOf('@') + 1);
      const entry = spec.zone[domain]!.mx![0]!.exchange;
      return { host: entry, addresses: [spec.zone[entry]!.a![0]!] };
    };
    const list = addresses(spec, count);
    const started = performance.now();
    await scheduler.runEach(
      list,
      (a) => a.slice(a.indexOf('@') + 1),
      (a) => prober.probe(hostOf(a), [a], Date.now() + 60_000),
    );
    const seconds = (performance.now() - started) / 1000;
    return { perSecond: count / seconds, seen: seen(w) };
  } finally {
    await w.close();
  }
}

export default async function run(): Promise<BenchResult[]> {
  const root = mkdtempSync(join(tmpdir(), 'mailsure-bench-batch-'));
  const wrap = pinServer();
  try {
    const spread = await runList(10, root, wrap);
    const spreadBase = await baseline(10, 2_000);
    const shared = await runList(1, root, wrap);
    const sharedBase = await baseline(1, BASELINE_SAMPLE);
    const n = ADDRESSES.toLocaleString('en-US');
    const describe = (s: Seen) =>
      `${s.sessions.toLocaleString('en-US')} sessions, ${s.rcpts.toLocaleString('en-US')} RCPTs, at most ${s.maxOpen} open at once per host`;
    process.stdout.write(
      `  list-batch: 10 hosts: ${spread.seconds.toFixed(1)} s, ${Math.round(spread.perSecond)} records/s, ${describe(spread.seen)}; ` +
        `1 host: ${shared.seconds.toFixed(1)} s, ${Math.round(shared.perSecond)} records/s, ${describe(shared.seen)}; ` +
        `baselines: ${Math.round(spreadBase.perSecond)} and ${Math.round(sharedBase.perSecond)} probes/s, ${spreadBase.seen.sessions} and ${sharedBase.seen.sessions} sessions\n`,
    );
    const sessionRatio = spread.seen.sessions / ADDRESSES;
    return [
      {
        title: `list of ${n} addresses over 50 domains and 10 MX hosts at depth mailbox: SMTP sessions, shared vs one per address`,
        ours: { label: 'sessions (shared, per MX host)', value: spread.seen.sessions, unit: 'sessions' },
        baseline: { label: 'one session per address', value: ADDRESSES, unit: 'sessions' },
        ratio: sessionRatio,
        goal: '≤ 0.05 (addresses / 20)',
        met: sessionRatio <= 0.05 && spreadBase.seen.sessions === 2_000,
        notes:
          `real \`mailsure serve\` child (SQLite), list uploaded over HTTPS, status polled every ${POLL_MS} ms; the world's SMTP servers counted ` +
          `${describe(spread.seen)}; the list took ${spread.seconds.toFixed(1)} s (${Math.round(spread.perSecond)} records/s). Baseline: 2,000 of the addresses ` +
          `through the real-time prober (a session each) under the list's domain scheduler, ${spreadBase.seen.sessions.toLocaleString('en-US')} sessions seen. ` +
          `MAILSURE_BENCH_BATCH_ADDRESSES sets the size`,
      },
      {
        title: `list of ${n} addresses, 50 domains sharing one MX host, at depth mailbox: records/s`,
        ours: { label: 'mailsure list (shared sessions)', value: shared.perSecond, unit: 'records/s' },
        baseline: { label: 'one session per address', value: sharedBase.perSecond, unit: 'probes/s' },
        ratio: shared.perSecond / sharedBase.perSecond,
        goal: `≥ ${RECORDS_GOAL} records/s`,
        met: shared.perSecond >= RECORDS_GOAL,
        notes:
          `as above, one MX host for all 50 domains (two sessions at a time): upload to Results in ${shared.seconds.toFixed(1)} s, ${describe(shared.seen)}. ` +
          `Baseline: ${BASELINE_SAMPLE} of the addresses through the real-time prober (a session each, two at a time) under the list's domain scheduler`,
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
