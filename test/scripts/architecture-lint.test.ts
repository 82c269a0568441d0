// The import rule of eslint.config.js (docs/architecture.md, "Who may import what"): it fails on a
// domain importing storage/, a caller layer or a driver package, on storage/ importing a domain's
// internals, and on http/, cli/ or observability/ reaching into storage/; it lets the allowed
// imports through.
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

/** The no-restricted-imports messages ESLint gives `code` as if it lived at `filePath`. */
async function restricted(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  expect(result!.messages.filter((m) => m.fatal)).toEqual([]);
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the architecture lint rule', () => {
  it('fails when a domain imports storage/', async () => {
    const code = "import type { Storage } from '../storage/interfaces.js';\nexport type S = Storage;\n";
    const messages = await restricted(code, 'src/verification/x.ts');
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain("'../storage/interfaces.js' import is restricted");
    expect(await restricted(code.replace('../', '../../'), 'src/identity/match/x.ts')).toHaveLength(1);
  });

  it('fails when a domain imports a framework or database client', async () => {
    for (const spec of ['fastify', '@fastify/multipart', 'better-sqlite3', 'pg', 'kysely', 'ioredis', 'bullmq', 'redis-semaphore']) {
      const messages = await restricted(`import * as m from '${spec}';\nexport const x = m;\n`, 'src/enrichment/x.ts');
      expect(messages, spec).toHaveLength(1);
      expect(messages[0]).toContain(`'${spec}' import is restricted`);
    }
  });

  it('fails when a domain imports http/, cli/ or wiring/', async () => {
    for (const spec of ['../http/app.js', '../cli/keys.js', '../wiring/container.js']) {
      expect(await restricted(`import * as m from '${spec}';\nexport const x = m;\n`, 'src/accounts/x.ts'), spec).toHaveLength(1);
    }
  });

  it("lets a domain import its own folder, another domain's interface and node built-ins", async () => {
    const code = [
      "import { hash } from 'node:crypto';",
      "import type { KeyStore } from './key-store.js';",
      "import type { PeopleStore } from '../people/people-store.js';",
      'export type T = [KeyStore, PeopleStore, typeof hash];',
      '',
    ].join('\n');
    expect(await restricted(code, 'src/accounts/x.ts')).toEqual([]);
  });

  it("lets a domain's tests use the in-memory engine and contract fixtures, but not a real engine", async () => {
    const allowed =
      "import { openMemoryStorage } from '../storage/open-storage.js';\nimport { newList } from '../storage/contract/fixtures.js';\nexport const x = [openMemoryStorage, newList];\n";
    expect(await restricted(allowed, 'src/lists/x.test.ts')).toEqual([]);
    const engine = "import * as m from '../storage/sqlite/sqlite-storage.js';\nexport const x = m;\n";
    expect(await restricted(engine, 'src/lists/x.test.ts')).toHaveLength(1);
  });

  it("fails when storage/ imports a domain's internals, and allows its interface and type files", async () => {
    const internal = "import { CATALOG } from '../../people/catalog.js';\nexport const x = CATALOG;\n";
    const messages = await restricted(internal, 'src/storage/kysely/x.ts');
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain("'../../people/catalog.js' import is restricted");
    const iface = [
      "import type { PolicyStore } from '../../verification/policy/policy-store.js';",
      "import type { KeyStore } from '../../accounts/key-store.js';",
      "import type { PersonRecord } from '../../people/person.js';",
      'export type T = [PolicyStore, KeyStore, PersonRecord];',
      '',
    ].join('\n');
    expect(await restricted(iface, 'src/storage/kysely/x.ts')).toEqual([]);
    // Pure helpers are internals too: storage writes what the domain prepared, and a migration
    // that computes carries a frozen copy (storage/migrations/frozen/).
    for (const helper of [
      '../../identity/match/blocking.js',
      '../../people/activity-rules.js',
      '../../generate/demo-dataset.js',
      '../../lists/pipeline/list-runner.js',
    ]) {
      const code = `import * as m from '${helper}';\nexport const x = m;\n`;
      expect(await restricted(code, 'src/storage/migrations/x.ts'), helper).toHaveLength(1);
    }
    // A neighbour of an allowed file is still internal.
    expect(
      await restricted(
        "import * as m from '../../verification/policy/policy-record.js';\nexport const x = m;\n",
        'src/storage/kysely/x.ts',
      ),
    ).toHaveLength(1);
  });

  it('fails when http/, cli/, observability/ or the entry reach into storage/', async () => {
    const cases: [string, string][] = [
      ["import { isDatabaseTimeout } from '../storage/postgres/open-postgres.js';\nexport const x = isDatabaseTimeout;\n", 'src/http/x.ts'],
      ["import { openStorage } from '../storage/open-storage.js';\nexport const x = openStorage;\n", 'src/cli/x.ts'],
      ["import type { Storage } from '../../storage/interfaces.js';\nexport type S = Storage;\n", 'src/cli/import/x.ts'],
      ["import * as m from '../storage/redis/redis-fact-cache.js';\nexport const x = m;\n", 'src/observability/x.ts'],
      ["import * as m from './storage/open-storage.js';\nexport const x = m;\n", 'src/main.ts'],
    ];
    for (const [code, filePath] of cases) {
      const messages = await restricted(code, filePath);
      expect(messages, filePath).toHaveLength(1);
      expect(messages[0]).toContain('use storage/ only through wiring/');
    }
  });

  it("lets the callers use storage through wiring/ and the domains' interfaces, and their tests the in-memory engine", async () => {
    const code = [
      "import type { Storage } from '../wiring/stores.js';",
      "import { createContainer } from '../wiring/container.js';",
      "import type { ListStore } from '../lists/list-record.js';",
      'export type T = [Storage, ListStore, typeof createContainer];',
      '',
    ].join('\n');
    expect(await restricted(code, 'src/cli/x.ts')).toEqual([]);
    expect(await restricted(code, 'src/http/x.ts')).toEqual([]);
    expect(
      await restricted(
        "import { openMemoryStorage } from '../../storage/open-storage.js';\nexport const x = openMemoryStorage;\n",
        'src/cli/import/x.test.ts',
      ),
    ).toEqual([]);
    expect(
      await restricted("import * as m from '../../storage/sqlite/sqlite-storage.js';\nexport const x = m;\n", 'src/cli/import/x.test.ts'),
    ).toHaveLength(1);
  });
});
