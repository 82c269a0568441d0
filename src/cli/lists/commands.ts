/**
 * The actions of `mailsure lists …`, over @mailsure/client. Each prints its answer on stdout, or
 * one line `mailsure: <status> <message>` on stderr and exits 1.
 */
import { MailsureClient, type Result } from '@mailsure/client';
import { fail, print } from '../output.js';
import { connectionOf, type ConnectionFlags } from './connection.js';
import { failureLine } from './failure.js';
import { progressView } from './progress.js';
import { describeList, listTable } from './render.js';

export interface SubmitFlags extends ConnectionFlags {
  wait?: boolean;
  header?: boolean;
  name?: string;
  emailColumn?: string;
  delimiter?: string;
  report?: boolean;
  fields?: string;
  callbackUrl?: string;
  evidence?: boolean;
}

function connect(flags: ConnectionFlags): MailsureClient {
  const connection = connectionOf(flags, process.env);
  if ('problem' in connection) fail(connection.problem);
  return new MailsureClient(connection.options);
}

function valueOf<T>(result: Result<T>): T {
  if (!result.ok) fail(failureLine(result.error));
  return result.value;
}

export async function submit(file: string, flags: SubmitFlags): Promise<void> {
  const client = connect(flags);
  const submitted = valueOf(
    await client.lists.submit(file, {
      ...(flags.header ? { header: true } : {}),
      ...(flags.name ? { name: flags.name } : {}),
      ...(flags.emailColumn ? { email_column: flags.emailColumn } : {}),
      ...(flags.delimiter ? { delimiter: flags.delimiter } : {}),
      ...(flags.report ? { report: true } : {}),
      ...(flags.fields ? { fields: flags.fields } : {}),
      ...(flags.callbackUrl ? { callback_url: flags.callbackUrl } : {}),
      ...(flags.evidence ? { evidence: true } : {}),
    }),
  );
  print(`list ${submitted.list_id} submitted (${submitted.size_bytes} bytes): ${submitted.location}`);
  if (!flags.wait) return client.close();
  const view = progressView();
  const done = await client.lists.wait(submitted.list_id, { onProgress: (p) => view.update(p), untilReport: flags.report === true });
  view.stop();
  const list = valueOf(done);
  for (const line of describeList(list)) print(line);
  client.close();
  if (list.status !== 'Results' && !(flags.report && list.status === 'Processed')) process.exitCode = 1;
}

export async function status(id: string, flags: ConnectionFlags & { json?: boolean }): Promise<void> {
  const client = connect(flags);
  const { retryAfter: _retryAfter, ...list } = valueOf(await client.lists.status(id));
  print(flags.json ? JSON.stringify(list) : describeList(list).join('\n'));
  client.close();
}

export async function list(flags: ConnectionFlags & { page?: string; perPage?: string; json?: boolean }): Promise<void> {
  const client = connect(flags);
  const page = valueOf(
    await client.lists.list({
      ...(flags.page ? { page: Number(flags.page) } : {}),
      ...(flags.perPage ? { perPage: Number(flags.perPage) } : {}),
    }),
  );
  if (flags.json) print(JSON.stringify(page));
  else {
    print(listTable(page.lists));
    print(`page ${page.page}: ${page.lists.length} of ${page.total} lists`);
  }
  client.close();
}

export async function cancel(id: string, flags: ConnectionFlags): Promise<void> {
  const client = connect(flags);
  print(describeList(valueOf(await client.lists.cancel(id)))[0]!);
  client.close();
}

export async function purchase(id: string, flags: ConnectionFlags & { fields?: string; matchType?: string }): Promise<void> {
  if (flags.matchType !== undefined && flags.matchType !== 'I' && flags.matchType !== 'H')
    fail('--match-type must be I (individual) or H (household)');
  const client = connect(flags);
  const request = {
    ...(flags.fields
      ? {
          fields: flags.fields
            .split(',')
            .map((f) => f.trim())
            .filter(Boolean),
        }
      : {}),
    ...(flags.matchType ? { options: { email_append: { match_type: flags.matchType as 'I' | 'H' } } } : {}),
  };
  print(describeList(valueOf(await client.lists.purchase(id, request)))[0]!);
  client.close();
}

export async function download(id: string, flags: ConnectionFlags & { out?: string; unzip?: boolean; evidence?: boolean }): Promise<void> {
  if (flags.evidence && flags.unzip) fail('--unzip writes the results file; --evidence saves the evidence zip as it is');
  const client = connect(flags);
  const target = flags.out ?? '.';
  if (flags.evidence) {
    const saved = valueOf(await client.lists.downloadEvidence(id, target));
    print(`evidence saved to ${saved.path} (${saved.bytes} bytes)`);
  } else if (flags.unzip) print(`results unzipped to ${valueOf(await client.lists.downloadAndUnzip(id, target)).path}`);
  else {
    const saved = valueOf(await client.lists.download(id, target));
    print(`results saved to ${saved.path} (${saved.bytes} bytes)`);
  }
  client.close();
}
