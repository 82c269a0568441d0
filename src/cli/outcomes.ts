/**
 * Outcome ingestion for the operator (docs/outcomes.md): `mailsure keys outcomes-token|outcomes-secrets|outcomes-share`
 * set a key's webhook token, its ESPs' secrets and its sharing; `mailsure outcomes …` removes an
 * entry, approves one for every key, lists and confirms SNS subscriptions, and reports accuracy.
 */
import type { Command } from 'commander';
import type { ApiKeyRecord } from '../accounts/key-config.js';
import { generateOutcomeToken, hashOutcomeToken } from '../outcomes/ingest-token.js';
import type { OutcomeSecrets } from '../outcomes/outcome-event.js';
import type { Storage } from '../wiring/stores.js';
import { fail, print, table } from './output.js';
import { withStorage } from './with-storage.js';

/** SNS confirmations are followed only to Amazon's SNS endpoints, over HTTPS (never a URL a body chose). */
export const SNS_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;

export function registerOutcomeKeyCommands(keys: Command): void {
  keys
    .command('outcomes-token <key>')
    .description("make the key's outcome ingestion token (shown once) for its ESP webhook URL")
    .option('--rotate', 'replace the existing token: the old one stops working at once')
    .action((name: string, flags: { rotate?: boolean }) =>
      withStorage(async (storage) => {
        const record = await mustFind(storage, name);
        const current = await storage.outcomeKeys.settings(record.id);
        if (current?.hasToken && !flags.rotate) fail(`key "${name}" has an outcome token; give --rotate to replace it`);
        const token = generateOutcomeToken();
        await storage.outcomeKeys.setToken(record.id, hashOutcomeToken(token));
        print(`outcome token for "${name}": ${token}`);
        print('Shown only now; only its hash is stored. Webhook URL, one per ESP (docs/outcomes.md):');
        print(`  https://<this server>/v5/outcomes/${token}/<ses|sendgrid|mailgun|postmark|sparkpost|dsn|arf>`);
      }),
    );

  keys
    .command('outcomes-secrets <key>')
    .description("set the ESP secrets the key's webhooks are checked with (others kept; --clear removes all)")
    .option('--mailgun-signing-key <key>', "Mailgun's HTTP webhook signing key")
    .option('--sendgrid-public-key <key>', "SendGrid's signed event webhook verification key (base64)")
    .option('--postmark-basic-auth <user:password>', "the basic-auth credentials in Postmark's webhook URL")
    .option('--clear', 'remove every secret first')
    .action(
      (name: string, flags: { mailgunSigningKey?: string; sendgridPublicKey?: string; postmarkBasicAuth?: string; clear?: boolean }) =>
        withStorage(async (storage) => {
          const record = await mustFind(storage, name);
          const secrets: OutcomeSecrets = flags.clear ? {} : { ...(await storage.outcomeKeys.settings(record.id))?.secrets };
          if (flags.mailgunSigningKey) secrets.mailgunSigningKey = flags.mailgunSigningKey;
          if (flags.sendgridPublicKey) secrets.sendgridPublicKey = flags.sendgridPublicKey;
          if (flags.postmarkBasicAuth) {
            if (!flags.postmarkBasicAuth.includes(':')) fail('--postmark-basic-auth takes user:password');
            secrets.postmarkBasicAuth = flags.postmarkBasicAuth;
          }
          await storage.outcomeKeys.setSecrets(record.id, secrets);
          print(`ESP secrets of "${name}": ${Object.keys(secrets).sort().join(', ') || '(none)'} (stored sealed)`);
        }),
    );

  keys
    .command('outcomes-share <key> <on|off>')
    .description("whether the key's outcome entries may count for other keys (when two sharing keys agree); off by default")
    .action((name: string, state: string) =>
      withStorage(async (storage) => {
        if (state !== 'on' && state !== 'off') fail('give on or off');
        const record = await mustFind(storage, name);
        await storage.outcomeKeys.setShare(record.id, state === 'on');
        print(`outcomes of "${name}": ${state === 'on' ? 'shared (count for other keys when corroborated)' : 'this key only'}`);
      }),
    );
}

