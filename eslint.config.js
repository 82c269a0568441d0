import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Architecture (docs/architecture.md, "Who may import what"). The domain folders sit on top and
 * never import the driver layer below them: not storage/, http/, cli/ or the composition root,
 * and no framework, database or Redis client. `generate/` is no business domain but a pure
 * library that cli/ calls, so it is held to the same rule.
 */
const DOMAINS = ['verification', 'identity', 'people', 'enrichment', 'lists', 'accounts', 'outcomes', 'generate'];
const DRIVER_PACKAGES = {
  group: [
    'fastify',
    'fastify/*',
    '@fastify/*',
    'better-sqlite3',
    'pg',
    'pg/*',
    'kysely',
    'kysely/*',
    'ioredis',
    'bullmq',
    'redis-semaphore',
  ],
  message:
    'Domain code stays free of frameworks and database/Redis clients: declare the interface you need in this folder and let storage/ (or http/, cli/) implement it.',
};
const CALLER_LAYERS = {
  group: ['**/http', '**/http/**', '**/cli', '**/cli/**', '**/wiring', '**/wiring/**'],
  message: 'http/, cli/ and wiring/ (the composition root) call the domains, never the other way round.',
};
const STORAGE = {
  group: ['**/storage', '**/storage/**'],
  message:
    'Domains do not import storage/: the store interface belongs in the domain folder (e.g. accounts/key-store.ts) and storage/ implements it.',
};

/**
 * The callers (http/, cli/, the entry main.ts) and observability/ never reach into storage/: what
 * they need of it comes through wiring/ (the composition root opens the stores and hands them
 * over, and wiring/stores.ts re-exports the `Storage` type), or through the interfaces the
 * domains declare.
 */
const CALLERS = ['src/http/**/*.ts', 'src/cli/**/*.ts', 'src/observability/**/*.ts', 'src/main.ts'];
const CALLER_STORAGE = {
  group: ['**/storage', '**/storage/**'],
  message: 'http/, cli/ and observability/ use storage/ only through wiring/ (the composition root) or the interfaces the domains declare.',
};
/** What a domain's or a caller's tests may use of storage/: the in-memory engine, the contract fixtures, the Storage type. */
const TEST_STORAGE = [
  '**/storage/**/*.js',
  '!**/storage/open-storage.js',
  '!**/storage/memory/*.js',
  '!**/storage/contract/*.js',
  '!**/storage/interfaces.js',
];

/**
 * What storage/ may import from a domain, listed by name: the interface files it implements and
 * the domain types those interfaces carry. Anything else in a domain folder is its internals:
 * storage persists what the domain prepared and computes nothing (a people batch, an activity
 * batch), and a migration that computes carries a frozen copy of that code
 * (storage/migrations/frozen/), so a later change to the domain cannot change what it writes.
 */
const STORAGE_MAY_IMPORT = [
  // Store interfaces (each with the types only it carries).
  '**/accounts/key-store.js',
  '**/accounts/usage-store.js',
  '**/verification/client-list-store.js',
  '**/verification/policy/policy-store.js',
  '**/people/people-store.js',
  '**/people/activity-store.js', // ActivityStore (+ the batch and windows it takes, checked by people/activity-rules.ts)
  '**/identity/match/candidate-store.js',
  '**/identity/match/blocking-columns-store.js', // BlockingColumnsStore (+ the rows it reads)
  '**/lists/list-record.js', // ListStore and the list rows it keeps
  '**/verification/fact-cache.js', // FactCache (+ the in-process cache Redis falls back to)
  '**/verification/verdict-store.js', // VerdictStore, the verdict memory's (a FactCache of codes by HMAC id)
  '**/verification/smtp/host-limiter.js', // HostLimiter (+ the in-process limiter Redis falls back to)
  '**/verification/smtp/connection-budget.js', // ConnectionBudget (per provider and egress), which rate-limiter-flexible stores hold
  '**/lists/pipeline/list-queue.js', // ListQueue, which BullMQ implements, and the ListRunner its worker runs
  '**/lists/list-files.js', // ListFiles, which the object store implements (+ the download's Content-Disposition, where a list's files lie)
  '**/outcomes/outcome-key-store.js', // OutcomeKeyStore: ingestion tokens, ESP secrets, sharing
  '**/outcomes/outcome-store.js', // OutcomeStore: outcome lists, seen event ids, counts
  '**/outcomes/verdict-record-store.js', // VerdictRecordStore: recent verdicts by HMAC id, for accuracy
  // Domain types the interfaces carry.
  '**/accounts/key-config.js', // ApiKeyRecord, KeySettings
  '**/people/person.js', // NewPerson, PersonRecord, ActivityEvent…
  '**/identity/match/candidate-block.js', // CandidateBlock (CandidateStore's argument)
  '**/outcomes/outcome-event.js', // OutcomeSecrets, OutcomeKind, OutcomeSource (the outcome stores' types)
];
// Groups are gitignore patterns: they name files (`*.js`, as every relative ESM import ends), never
// a folder, since a file under an excluded folder cannot be re-included by a `!` exception.
const DOMAIN_INTERNALS = {
  group: [...DOMAINS.map((d) => `**/${d}/**/*.js`), ...STORAGE_MAY_IMPORT.map((p) => `!${p}`)],
  message:
    "storage/ imports only a domain's interface and type files (STORAGE_MAY_IMPORT in eslint.config.js); move what it needs next to the interface.",
};

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'coverage/', 'dist/', 'dist.next/', 'packages/*/dist/', 'packages/*/dist.next/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        crypto: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // On Node 20 the first AsyncLocalStorage.run turns on promise hooks for the whole process:
    // every promise of every call then pays for them (/v5/ev lost a quarter of its throughput to
    // one that carried a probe's key). Pass what a callee needs as an argument.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportDeclaration[source.value=/^(node:)?async_hooks$/]',
          message: 'No async_hooks in the server (AsyncLocalStorage turns on promise hooks for every call): pass the value as an argument.',
        },
      ],
    },
  },
  {
    files: DOMAINS.map((d) => `src/${d}/**/*.ts`),
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [STORAGE, CALLER_LAYERS, DRIVER_PACKAGES] }] },
  },
  {
    // A domain's unit tests need a store: they may use the in-memory engine and the contract
    // fixtures that live in storage/ beside the real engines (and the Storage type of the test
    // world), none of which ships in the domain's own dependency graph. Nothing else from storage/,
    // and still no callers or driver packages.
    files: DOMAINS.map((d) => `src/${d}/**/*.test.ts`),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ ...STORAGE, group: TEST_STORAGE }, CALLER_LAYERS, DRIVER_PACKAGES],
        },
      ],
    },
  },
  {
    files: CALLERS,
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CALLER_STORAGE] }] },
  },
  {
    // The callers' unit tests (an importer's over the in-memory engine) may use what a domain's may.
    files: CALLERS.map((glob) => glob.replace(/\.ts$/, '.test.ts')),
    rules: { 'no-restricted-imports': ['error', { patterns: [{ ...CALLER_STORAGE, group: TEST_STORAGE }] }] },
  },
  {
    // Tests and contract suites may build expected values with any domain helper; the rule
    // guards what the engines themselves depend on.
    files: ['src/storage/**/*.ts'],
    ignores: ['**/*.test.ts', 'src/storage/contract/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [DOMAIN_INTERNALS] }] },
  },
);
