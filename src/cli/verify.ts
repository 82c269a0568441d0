/**
 * `mailsure verify ADDRESS [--explain]`: one address through a Mailsure server's /v5/ev, as
 * `mailsure lists` talks to it (--url/--key/--ca or MAILSURE_URL/MAILSURE_KEY/MAILSURE_CA). Its
 * code loads when it runs (main.ts says why).
 */
import type { Command } from 'commander';
import { DEFAULT_URL, type ConnectionFlags } from './lists/connection.js';

export interface VerifyFlags extends ConnectionFlags {
  explain?: boolean;
  timeout?: string;
  json?: boolean;
}

export function registerVerifyCommand(program: Command): void {
  program
    .command('verify <address>')
    .description('verify one address with a Mailsure server (GET /v5/ev); --explain shows why')
    .option(
      '--explain',
      'show the evidence: the rule that decided, the stages, DNS and each SMTP command and reply (keys with the evidence permission)',
    )
    .option('--timeout <seconds>', 'the verdict’s time budget (default 10, at most 30)')
    .option('--json', 'the answer as the API gives it')
    .option('--url <url>', `the server (env MAILSURE_URL; default ${DEFAULT_URL})`)
    .option('--key <key>', 'the API key (env MAILSURE_KEY)')
    .option('--ca <file>', 'PEM certificate to trust (env MAILSURE_CA)')
    .option('--insecure', 'accept any certificate (a lab only)')
    .action(async (address: string, flags: VerifyFlags) => (await import('./verify-run.js')).verify(address, flags));
}
