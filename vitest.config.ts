import { defineConfig } from 'vitest/config';

// Workspace packages (packages/client) are tested from their sources (their package.json's
// `mailsure-source` export), so a test never runs a stale build of them.
// The rest is Vite's default for server code but `module`, which would pick bundler-only builds
// (the AWS SDK's dist-es, whose imports Node cannot resolve).
const conditions = ['mailsure-source', 'node', 'development|production'];

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
