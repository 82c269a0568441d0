/** `mailsure import policy --kind K FILE`: load a shared policy list in batches. */
import type { PolicyEntry, PolicyKind, Storage } from '../../storage/interfaces.js';
import { policyEntryFrom } from '../../verification/policy/policy-record.js';
import { print } from '../output.js';
import { detectFormat, readImportFile } from './record-reader.js';

const BATCH = 10_000;

export async function importPolicy(storage: Storage, kind: PolicyKind, file: string): Promise<{ loaded: number; added: number; rejected: number }> {
  const format = await detectFormat(file);
  let batch: PolicyEntry[] = [];
  let loaded = 0;
  let added = 0;
  const rejected: string[] = [];
  for await (const item of readImportFile(file, format)) {
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
  print(`policy ${kind} from ${format.toUpperCase()}: ${loaded} loaded (${added} new), ${rejected.length} rejected`);
  for (const line of rejected) print(line);
  return { loaded, added, rejected: rejected.length };
}