export function registerOutcomeCommands(program: Command): void {
  const outcomes = program.command('outcomes').description('outcome ingestion: lists learnt from ESPs, SNS subscriptions, accuracy');

  outcomes
    .command('remove <key> <email>')
    .description("remove an address from the key's outcome bouncers and complainers (imported lists are untouched)")
    .action((name: string, email: string) =>
      withStorage(async (storage) => {
        const record = await mustFind(storage, name);
        const value = await listValue(email);
        const removed = await storage.outcomes.remove(record.id, value);
        print(
          removed
            ? `removed ${removed} outcome entr${removed === 1 ? 'y' : 'ies'} of "${name}"`
            : `no outcome entry of "${name}" for that address`,
        );
      }),
    );

  outcomes
    .command('approve <email>')
    .description('put an address on the shared policy list for every key (an operator-approved outcome; delivery events never remove it)')
    .requiredOption('--kind <kind>', 'bouncer or complainer')
    .action((email: string, flags: { kind: string }) =>
      withStorage(async (storage) => {
        if (flags.kind !== 'bouncer' && flags.kind !== 'complainer') fail('--kind must be bouncer or complainer');
        const added = await storage.policy.add([{ kind: flags.kind, value: await listValue(email) }]);
        print(added ? `added to the shared ${flags.kind} list` : `already on the shared ${flags.kind} list`);
      }),
    );

  outcomes
    .command('subscriptions')
    .description('SNS subscription confirmations received and waiting for the operator')
    .action(() =>
      withStorage(async (storage) => {
        const pending = await storage.outcomeKeys.pendingSnsSubscriptions();
        if (pending.length === 0) return print('no SNS subscription waits for confirmation');
        const names = new Map((await storage.keys.list()).map((k) => [k.id, k.name]));
        print(table([['KEY', 'SUBSCRIBE URL'], ...pending.map((p) => [names.get(p.keyId) ?? String(p.keyId), p.subscribeUrl])]));
      }),
    );

  outcomes
    .command('confirm <key>')
    .description("confirm the key's waiting SNS subscription (only to an Amazon SNS host, over HTTPS)")
    .action((name: string) =>
      withStorage(async (storage) => {
        const record = await mustFind(storage, name);
        const url = (await storage.outcomeKeys.settings(record.id))?.snsSubscribeUrl;
        if (!url) fail(`no SNS subscription of "${name}" waits for confirmation`);
        const parsed = new URL(url);
        if (parsed.protocol !== 'https:' || !SNS_HOST.test(parsed.hostname)) fail(`not an Amazon SNS URL, not followed: ${parsed.origin}`);
        const response = await fetch(parsed, { redirect: 'error', signal: AbortSignal.timeout(15_000) });
        if (!response.ok) fail(`SNS answered ${response.status}; the subscription still waits`);
        await storage.outcomeKeys.setSnsSubscription(record.id, null);
        print(`SNS subscription of "${name}" confirmed`);
      }),
    );

  outcomes
    .command('report')
    .description('what happened to addresses after our verdicts: outcomes per verdict class, over a rolling window')
    .option('--key <key>', 'one key (default: every key)')
    .option('--days <n>', 'the window in days', '30')
    .action((flags: { key?: string; days: string }) =>
      withStorage(async (storage) => {
        // The verification engine's code loads when a command runs, not with the command line (main.ts).
        const { accuracyReport, OUTCOME_KINDS, VERDICT_CLASSES, windowStart } = await import('../outcomes/accuracy.js');
        const days = Number(flags.days);
        if (!Number.isInteger(days) || days < 1) fail('--days must be a whole number of days, at least 1');
        const keyId = flags.key ? (await mustFind(storage, flags.key)).id : undefined;
        const since = windowStart(Date.now(), days);
        const report = accuracyReport(await storage.outcomes.accuracy(keyId, since), since);
        print(`outcomes after our verdicts since ${since}${flags.key ? ` for "${flags.key}"` : ''}: ${report.total}`);
        const header = ['VERDICT', ...OUTCOME_KINDS.map((k) => k.toUpperCase())];
        print(table([header, ...VERDICT_CLASSES.map((c) => [c, ...OUTCOME_KINDS.map((k) => String(report.classes[c][k]))])]));
        if (keyId !== undefined) {
          const entries = await storage.outcomes.countEntries(keyId, new Date().toISOString());
          print(`outcome lists of "${flags.key}": ${entries.bouncer} bouncers (520), ${entries.complainer} complainers (525)`);
        }
        print('Senders rarely mail what we called invalid: this measures our valid and unknown verdicts best.');
      }),
    );
}

async function listValue(email: string): Promise<string> {
  const { addressListValue } = await import('../verification/list-value.js');
  const listed = addressListValue(email.trim());
  return 'value' in listed ? listed.value : fail(listed.problem);
}

async function mustFind(storage: Storage, name: string): Promise<ApiKeyRecord> {
  return (await storage.keys.findByName(name)) ?? fail(`no key named "${name}"`);
}
