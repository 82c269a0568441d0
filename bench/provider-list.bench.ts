/**
 * Issue 21's benchmark: a list of 100,000 rows over 250 domains spread across the simulated
 * providers (Google, Microsoft 365, Outlook.com, Yahoo, iCloud, Mimecast, Proofpoint, Barracuda,
 * 25 domains each, and 50 on plain hosts; bench/support/provider-world.ts), three in five of its
 * addresses holding a mailbox, at depth mailbox through the real `mailsure serve` in a child
 * process: list uploaded over HTTPS, status polled, results downloaded and read row by row.
 *
 * Everything runs as in production (batching prober, each provider's profile: its limits, reply
 * mapping and what its 250 proves) except the per-provider connection budget, which is off
 * (MAILSURE_SMTP_THROTTLE=off, as in every test world): the profiles allow 10–20 new connections a
 * minute per provider, so 100,000 rows would take hours, all of it waiting, none of it measuring.
 *
 * The bench fails when any row is invalid although its simulator accepts the address (a false
 * invalid), when a row at an accept-all provider or gateway (profile `rcpt` other than `mailbox`)
 * comes out 50, or when an unknown user at a provider whose 250 is proof (`mailbox`) is not invalid.
 *
 * Baseline, in the same run: the same list against the same world with every server a plain one
 * (default profile, neutral MX names, the same host sharing and mailboxes), i.e. what the provider
 * rules cost in throughput. MAILSURE_BENCH_PROVIDER_ROWS sets the size.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import { profileFor } from '../src/verification/providers/match-profile.js';
import { PROFILES, DEFAULT_PROFILE } from '../src/verification/providers/profiles.js';
import { startTestWorld } from '../test/helpers/world/index.js';
import { createKeyByCli, ListClient, readZipEntry, startMailsure } from '../test/integration/list-server.js';
import { providerWorld, type GroupName, type ProviderWorld } from './support/provider-world.js';
import { pinServer } from './support/pin-server.js';
import type { BenchResult } from './types.js';

const ROWS = Number(process.env.MAILSURE_BENCH_PROVIDER_ROWS ?? 100_000);
const POLL_MS = 250;

interface GroupTally {
  rows: number;
  statuses: Record<string, number>;
  codes: Record<string, number>;
  sessions: number;
  rcpts: number;
  /** The most sessions open at once at the group's server (one address, however many MX names point at it). */
  maxOpen: number;
}

interface Run {
  seconds: number;
  perSecond: number;
  groups: Map<GroupName, GroupTally>;
  /** Rows invalid although the world accepts the address. */
  falseInvalid: string[];
  /** Rows proven valid (50) at a provider whose 250 proves nothing. */
  provenAtAcceptAll: string[];
  /** Unknown users at a provider whose refusal is proof, not called invalid. */
  unknownNotInvalid: string[];
}

const rcptOf = (profile: string) => (PROFILES.find((p) => p.id === profile) ?? DEFAULT_PROFILE).rcpt;

/** The world must make the server pick the profile each domain is meant to have. */
function assertProfiles(world: ProviderWorld): void {
  for (const d of world.domains) {
    const picked = profileFor(d.domain, d.mx).id;
    if (picked !== d.profile) throw new Error(`${d.domain} (MX ${d.mx.join(', ')}) gets profile ${picked}, not ${d.profile}`);
  }
}

/** Reads the results file and judges every row against the world's truth. */
async function judge(world: ProviderWorld, zipPath: string): Promise<Omit<Run, 'seconds' | 'perSecond'>> {
  const groups = new Map<GroupName, GroupTally>();
  const run = { groups, falseInvalid: [] as string[], provenAtAcceptAll: [] as string[], unknownNotInvalid: [] as string[] };
  let rows = 0;
  await readZipEntry(zipPath, async (stream) => {
    for await (const record of stream.pipe(parse({ columns: true })) as AsyncIterable<Record<string, string>>) {
      rows++;
      const address = record.Email!;
      const status = record['Validation Status']!;
      const code = record['Validation Code']!;
      const domain = world.domainOf(address);
      const tally = groups.get(domain.group) ?? { rows: 0, statuses: {}, codes: {}, sessions: 0, rcpts: 0, maxOpen: 0 };
      groups.set(domain.group, tally);
      tally.rows++;
      tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
      tally.codes[code] = (tally.codes[code] ?? 0) + 1;
      const accepted = world.accepts(address);
      const rcpt = rcptOf(domain.profile);
      if (status === 'invalid' && accepted) run.falseInvalid.push(`${address} ${code}`);
      if (rcpt !== 'mailbox' && code === '50') run.provenAtAcceptAll.push(`${address} (${domain.group})`);
      if (rcpt === 'mailbox' && !accepted && status !== 'invalid')
        run.unknownNotInvalid.push(`${address} ${status} ${code} (${domain.group})`);
    }
  });
  if (rows !== ROWS) throw new Error(`the results hold ${rows} rows, not ${ROWS}`);
  return run;
}

