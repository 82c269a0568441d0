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
    // Two projects alike but for isolation. A domain's unit tests share one process per worker,
    // file after file: they start no servers or child processes and leave no global state (a file
    // that mocks or fakes clocks restores them), and a fresh process per file cost more than their
    // tests (142 files: 116 s of wall time isolated, 57 s shared, on this machine). The integration
    // tests (test/) and storage's (src/storage/: real SQLite files and PostgreSQL schemas, opened
    // and dropped by each file, with engine-level state such as connection pools) keep a process
    // per file: shared, one storage file's schemas went missing under another's.
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'], exclude: ['src/storage/**'], isolate: false } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts', 'src/storage/**/*.test.ts'] } },
    ],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most test time is waiting on sockets, child processes and servers, not CPU (a serial run on
    // two cores: 19.7 min of wall time for 6.2 min of CPU), so one file per core left most of the
    // machine idle. One more worker than cores: 6 min on the same machine, every test alike.
    maxWorkers: availableParallelism() + 1,
    // The slowest files first (test/durations.json), so that a long one never starts last on a
    // clean clone, which has no cache of durations.
    sequence: { sequencer: SlowestFirst },
  },
});
