/**
 * Writes a list's evidence file (results/evidence-file.ts) from its committed chunks alone, in
 * order, as the results file is written from them (list-results.ts): each chunk stored its rows'
 * evidence in the same write as their results, so a list that has its results has their evidence.
 */
import type { ListFiles } from '../list-files.js';
import type { ListRow, ListStore } from '../list-record.js';
import { evidenceFileName, writeEvidenceFile, type EvidenceRun, type RecordEvidence } from '../results/evidence-file.js';
import type { ListPlan } from './list-plan.js';

/** Chunks read from the store at once while writing. */
const CHUNKS_PER_READ = 20;

export async function writeListEvidence(
  list: ListRow,
  plan: ListPlan,
  store: ListStore,
  files: ListFiles,
): Promise<{ zipPath: string; sizeBytes: number; rows: number }> {
  async function* runs(): AsyncGenerator<EvidenceRun> {
    for (let from = 0; from < plan.chunkCount; from += CHUNKS_PER_READ) {
      const to = Math.min(from + CHUNKS_PER_READ, plan.chunkCount);
      const read = await store.chunkEvidence(list.id, from, to);
      for (let index = from; index < to; index++) {
        const chunk = read[index - from];
        if (chunk?.index !== index || chunk.evidence === null) throw new Error(`list ${list.id}: no committed evidence for chunk ${index}`);
        const entries = JSON.parse(chunk.evidence) as RecordEvidence[];
        if (entries.length !== chunk.records)
          throw new Error(`list ${list.id}: chunk ${index} holds evidence for ${entries.length} of ${chunk.records} records`);
        yield { firstRow: index * plan.chunkSize + 1, entries };
      }
    }
  }
  return writeEvidenceFile(
    { zipPath: await files.resultsPath(list.id, 'evidence'), innerName: evidenceFileName(list.name, list.id) },
    runs(),
  );
}
