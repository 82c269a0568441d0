/** `mailsure import policy --kind K FILE`: load a shared policy list in batches. */
import type { PolicyEntry, PolicyKind } from '../../verification/policy/policy-store.js';
import type { Storage } from '../../wiring/stores.js';
import { policyEntryFrom } from '../../verification/policy/policy-record.js';
import { print } from '../output.js';
import { isValueRow, valueRecord } from './policy-values.js';
import { detectFormat, firstCsvRecord, readCsvRows, readImportFile, type ImportItem } from './record-reader.js';

const BATCH = 10_000;

/** Read as records under a header, or (a one-column file without one) as values, a line each. */
type PolicyLayout = 'records' | 'values';

export async function importPolicy(
  storage: Storage,
  kind: PolicyKind,
  file: string,
): Promise<{ loaded: number; added: number; rejected: number }> {
  const format = await detectFormat(file);
  const first = format === 'csv' ? await firstCsvRecord(file) : undefined;
  const layout: PolicyLayout = first !== undefined && isValueRow(first) ? 'values' : 'records';
  let batch: PolicyEntry[] = [];
  let loaded = 0;
  let added = 0;
  const rejected: string[] = [];
  for await (const item of layout === 'values' ? valueItems(file) : readImportFile(file, format)) {
    const entry = 'problem' in item ? item : policyEntryFrom(kind, item.record);
    if ('problem' in entry) {
      rejected.push(`  line ${item.line}: ${entry.problem}`);
      continue;
    }
    batch.push(entry);
    loaded += 1;
    if (batch.length >= BATCH) {
      added += await storage.policy.add(batch);
      batch = [];
    }
  }
  if (batch.length) added += await storage.policy.add(batch);
  const from = layout === 'values' ? 'a file of values without a header' : format.toUpperCase();
  print(`policy ${kind} from ${from}: ${loaded} loaded (${added} new), ${rejected.length} rejected`);
  for (const line of rejected) print(line);
  return { loaded, added, rejected: rejected.length };
}

/** Why a policy import that loaded nothing failed, for the operator (the CLI exits non-zero). */
export function emptyImportReason(result: { loaded: number; rejected: number }, file: string): string | undefined {
  if (result.loaded > 0) return undefined;
  return result.rejected > 0
    ? `no entries loaded from ${file}: every row was rejected`
    : `no entries loaded from ${file}: it has no rows (a header names email or domain; a file of one column without a header is read as values)`;
}

async function* valueItems(file: string): AsyncGenerator<ImportItem> {
  for await (const row of readCsvRows(file)) {
    if ('problem' in row) {
      yield row;
      continue;
    }
    const read = valueRecord(row.cells);
    yield 'problem' in read ? { line: row.line, problem: read.problem } : { line: row.line, record: read.record };
  }
}
