#!/usr/bin/env node
// Writes test/durations.json (the seconds each test file took) for the slowest-first file order
// (test/helpers/slowest-first.ts), after a full run, from vitest's cache of results (whose
// durations count a file's hooks: a file that loads 100,000 people in beforeAll takes minutes) or
// else from a vitest JSON report (which counts only the tests themselves), e.g. .ci/run's:
//
//   node scripts/test-durations.mjs node_modules/.vite/vitest/<hash>/results.json
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
const parsed = JSON.parse(readFileSync(report, 'utf8'));
const seconds = {};
if (Array.isArray(parsed.results)) {
  // The cache: [`<project>:<path from the root>`, { duration (ms) }] pairs.
  for (const [id, { duration }] of parsed.results) seconds[id.slice(id.indexOf(':') + 1)] = Math.round((duration ?? 0) / 100) / 10;
} else {
  for (const file of parsed.testResults) {
    const took = Math.max(0, (file.endTime ?? 0) - (file.startTime ?? 0)) / 1000;
    seconds[relative(root, file.name).split('\\').join('/')] = Math.round(took * 10) / 10;
  }
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(join(root, 'test', 'durations.json'), JSON.stringify(sorted, null, 2) + '\n');
console.log(
  `test/durations.json: ${Object.keys(sorted).length} files, ${Math.round(Object.values(sorted).reduce((a, b) => a + b, 0))} s in all`,
);
