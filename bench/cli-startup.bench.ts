/**
 * How long a `mailsure` command takes from exec to exit, against `node -e 0` (Node's own start-up)
 * measured in the same run: `mailsure --help` (goal ≤ 0.5 s) and `mailsure keys list` on a SQLite
 * data directory holding a few keys (goal ≤ 1 s). The goals are absolute, so `met` compares the
 * time itself; the ratio says how much of it is ours. Runs the compiled dist/ (built first when
 * stale), as the `mailsure` bin does; the notes also give the same commands through tsx, as the bin
 * ran before the build step.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
// @ts-expect-error: a plain .mjs script (Node built-ins only), without type declarations.
import { buildIfStale } from '../scripts/build.mjs';
import type { BenchResult } from './types.js';

const RUNS = 15;
const BIN = join(import.meta.dirname, '..', 'bin', 'mailsure.js');
const MAIN_TS = join(import.meta.dirname, '..', 'src', 'main.ts');

function timed(args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${result.status}: ${result.stderr}`);
  return ms;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median of RUNS runs of each command, alternating so both see the same machine load. */
function compare(commands: Record<string, string[]>, env: NodeJS.ProcessEnv): Record<string, number> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
  for (const args of Object.values(commands)) timed(args, env); // warm the file cache
  for (let i = 0; i < RUNS; i++) for (const [name, args] of Object.entries(commands)) times[name]!.push(timed(args, env));
  return Object.fromEntries(Object.entries(times).map(([name, values]) => [name, median(values)]));
}

function result(title: string, label: string, ours: number, baseline: number, goalMs: number, notes: string): BenchResult {
  return {
    title,
    ours: { label, value: ours, unit: 'ms' },
    baseline: { label: 'node -e 0', value: baseline, unit: 'ms' },
    ratio: ours / baseline,
    goal: `≤ ${goalMs / 1000} s (absolute)`,
    met: ours <= goalMs,
    notes,
  };
}

export default async function cliStartup(): Promise<BenchResult[]> {
  if (!(buildIfStale as () => boolean)()) throw new Error('building dist/ failed');
  const dataDir = mkdtempSync(join(tmpdir(), 'mailsure-bench-cli-'));
  try {
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', MAILSURE_DATA_DIR: dataDir };
    for (const name of ['alpha', 'beta', 'gamma']) timed([BIN, 'keys', 'create', '--name', name], env);
    // Through tsx, the way bin/mailsure.js ran before the build step (a dummy argv[1] for commander).
    const viaTsx = (args: string[]) => [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const { main } = await import(${JSON.stringify(MAIN_TS)}); await main(process.argv);`,
      'mailsure',
      ...args,
    ];
    const t = compare(
      {
        node: ['-e', '0'],
        help: [BIN, '--help'],
        keys: [BIN, 'keys', 'list'],
        tsxHelp: viaTsx(['--help']),
        tsxKeys: viaTsx(['keys', 'list']),
      },
      env,
    );
    process.stdout.write(`  the same code through tsx: --help ${Math.round(t.tsxHelp!)} ms, keys list ${Math.round(t.tsxKeys!)} ms\n`);
    const how =
      `wall time from spawn to exit, median of ${RUNS} alternating runs after one warm-up each, against \`node -e 0\` in the same rounds; ` +
      `the compiled dist/ through bin/mailsure.js, every command importing its code only when it runs`;
    return [
      result(
        '`mailsure --help` (compiled) vs `node -e 0`',
        'mailsure --help',
        t.help!,
        t.node!,
        500,
        `${how}; the same code through tsx instead of dist/ (how the bin ran before the build step): ${Math.round(t.tsxHelp!)} ms`,
      ),
      result(
        '`mailsure keys list` (compiled, SQLite, 3 keys) vs `node -e 0`',
        'mailsure keys list',
        t.keys!,
        t.node!,
        1_000,
        `${how}; opens and migrates the SQLite file, lists 3 keys; the same code through tsx instead of dist/ (how the bin ran before the build step): ${Math.round(t.tsxKeys!)} ms`,
      ),
    ];
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
