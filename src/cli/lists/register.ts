/**
 * `mailsure lists …`: the List API from the command line, against this machine's server or a
 * remote one (connection.ts). Each command loads the client when it runs (main.ts says why).
 */
import type { Command } from 'commander';
import { DEFAULT_URL, type ConnectionFlags } from './connection.js';

const actions = () => import('./commands.js');

export function registerListCommands(program: Command): void {
  const lists = program
    .command('lists')
    .description('submit lists to a Mailsure server, follow them and fetch their results')
    .option('--url <url>', `the server (env MAILSURE_URL; default ${DEFAULT_URL})`)
    .option('--key <key>', 'the API key (env MAILSURE_KEY)')
    .option('--ca <file>', 'PEM certificate to trust: the server’s self-signed data/tls/cert.pem or a private CA (env MAILSURE_CA)')
    .option('--insecure', 'accept any certificate (a lab only)');
  const flags = (command: Command) => command.optsWithGlobals<ConnectionFlags & Record<string, unknown>>();

  lists
    .command('submit <file>')
    .description('upload a .csv, .txt or .zip list and print its id')
    .option('--wait', 'wait until it is finished, showing progress')
    .option('--header', 'the first row is a header (needed for columns other than email)')
    .option('--name <name>', 'file name the list is known by (default the file’s)')
    .option('--email-column <n>', '1-based column of the emails')
    .option('--delimiter <char>', 'column separator (default: , for .csv, tab for .txt)')
    .option('--report', 'only a match report until `purchase`')
    .option('--fields <list>', 'comma-separated enrichment fields')
    .option('--callback-url <url>', 'https URL the server POSTs the list to when it finishes')
    .option('--evidence', 'keep each row’s verification evidence, for `download --evidence` (keys with the evidence permission)')
    .action(async (file: string, _options: unknown, command: Command) => (await actions()).submit(file, flags(command)));
  lists
    .command('status <id>')
    .description('a list’s status and progress per service')
    .option('--json', 'the list resource as JSON')
    .action(async (id: string, _options: unknown, command: Command) => (await actions()).status(id, flags(command)));
  lists
    .command('list')
    .description('this key’s lists, newest first')
    .option('--page <n>', 'page number (default 1)')
    .option('--per-page <n>', 'lists per page, 1 to 100 (default 20)')
    .option('--json', 'the page as JSON')
    .action(async (_options: unknown, command: Command) => (await actions()).list(flags(command)));
  lists
    .command('cancel <id>')
    .description('cancel an unfinished list')
    .action(async (id: string, _options: unknown, command: Command) => (await actions()).cancel(id, flags(command)));
  lists
    .command('purchase <id>')
    .description('buy what a --report list held back')
    .option('--fields <list>', 'comma-separated fields to buy (default all matched)')
    .option('--match-type <I|H>', 'email append matches to buy: I individual, H household')
    .action(async (id: string, _options: unknown, command: Command) => (await actions()).purchase(id, flags(command)));
  lists
    .command('download <id>')
    .description('save the results zip (or, with --unzip, the results file; with --evidence, the evidence zip)')
    .option('--out <path>', 'file or directory to write to (default the current directory)')
    .option('--unzip', 'write the results file itself, unzipped')
    .option('--evidence', 'save the evidence zip of a list submitted with --evidence instead (one JSON line per record)')
    .action(async (id: string, _options: unknown, command: Command) => (await actions()).download(id, flags(command)));
}