/** The list through `mailsure serve` against the provider world (or its plain twin): upload to Results, then the results judged. */
async function runList(plain: boolean, root: string, wrap: string[]): Promise<Run> {
  const world = providerWorld(ROWS, plain);
  assertProfiles(world);
  const w = await startTestWorld(world.spec);
  const name = plain ? 'plain' : 'providers';
  try {
    const options = {
      dataDir: join(root, `data-${name}`),
      env: { ...w.env, MAILSURE_VERIFY_DEPTH: 'mailbox', MAILSURE_SMTP_THROTTLE: 'off' },
      wrap,
    };
    const key = await createKeyByCli(options, 'bench', 'verification,lists');
    const file = join(root, `list-${name}.csv`);
    writeFileSync(file, `Email\n${world.addresses.join('\n')}\n`);
    const server = await startMailsure(options);
    const client = new ListClient(server.port, key);
    const zipPath = join(root, `results-${name}.zip`);
    let seconds: number;
    try {
      w.reset();
      const started = performance.now();
      const listId = await client.submit(file);
      await client.waitResults(listId, POLL_MS);
      seconds = (performance.now() - started) / 1000;
      await client.downloadResults(listId, zipPath);
    } finally {
      client.close();
      await server.kill();
    }
    const judged = await judge(world, zipPath);
    for (const [group, tally] of judged.groups) {
      const log = w.smtp[world.serverOf[group]]!;
      tally.sessions = log.connections;
      tally.rcpts = log.sessions.reduce((n, s) => n + s.rcpts.length, 0);
      tally.maxOpen = log.maxActive;
    }
    return { seconds, perSecond: ROWS / seconds, ...judged };
  } finally {
    await w.close();
  }
}

