/** The `mailsure` command line: serve, worker, migrate, keys, import, generate. */
import { Command } from 'commander';
import { ConfigError, loadConfig } from './core/config.js';
import { registerDoctorCommand } from './cli/doctor.js';
import { registerGenerateCommands } from './cli/generate.js';
import { registerImportCommands } from './cli/import/register.js';
import { registerKeyCommands } from './cli/keys.js';
import { fail, print } from './cli/output.js';
import { serve } from './cli/serve.js';
import { worker } from './cli/worker.js';
import { openStorage } from './storage/open-storage.js';

export async function main(argv: string[]): Promise<void> {
  const program = new Command('mailsure')
    .description('Email verification, identity append, enrichment and list processing API')
    .showHelpAfterError();

  program
    .command('serve')
    .description('run the HTTPS API (and, unless --no-worker, the list workers)')
    .option('--no-worker', 'run the API alone; `mailsure worker` processes run the lists')
    .action((options: { worker: boolean }) => serve(options));
  program
    .command('worker')
    .description('run list workers without the HTTP server')
    .action(() => worker());
  program
    .command('migrate')
    .description('create or upgrade the database schema (also done at every start)')
    .action(async () => {
      const config = loadConfig(process.env);
      const storage = await openStorage({ databaseUrl: config.databaseUrl ?? undefined, dataDir: config.dataDir });
      await storage.close();
      print(`database is up to date (${storage.engine})`);
    });
  registerDoctorCommand(program);
  registerKeyCommands(program);
  registerImportCommands(program);
  registerGenerateCommands(program);

  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, 78);
    throw error;
  }
}
