/**
 * A list at depth mailbox on a host whose port 25 is blocked, against the same list at depth
 * domain (issue 13: "no time wasted on a dead egress"). Both through the real `mailsure serve`
 * in a child process against the test world; the blocked egress is a port nothing listens on at
 * any of the world's MX addresses, so the start-up check finds it closed and verdicts stop at
 * what DNS proved without a connection attempt per address. MAILSURE_BENCH_EGRESS_ROWS sets the
 * size (default 100,000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closedPort } from '../test/helpers/world/egress.js';
import { startTestWorld } from '../test/helpers/world/index.js';
import { writeListCsv } from '../test/integration/list-csv.js';
import { createKeyByCli, ListClient, startMailsure, type ServerOptions } from '../test/integration/list-server.js';
import type { BenchResult } from './types.js';

const ROWS = Number(process.env.MAILSURE_BENCH_EGRESS_ROWS ?? 100_000);
const POLL_MS = 250;

/** Upload → Results → download, in ms; with the list's status codes from its report. */
async function runList(options: ServerOptions, file: string, zipPath: string): Promise<{ ms: number; codes: Record<string, number> }> {
  const key = await createKeyByCli(options, 'bench', 'verification,lists');
  const server = await startMailsure(options);
  const client = new ListClient(server.port, key);
  try {
    const started = performance.now();
    const listId = await client.submit(file);
    for (;;) {
      const body = await client.status(listId);
      if (body.status === 'Results') {
        await client.downloadResults(listId, zipPath);
        const reporting = body.services.email_validation?.reporting as { status_codes: Record<string, number> } | undefined;
        return { ms: performance.now() - started, codes: reporting?.status_codes ?? {} };
      }
      if (!['Pending', 'Processed', 'Processing'].includes(body.status))
        throw new Error(`the list ended ${body.status}: ${body.error ?? ''}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    client.close();
    await server.kill();
  }
}

export default async function run(): Promise<BenchResult> {
  const world = await startTestWorld();
  const root = mkdtempSync(join(tmpdir(), 'mailsure-bench-egress-'));
  try {
    const file = await writeListCsv(join(root, 'list.csv'), ROWS);
    const addresses = [...new Set(Object.keys(world.smtp).map((name) => world.smtpAddress(name as never)))];
    const blockedPort = String(await closedPort(addresses));
    const domain = await runList(
      { dataDir: join(root, 'domain'), env: { ...world.env, MAILSURE_VERIFY_DEPTH: 'domain' } },
      file.path,
      join(root, 'domain.zip'),
    );
    const blocked = await runList(
      { dataDir: join(root, 'blocked'), env: { ...world.env, MAILSURE_VERIFY_DEPTH: 'mailbox', MAILSURE_SMTP_PORT: blockedPort } },
      file.path,
      join(root, 'blocked.zip'),
    );
    const invalidByEgress = (blocked.codes['420'] ?? 0) + (blocked.codes['400'] ?? 0);
    if (invalidByEgress > 0) throw new Error(`${invalidByEgress} records were called invalid for our own blocked port 25`);
    const rows = ROWS.toLocaleString('en-US');
    const ratio = blocked.ms / domain.ms;
    process.stdout.write(
      `  egress blocked: ${rows} rows, depth domain ${(domain.ms / 1000).toFixed(1)} s, depth mailbox with port 25 blocked ${(blocked.ms / 1000).toFixed(1)} s\n`,
    );
    return {
      title: `list of ${rows} rows at depth mailbox with outbound port 25 blocked, vs the same list at depth domain`,
      ours: { label: 'depth mailbox, egress blocked', value: blocked.ms / 1000, unit: 's' },
      baseline: { label: 'depth domain', value: domain.ms / 1000, unit: 's' },
      ratio,
      goal: '≤ 2',
      met: ratio <= 2,
      notes:
        'real `mailsure serve` in a child process, one after the other on fresh data directories, the list bench\'s generated file; port 25 "blocked" is a port refused at every MX address of the ' +
        'test world, so the start-up prober-health check fails the egress and no probe is attempted; the run fails if any record comes back 400 or 420. MAILSURE_BENCH_EGRESS_ROWS sets the size',
    };
  } finally {
    await world.close();
    rmSync(root, { recursive: true, force: true });
  }
}