const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)} %`;
const count = (n: number) => n.toLocaleString('en-US');

function shares(statuses: Record<string, number>, rows: number): string {
  return Object.entries(statuses)
    .sort(([, a], [, b]) => b - a)
    .map(([status, n]) => `${status} ${pct(n, rows)}`)
    .join(', ');
}

function total(run: Run): GroupTally {
  const all: GroupTally = { rows: 0, statuses: {}, codes: {}, sessions: 0, rcpts: 0, maxOpen: 0 };
  for (const t of run.groups.values()) {
    all.rows += t.rows;
    all.sessions += t.sessions;
    all.rcpts += t.rcpts;
    all.maxOpen = Math.max(all.maxOpen, t.maxOpen);
    for (const [s, n] of Object.entries(t.statuses)) all.statuses[s] = (all.statuses[s] ?? 0) + n;
    for (const [c, n] of Object.entries(t.codes)) all.codes[c] = (all.codes[c] ?? 0) + n;
  }
  return all;
}

function perGroup(run: Run): string {
  return [...run.groups]
    .map(
      ([group, t]) =>
        `${group}: ${shares(t.statuses, t.rows)} (codes ${Object.entries(t.codes)
          .map(([c, n]) => `${c}×${count(n)}`)
          .join(' ')}; ${count(t.sessions)} sessions, ${count(t.rcpts)} RCPTs, at most ${t.maxOpen} open at once)`,
    )
    .join('; ');
}

function check(run: Run, what: string): void {
  const failures = [
    [run.falseInvalid, 'invalid although the simulator accepts the address'],
    [run.provenAtAcceptAll, 'proven valid (50) at an accept-all provider or gateway'],
    [run.unknownNotInvalid, "not invalid although a 'mailbox' provider refused the unknown user"],
  ] as const;
  const found = failures.filter(([rows]) => rows.length > 0);
  if (found.length > 0) {
    throw new Error(`${what}: ${found.map(([rows, why]) => `${rows.length} rows ${why}, e.g. ${rows.slice(0, 3).join('; ')}`).join('. ')}`);
  }
}

export default async function run(): Promise<BenchResult> {
  const root = mkdtempSync(join(tmpdir(), 'mailsure-bench-provider-'));
  const wrap = pinServer();
  try {
    const ours = await runList(false, root, wrap);
    const base = await runList(true, root, wrap);
    const all = total(ours);
    const baseAll = total(base);
    process.stdout.write(
      `  provider-list: providers ${ours.seconds.toFixed(1)} s, ${Math.round(ours.perSecond)} records/s, ${count(all.sessions)} sessions, ${count(all.rcpts)} RCPTs; ` +
        `${shares(all.statuses, all.rows)}\n  per provider: ${perGroup(ours)}\n` +
        `  plain servers: ${base.seconds.toFixed(1)} s, ${Math.round(base.perSecond)} records/s, ${count(baseAll.sessions)} sessions, ${count(baseAll.rcpts)} RCPTs; ${shares(baseAll.statuses, baseAll.rows)}\n` +
        `  false invalids ${ours.falseInvalid.length}, 50 at accept-all ${ours.provenAtAcceptAll.length}, unknown users not invalid ${ours.unknownNotInvalid.length}\n`,
    );
    check(ours, 'provider world');
    check(base, 'plain world');
    const domains = ours.groups.size;
    const n = count(ROWS);
    return {
      title: `list of ${n} rows over 250 domains at 8 simulated providers and plain hosts, depth mailbox: records/s, provider rules vs plain servers`,
      ours: { label: 'provider profiles (throttle off)', value: ours.perSecond, unit: 'records/s' },
      baseline: { label: 'same list, every MX a plain server', value: base.perSecond, unit: 'records/s' },
      ratio: ours.perSecond / base.perSecond,
      goal: '0 false invalids (else the run fails); ratio recorded',
      met: ours.falseInvalid.length === 0,
      notes:
        `issue 21. Real \`mailsure serve\` child (SQLite) pinned to one core where taskset exists, list uploaded over HTTPS, status polled every ${POLL_MS} ms, results downloaded and read row by row; ` +
        `${domains} groups of domains (25 each at Google, Microsoft 365, Outlook.com, Yahoo, iCloud, Mimecast, Proofpoint, Barracuda simulators replying with each provider's texts, ` +
        `gateways 13 tenants validating recipients and 12 accepting all; 50 domains on 2 plain hosts), MX names shaped like each provider's so the server picks its profile; ` +
        `3 in 5 addresses hold a mailbox, rows interleaved over the domains. Batching prober and profile rules as in production, the per-provider connection budget off ` +
        `(MAILSURE_SMTP_THROTTLE=off: at the profiles' 10–20 connections a minute the list would take hours). ` +
        `This run: upload to Results ${ours.seconds.toFixed(1)} s; the simulators counted ${count(all.sessions)} SMTP sessions and ${count(all.rcpts)} RCPTs (catch-all probes included); ` +
        `verdicts ${shares(all.statuses, all.rows)}; per provider: ${perGroup(ours)}. ` +
        `False invalids (invalid although the simulator holds the mailbox or accepts all): ${ours.falseInvalid.length}; 50 at an accept-all provider or gateway: ${ours.provenAtAcceptAll.length}; ` +
        `unknown users at a 'mailbox' provider not invalid: ${ours.unknownNotInvalid.length} (any of these fails the run). ` +
        `Baseline: the same list and mailboxes with every server a plain one behind neutral MX names (default profile), ${base.seconds.toFixed(1)} s, ` +
        `${count(baseAll.sessions)} sessions, ${count(baseAll.rcpts)} RCPTs, ${shares(baseAll.statuses, baseAll.rows)}. MAILSURE_BENCH_PROVIDER_ROWS sets the size`,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
