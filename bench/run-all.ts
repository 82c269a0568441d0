/**
 * `npm run bench`: runs every bench/*.bench.ts (or those named on the command line), prints each
 * ratio against its in-run baseline, and rewrites docs/benchmarks.md.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { pathToFileURL } from 'node:url';
// @ts-expect-error: a plain .mjs script (Node built-ins only), without type declarations.
import { buildIfStale } from '../scripts/build.mjs';
import type { BenchResult } from './types.js';

// The benchmark servers run the compiled dist/, as `mailsure serve` does: built first when older than src/.
buildIfStale();

const only = process.argv.slice(2);
const files = readdirSync('bench')
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

const results: { file: string; result: BenchResult }[] = [];
for (const file of files) {
  process.stdout.write(`running ${file} …\n`);
  const mod = (await import(pathToFileURL(`bench/${file}`).href)) as { default: () => Promise<BenchResult | BenchResult[]> };
  const produced = await mod.default();
  for (const result of Array.isArray(produced) ? produced : [produced]) {
    results.push({ file, result });
    report(result);
  }
}

function report(result: BenchResult): void {
  process.stdout.write(
    `  ${result.title}\n  ours ${fmt(result.ours.value)} ${result.ours.unit} / baseline ${fmt(result.baseline.value)} ${result.baseline.unit}` +
      ` = ratio ${result.ratio.toFixed(2)} (goal ${result.goal}: ${result.met ? 'met' : 'NOT met'})\n`,
  );
}

if (only.length === 0) writeFileSync('docs/benchmarks.md', render(results));
else {
  // A subset replaces its own rows (or adds them) and leaves every other figure as the last run wrote it.
  writeFileSync('docs/benchmarks.md', merge(readFileSync('docs/benchmarks.md', 'utf8'), results));
  process.stdout.write('(a subset ran: its rows in docs/benchmarks.md were updated, the others left as they were)\n');
}

function row(r: BenchResult): string {
  return `| ${r.title} | ${r.ours.label}: ${fmt(r.ours.value)} ${r.ours.unit} | ${r.baseline.label}: ${fmt(r.baseline.value)} ${r.baseline.unit} | ${r.ratio.toFixed(2)} | ${r.goal} | ${r.met ? 'yes' : 'no'} |`;
}

function note(file: string, r: BenchResult): string {
  return `- \`bench/${file}\` (${r.title}): ${r.notes ?? ''}`;
}

function merge(doc: string, rows: { file: string; result: BenchResult }[]): string {
  const lines = doc.split('\n');
  const day = new Date().toISOString().slice(0, 10);
  for (const { file, result } of rows) {
    const dated = { ...result, title: `${result.title} (subset run ${day})` };
    const put = (prefix: string, line: string, after: (l: string) => boolean) => {
      const at = lines.findIndex((l) => l.startsWith(prefix));
      if (at >= 0) lines[at] = line;
      else {
        let last = -1;
        lines.forEach((l, i) => (after(l) ? (last = i) : undefined));
        lines.splice(last + 1, 0, line);
      }
    };
    put(`| ${result.title} `, row(dated), (l) => l.startsWith('|'));
    put(`- \`bench/${file}\` (${result.title}`, note(file, dated), (l) => l.startsWith('- `bench/'));
  }
  return lines.join('\n');
}

function fmt(n: number): string {
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2);
}

function render(rows: { file: string; result: BenchResult }[]): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    '# Benchmarks',
    '',
    'Written by `npm run bench`; every figure is a ratio against a baseline measured in the same run on the',
    'same machine, so the ratios travel between machines better than the absolute numbers. On the 2-core',
    'development VMs the HTTP ratios move by about ±0.1 between runs; the server is pinned to one core',
    'and the load generator to the other where `taskset` exists. `MAILSURE_BENCH_PEOPLE` sets the size',
    'of the people dataset the enrichment and identity benches share (default 1,000,000);',
    '`MAILSURE_BENCH_LIST_ROWS` the size of the list and `MAILSURE_BENCH_SCALE_ROWS` that of the scale-out list (default 1,000,000 each);',
    '`MAILSURE_BENCH_PROVIDER_ROWS` that of the list over the simulated providers (default 100,000); the',
    'scale-out bench needs PostgreSQL and Redis (`MAILSURE_TEST_DATABASE_URL`, `MAILSURE_TEST_REDIS_URL`, or their local defaults).',
    '',
    `Last run: ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}.`,
    '',
    '| benchmark | ours | baseline | ratio | goal | met |',
    '|---|---|---|---|---|---|',
    ...rows.map(({ result: r }) => row(r)),
    '',
    '## How each is measured',
    '',
    ...rows.map(({ file, result: r }) => note(file, r)),
    '',
  ];
  return lines.join('\n');
}
