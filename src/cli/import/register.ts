/** `mailsure import …`: load shared data (policy lists now; people and activity with enrichment). */
import type { Command } from 'commander';
import { POLICY_KINDS } from '../../storage/interfaces.js';
import { fail } from '../output.js';
import { withStorage } from '../with-storage.js';
import { importPolicy, isPolicyKind } from './import-policy.js';

export function registerImportCommands(program: Command): void {
  const imports = program.command('import').description('load data files (NDJSON or CSV with a header)');
  imports
    .command('policy <file>')
    .description('load a policy list: one `email` or `domain` per record')
    .requiredOption('--kind <kind>', POLICY_KINDS.join(' | '))
    .action((file: string, flags: { kind: string }) => {
      if (!isPolicyKind(flags.kind)) fail(`--kind must be one of ${POLICY_KINDS.join(', ')}`);
      return withStorage(async (storage) => void (await importPolicy(storage, flags.kind as never, file)));
    });
}
