import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { SlowestFirst } from './test/helpers/slowest-first.js';

// Workspace packages (packages/client) are tested from their sources (their package.json's
// `mailsure-source` export), so a test never runs a stale build of them.
// The rest is Vite's default for server code but `module`, which would pick bundler-only builds
// (the AWS SDK's dist-es, whose imports Node cannot resolve).
const conditions = ['mailsure-source', 'node', 'development|production'];

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    // Three projects alike but for isolation. Module imports were most of a small test file's
    // time in a process of its own (a test/http file: 3 s of imports for 0.6 s of tests; the suite
    // spent 368 s importing), so the domain's unit tests (src/) and the integration tests (test/)
    // share a process per worker, file after file: each file starts and stops its own servers,
    // child processes, databases and Redis databases, and a file that mocks, fakes clocks or
    // patches a global restores it. test/http alone: 170 s of wall time isolated, 82 s shared.
    // Storage's tests (src/storage/: real SQLite files and PostgreSQL schemas, opened and dropped
    // by each file, with engine-level state such as connection pools) keep a process per file:
    // shared, one storage file's schemas went missing under another's. So do the long
    // multi-process scenarios of test/integration/ (scale-out, crashes, outages: minutes each, their
    // test world's servers in the worker's event loop), where a process's start is a small part:
    // shared, the object-store scale-out's interrupted list once differed from its rerun.
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'], exclude: ['src/storage/**'], isolate: false } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: ['test/integration/**'], isolate: false } },
      { extends: true, test: { name: 'storage', include: ['src/storage/**/*.test.ts', 'test/integration/**/*.test.ts'] } },
    ],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most test time is waiting on sockets, child processes and servers, not CPU (a serial run on
    // two cores: 19.7 min of wall time for 6.2 min of CPU), so one file per core left most of the
    // machine idle. One more worker than cores: 6 min on the same machine, every test alike. Two
    // more gained 5 % (379 s against 402 s, 2026-11-28) but loaded the machine enough to show a
    // race in a browser test (fixed): one more it stays, the margin kept for loaded CI machines.
    maxWorkers: availableParallelism() + 1,
    // The slowest files first (test/durations.json), so that a long one never starts last on a
    // clean clone, which has no cache of durations.
    sequence: { sequencer: SlowestFirst },
  },
});
