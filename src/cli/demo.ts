/** `mailsure demo …`: the demo a first start makes (demo-key.ts, decisions §2 MAILSURE_DEMO). */
import type { Command } from 'commander';
import { withStorage } from './with-storage.js';

// The action loads its code when it runs (main.ts says why).

export function registerDemoCommands(program: Command): void {
  const demo = program.command('demo').description('the demo key and synthetic people a first start makes');
  demo
    .command('remove')
    .description('delete the demo key (its usage and lists too) and the synthetic demo people and their activity; nothing else')
    .action(() =>
      withStorage(async (storage) => {
        const { removeDemo } = await import('./demo-remove.js');
        await removeDemo(storage);
      }),
    );
}
