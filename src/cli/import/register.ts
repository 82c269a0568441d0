/** `mailsure import …`: load shared data: people, email activity and policy lists. */
import type { Command } from 'commander';
import { POLICY_KINDS } from '../../verification/policy/policy-store.js';
import { fail } from '../output.js';
import { requireFile, withStorage } from '../with-storage.js';
import { isPolicyKind } from './policy-kind.js';

// Each command loads its importer when it runs (main.ts says why).

export function registerImportCommands(program: Command): void {
  const imports = program.command('import').description('load data files (NDJSON or CSV with a header)');
  imports
    .command('people <file>')
    .description('load people: emails, name, postal address, enrichment fields and interests; re-importing updates')
    .action((file: string) => {
      requireFile(file);
      return withStorage(async (storage) => {
        // Committed batches stay loaded; the exit status still tells scripts the file did not finish.
        const { importPeople } = await import('./import-people.js');
        if ((await importPeople(storage, file)).status === 'failed') process.exitCode = 1;
      });
    });
  imports
    .command('activity <file>')
    .description('load email activity events: email, source, seen_at, event (seen | open)')
    .action((file: string) => {
      requireFile(file);
      return withStorage(async (storage) => {
        const { importActivity } = await import('./import-activity.js');
        if ((await importActivity(storage, file)).status === 'failed') process.exitCode = 1;
      });
    });
  imports
    .command('policy <file>')
    .description('load a policy list: one `email` or `domain` per record')
    .requiredOption('--kind <kind>', POLICY_KINDS.join(' | '))
    .action((file: string, flags: { kind: string }) => {
      if (!isPolicyKind(flags.kind)) fail(`--kind must be one of ${POLICY_KINDS.join(', ')}`);
      requireFile(file);
      return withStorage(async (storage) => {
        const { emptyImportReason, importPolicy } = await import('./import-policy.js');
        const empty = emptyImportReason(await importPolicy(storage, flags.kind as never, file), file);
        // A file that loads nothing is a mistake (a wrong file, a header-less file misread): say so, exit non-zero.
        if (empty) {
          process.stderr.write(`mailsure: ${empty}\n`);
          process.exitCode = 1;
        }
      });
    });
}
