import { defineConfig } from 'vitest/config';

// Workspace packages (packages/client) are tested from their sources (their package.json's
// `mailsure-source` export), so a test never runs a stale build of them.
// The rest is Vite's default for server code (its `defaultServerConditions`).
const conditions = ['mailsure-source', 'module', 'node', 'development|production'];

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
