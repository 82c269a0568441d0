#!/usr/bin/env node
// Writes test/durations.json (the seconds each test file took) from a vitest JSON report, for the
// slowest-first file order (test/helpers/slowest-first.ts). Run after a full run, e.g. .ci/run's:
//
//   node scripts/test-durations.mjs .vitest-report.json
//
// Node built-ins only.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const report = process.argv[2];
if (!report) {
  console.error('usage: node scripts/test-durations.mjs <vitest JSON report>');
  process.exit(2);
}
const { testResults } = JSON.parse(readFileSync(report, 'utf8'));
const seconds = {};
for (const file of testResults) {
  const took = Math.max(0, (file.endTime ?? 0) - (file.startTime ?? 0)) / 1000;
  seconds[relative(root, file.name).split('\\').join('/')] = Math.round(took * 10) / 10;
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(join(root, 'test', 'durations.json'), JSON.stringify(sorted, null, 2) + '\n');
console.log(
  `test/durations.json: ${Object.keys(sorted).length} files, ${Math.round(Object.values(sorted).reduce((a, b) => a + b, 0))} s in all`,
);
