/** `mailsure keys …`: create, list, show, update, revoke keys; load suppressions and exceptions. */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { createKey, parseKeyOptions, type KeyOptions } from '../accounts/key-admin.js';
import type { ApiKeyRecord } from '../accounts/key-config.js';
import type { ClientListEntry, ClientListKind } from '../verification/client-list-store.js';
import type { Storage } from '../wiring/stores.js';
import { withStorage } from './with-storage.js';
import { fail, print, table } from './output.js';
import { registerOutcomeKeyCommands } from './outcomes.js';

type SettingFlags = KeyOptions & { name?: string };

function settingOptions(command: Command): Command {
  return command
    .option('--services <list>', 'comma-separated: verification, corrections, enrichment, eam, email_append, postal_append, lists, or all')
    .option('--variant <variant>', 'safe_to_send or email_validation')
    .option('--fields <list>', 'enrichment fields the key may receive, or all')
    .option('--quota <n>', 'calls the key may make in all, or none')
    .option('--rate <n>', 'calls per second on real-time and bulk endpoints (a bulk call is one call)')
    .option(
      '--record-rate <n>',
      'records per second on real-time and bulk endpoints (a bulk call counts its records), or none: off by default',
    )
    .option('--bouncers', 'report addresses on the shared bouncer list as invalid, code 520 (the default)')
    .option('--no-bouncers', 'opt out: ignore the shared bouncer list for this key')
    .option('--evidence', 'may ask for the evidence behind a verdict (/v5/ev explain=true, lists with evidence): off by default')
    .option('--no-evidence', 'withdraw the evidence permission');
}

export function registerKeyCommands(program: Command): void {
  const keys = program.command('keys').description('manage API keys');

  settingOptions(keys.command('create').description('create a key and print it (once)'))
    .requiredOption('--name <name>', 'unique name of the key')
    .option('--trial', 'trial key: verification and enrichment, 1,000 calls unless --quota')
    .action((flags: SettingFlags) =>
      withStorage(async (storage) => {
        const created = await createKey(storage.keys, flags.name!, flags);
        print(`created key "${created.record.name}"`);
        print(`api key:        ${created.key}`);
        print(`webhook secret: ${created.webhookSecret}`);
        print('Both are shown only now; store them safely.');
        print(describe(created.record));
      }),
    );

  keys
    .command('list')
    .description('list keys')
    .action(() =>
      withStorage(async (storage) => {
        const all = await storage.keys.list();
        if (all.length === 0) return print('no keys');
        const rows = all.map((k) => [
          k.name,
          `${k.keyPrefix}…`,
          k.revokedAt ? 'revoked' : 'active',
          k.variant,
          k.services.join(','),
          quotaText(k),
          String(k.rate),
        ]);
        print(table([['NAME', 'KEY', 'STATE', 'VARIANT', 'SERVICES', 'USED/QUOTA', 'RATE/S'], ...rows]));
      }),
    );

  keys
    .command('show <key>')
    .description('show one key, its settings and usage')
    .action((name: string) =>
      withStorage(async (storage) => {
        const record = await mustFind(storage, name);
        print(describe(record));
        const usage = await storage.usage.totals(record.id);
        print('usage:');
        for (const [unit, count] of Object.entries(usage)) print(`  ${unit.padEnd(17)} ${count}`);
        print(`suppressions:      ${await storage.clientLists.count(record.id, 'suppression')}`);
        print(`exceptions:        ${await storage.clientLists.count(record.id, 'exception')}`);
      }),
    );

  settingOptions(keys.command('update <key>').description("change a key's settings"))
    .option('--trial', 'mark as a trial key')
    .option('--no-trial', 'mark as a full key')
    .action((name: string, flags: SettingFlags) =>
      withStorage(async (storage) => {
        const changes = parseKeyOptions(flags);
        if (Object.keys(changes).length === 0) fail('nothing to update: give at least one setting');
        const updated = await storage.keys.update(name, changes);
        if (!updated) fail(`no key named "${name}"`);
        print(describe(updated));
      }),
    );

  keys
    .command('revoke <key>')
    .description('revoke a key; its usage history stays')
    .action((name: string) =>
      withStorage(async (storage) => {
        const revoked = await storage.keys.revoke(name, new Date().toISOString());
        if (!revoked) fail(`no key named "${name}"`);
        print(`revoked key "${name}"`);
      }),
    );

  registerOutcomeKeyCommands(keys);

  for (const [command, kind, what] of [
    ['suppress', 'suppression', 'addresses or domains to report as invalid (code 255)'],
    ['allow', 'exception', 'addresses or domains to report as valid (code 55)'],
  ] as const) {
    keys
      .command(`${command} <key> <file>`)
      .description(`load ${what}; one a line`)
      .action((name: string, file: string) =>
        withStorage(async (storage) => {
          const record = await mustFind(storage, name);
          await loadClientList(storage, record, kind, file);
        }),
      );
  }
}

async function loadClientList(storage: Storage, key: ApiKeyRecord, kind: ClientListKind, file: string): Promise<void> {
  // Address syntax (the verification engine's) loads when a list is read, not with the command line (main.ts says why).
  const { parseClientListLine } = await import('../accounts/client-list-file.js');
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let batch: ClientListEntry[] = [];
  let lineNo = 0;
  let accepted = 0;
  let added = 0;
  const rejected: string[] = [];
  for await (const text of lines) {
    lineNo += 1;
    const parsed = parseClientListLine(kind, text);
    if (parsed === null) continue;
    if ('reason' in parsed) {
      rejected.push(`  line ${lineNo}: ${parsed.reason}`);
      continue;
    }
    batch.push(parsed);
    accepted += 1;
    if (batch.length >= 5_000) {
      added += await storage.clientLists.add(key.id, batch);
      batch = [];
    }
  }
  if (batch.length) added += await storage.clientLists.add(key.id, batch);
  print(`${kind}s for "${key.name}": ${accepted} loaded (${added} new), ${rejected.length} rejected`);
  for (const line of rejected) print(line);
}

async function mustFind(storage: Storage, name: string): Promise<ApiKeyRecord> {
  const record = await storage.keys.findByName(name);
  return record ?? fail(`no key named "${name}"`);
}

function describe(k: ApiKeyRecord): string {
  return [
    `name:      ${k.name}`,
    `key:       ${k.keyPrefix}… (only the hash is stored)`,
    `state:     ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}`,
    `services:  ${k.services.join(', ') || '(none)'}`,
    `variant:   ${k.variant}`,
    `fields:    ${k.fields === null ? 'all' : k.fields.join(', ') || '(none)'}`,
    `quota:     ${quotaText(k)}`,
    `rate:      ${k.rate} calls/s${k.recordRate === null ? '' : `, ${k.recordRate} records/s`}`,
    `trial:     ${k.trial ? 'yes' : 'no'}`,
    `bouncers:  ${k.bouncers ? 'reported (520)' : 'not reported (opted out)'}`,
    `evidence:  ${k.evidence ? 'may be asked for (explain=true)' : 'not granted'}`,
    `created:   ${k.createdAt}`,
  ].join('\n');
}

function quotaText(k: ApiKeyRecord): string {
  return k.quota === null ? `${k.callsUsed}/unlimited` : `${k.callsUsed}/${k.quota}`;
}
