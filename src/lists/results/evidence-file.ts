/**
 * The evidence file of a list submitted with `evidence=true` (issue 28): a ZIP holding
 * `<name>-<list_id>-Evidence.jsonl`, one JSON line per input record in input order,
 *
 *   {"row":1,"email":"ann@example.com","evidence":{"rule":"mailbox.unknown-user",…}}
 *
 * `row` counts the records from 1 as the results file lists them (header and blank rows not
 * counted); `evidence` is what `/v5/ev?explain=true` answers beside the verdict, or null for a
 * record the list did not verify. Written like the results file (zipped-text.ts), so that the
 * results file itself keeps exactly the contract's columns.
 */
import type { EvidenceBody } from '../../verification/render-evidence.js';
import { openZippedText } from './zipped-text.js';

/** One record's entry, without its row number (its place in the list gives that). */
export interface RecordEvidence {
  /** The address as verified: the email cell, trimmed ('' when the list has no email column). */
  email: string;
  /** The verdict's evidence; null for a record the list did not verify (no `email_validation`). */
  evidence: EvidenceBody | null;
}

/** The file inside the evidence zip: `<name without extension>-<list_id>-Evidence.jsonl`. */
export function evidenceFileName(listName: string, listId: number): string {
  return `${listName.replace(/\.[^.]*$/, '')}-${listId}-Evidence.jsonl`;
}

/** The download's name: `<name without extension>-<list_id>-Evidence.zip`. */
export function evidenceZipName(listName: string, listId: number): string {
  return `${listName.replace(/\.[^.]*$/, '')}-${listId}-Evidence.zip`;
}

/** A run of consecutive records: the row number of the first, and their entries in order. */
export interface EvidenceRun {
  firstRow: number;
  entries: readonly RecordEvidence[];
}

const BATCH_CHARS = 256 * 1024;

/** Runs must come in row order. Throws on I/O failure, leaving no file behind. */
export async function writeEvidenceFile(
  options: { zipPath: string; innerName: string },
  runs: AsyncIterable<EvidenceRun> | Iterable<EvidenceRun>,
): Promise<{ zipPath: string; sizeBytes: number; rows: number }> {
  const file = openZippedText(options.zipPath, options.innerName);
  let batch = '';
  let rows = 0;
  try {
    for await (const run of runs) {
      for (const [i, entry] of run.entries.entries()) {
        batch += `${JSON.stringify({ row: run.firstRow + i, email: entry.email, evidence: entry.evidence })}\n`;
        rows++;
        if (batch.length >= BATCH_CHARS) {
          await file.write(batch);
          batch = '';
        }
      }
    }
    await file.write(batch);
    return { zipPath: options.zipPath, sizeBytes: await file.finish(), rows };
  } catch (err) {
    await file.abort();
    throw err;
  }
}
