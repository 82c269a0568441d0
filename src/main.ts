/**
 * The `mailsure` command line: serve, worker, migrate, doctor, keys, import, generate, demo, lists, verify.
 *
 * Every command loads its code when it runs (`await import` in the action): `mailsure --help` or
 * `mailsure keys list` should not pay for Fastify, the verification engine and the database
 * drivers that `serve` needs (docs/benchmarks.md, "CLI start-up").
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { ConfigError, loadConfig } from './core/config.js';
import { registerDemoCommands } from './cli/demo.js';
import { registerDoctorCommand } from './cli/doctor.js';
import { registerGenerateCommands } from './cli/generate.js';
import { registerImportCommands } from './cli/import/register.js';
import { registerKeyCommands } from './cli/keys.js';
import { registerListCommands } from './cli/lists/register.js';
import { registerOutcomeCommands } from './cli/outcomes.js';
import { registerVerifyCommand } from './cli/verify.js';
import { fail, print } from './cli/output.js';
import { startupFailure } from './cli/startup-failure.js';
import type { BlockingRefresh } from './identity/match/refresh-blocking.js';

/** package.json's version; src/ and dist/ are both one level below it. */
function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export async function main(argv: string[]): Promise<void> {
  const program = new Command('mailsure')
    .description('Email verification, identity append, enrichment and list processing API')
    .version(version(), '-V, --version', 'print the version')
    .showHelpAfterError();

  program
    .command('serve')
    .description('run the HTTPS API (and, unless --no-worker, the list workers)')
    .option('--no-worker', 'run the API alone; `mailsure worker` processes run the lists')
    .action(async (options: { worker: boolean }) => (await import('./cli/serve.js')).serve(options));
  program
    .command('worker')
    .description('run list workers without the HTTP server')
    .action(async () => (await import('./cli/worker.js')).worker());
  program
    .command('migrate')
    .description('create or upgrade the database schema (also done at every start)')
    .action(async () => {
      const config = loadConfig(process.env);
      const { openStores, blockingRefreshLine } = await import('./wiring/stores.js');
      let applied: readonly string[] = [];
      let refreshed: BlockingRefresh | undefined;
      const storage = await openStores({ config, onMigrated: (names) => (applied = names), onBlockingRefreshed: (r) => (refreshed = r) });
      await storage.close();
      // What changed, by name: an operator upgrading wants to see that the new migrations ran.
      if (applied.length === 0) print(`database is up to date (${storage.engine})`);
      else print(`applied ${applied.length} migration${applied.length === 1 ? '' : 's'} (${storage.engine}): ${applied.join(', ')}`);
      if (refreshed) print(blockingRefreshLine(refreshed));
    });
  registerDoctorCommand(program);
  registerKeyCommands(program);
  registerImportCommands(program);
  registerGenerateCommands(program);
  registerDemoCommands(program);
  registerListCommands(program);
  registerOutcomeCommands(program);
  registerVerifyCommand(program);

  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, 78);
    const failure = startupFailure(error);
    if (failure) fail(failure, 1);
    throw error;
  }
}
