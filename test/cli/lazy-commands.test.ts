/**
 * Every command loads its code when it runs (src/main.ts): `mailsure --help` loads the command
 * line alone, not the verification engine, HTTP, storage, the generator or the wiring that
 * `serve` and `doctor` need. Checked by the modules the process loaded (a loader hook records
 * them, test/helpers/record-modules.mjs), not by timing it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT, ROOT, runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'mailsure-lazy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Our compiled modules a `mailsure` run loaded, relative to dist/. */
function loadedModules(args: string[]): string[] {
  const log = join(dir, `${args.join('-')}.txt`);
  const hook = pathToFileURL(join(ROOT, 'test', 'helpers', 'record-modules.mjs')).href;
  const out = runCli(args, { NODE_OPTIONS: `--import ${hook}`, MAILSURE_TEST_MODULE_LOG: log, MAILSURE_DATA_DIR: dir });
  expect(out.status).toBe(0);
  const dist = pathToFileURL(join(ROOT, 'dist')).href + '/';
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((url) => url.startsWith(dist))
    .map((url) => url.slice(dist.length));
}

/** Modules of the engine and the layers a command loads only when it runs. */
const HEAVY = /^(wiring|http|storage|observability|lists|identity)\/|^generate\/(?!days\.js$)|^verification\/(?!policy\/policy-store\.js$)/;

describe('mailsure command start-up', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('--help loads the command line only: no verification engine, wiring, HTTP, storage or generator', () => {
    const loaded = loadedModules(['--help']);
    // The hook saw the command line itself (so an empty list below means something).
    expect(loaded).toEqual(expect.arrayContaining(['main.js', 'cli/doctor.js', 'cli/keys.js', 'cli/generate.js']));
    expect(loaded.filter((m) => HEAVY.test(m))).toEqual([]);
  });
});
