/**
 * Writes a list's results file from its committed chunks alone, in order: each record's original
 * cells as its chunk stored them written out, its appended values, the `Duplicate` flag from the
 * duplicate-key hashes every chunk stored (read in a first pass over the chunks), and only what
 * was bought (decisions §6: after `report=true`, the purchase chooses intelligence fields and the
 * email-append match type). Chunks committed by an older version stored no texts or hashes: from
 * the first such chunk on, the upload is read again for them.
 */
import { EAM_FIELDS } from '../../people/field-names.js';
import { DuplicateIndex, duplicateHash } from '../input/duplicates.js';
import { listRecords } from '../input/prepare-list.js';
import type { ListRecord } from '../input/read-records.js';
import type { ListRow, ListStore } from '../list-record.js';
import {
  APPEND_COLUMNS,
  distinctAppendedNames,
  INTELLIGENCE_PREFIX,
  intelligenceColumns,
  limitNote,
  originalHeader,
  resultsFileName,
  SERVICE_PREFIX,
  VALIDATION_COLUMNS,
  VERIFICATION_NOTE_COLUMN,
  ADDRESS_COLUMNS,
} from '../results/column-names.js';
import { addCounts, limitedRecords, type Counts } from '../reporting.js';
import { csvText } from '../results/csv-text.js';
import { padCells, writeResultsFile, type ResultRow, type WrittenResults } from '../results/results-file.js';
import { readChunkResults, storedHashes, VALIDATION_VALUES, type ChunkResults, type StoredShape } from '../results/stored-results.js';
import type { ListPlan } from './list-plan.js';
import type { ListFiles } from '../list-files.js';

/** The body of POST /v5/list/{id}/purchase, as stored. */
export interface Purchase {
  fields?: string[];
  /** `I`: Individual matches only; `H`: household matches too. */
  matchType?: 'I' | 'H';
}

/** Chunks read from the store at once while writing. */
const CHUNKS_PER_READ = 20;

export async function writeListResults(list: ListRow, plan: ListPlan, store: ListStore, files: ListFiles): Promise<WrittenResults> {
  const input = await files.uploadPath(list.id, list.format);
  const { layout } = plan;
  const validation = plan.services.includes('email_validation');
  const intelligence = plan.services.includes('email_intelligence');
  const append = plan.services.includes('email_append');
  const shape: StoredShape = { validation, intelligenceColumns: intelligence ? plan.intelligenceColumns.length : 0, append };
  const purchase = list.report ? ((list.purchase as Purchase | null) ?? {}) : {};
  const header = originalHeader(layout.header, layout.columnCount, layout.emailColumn);
  const text = csvText(layout.delimiter);

  const chunks = async function* (): AsyncGenerator<{ index: number; results: string }> {
    for (let from = 0; from < plan.chunkCount; from += CHUNKS_PER_READ) {
      const to = Math.min(from + CHUNKS_PER_READ, plan.chunkCount);
      const read = await store.chunkResults(list.id, from, to);
      for (let index = from; index < to; index++) {
        const chunk = read[index - from];
        if (chunk?.index !== index) throw new Error(`list ${list.id}: no committed results for chunk ${index}`);
        yield chunk;
      }
    }
  };

  const emailColumn = validation ? layout.emailColumn : undefined;
  let duplicates: DuplicateIndex | undefined;
  if (emailColumn !== undefined) {
    duplicates = new DuplicateIndex();
    for await (const chunk of chunks()) {
      const hashes = storedHashes(chunk.results);
      if (!hashes) {
        duplicates = await DuplicateIndex.build(emailsOf(listRecords(input, list.format, layout), emailColumn));
        break;
      }
      for (const hash of hashes) duplicates.addHash(hash);
    }
  }
  const keep = plan.intelligenceColumns.map((column) => bought(column, purchase));
  const keptColumns = plan.intelligenceColumns.filter((_, i) => keep[i]);
  // The note column only when some verdict was limited by our own network (prober health).
  const noted =
    validation &&
    limitedRecords(
      addCounts(...(await store.chunkCounts(list.id)).map((c) => (c.counts as { email_validation?: Counts }).email_validation ?? {})),
    ) > 0;
  // The addresses we add come back as they are, like the customer's own cells (formula-guard.ts).
  const service = (name: string) => ({ name, prefix: SERVICE_PREFIX, asIs: ADDRESS_COLUMNS.has(name) });
  const appendedColumns = [
    ...(validation ? VALIDATION_COLUMNS.map(service) : []),
    ...(noted ? [service(VERIFICATION_NOTE_COLUMN)] : []),
    ...(intelligence ? intelligenceColumns(keptColumns).map((name) => ({ name, prefix: INTELLIGENCE_PREFIX, asIs: false })) : []),
    ...(append ? APPEND_COLUMNS.map(service) : []),
  ];
  const appendedHeader = distinctAppendedNames(header, appendedColumns);
  const appendedAsIs = appendedColumns.map((column) => column.asIs);

  const intelligenceAt = validation ? VALIDATION_VALUES : 0;
  const appendAt = intelligenceAt + shape.intelligenceColumns;
  const appendedOf = (results: ChunkResults, i: number, duplicate: boolean): string[] => {
    const appended: string[] = [];
    if (validation) {
      appended.push(
        results.value(i, 0),
        results.value(i, 1),
        results.value(i, 2),
        results.value(i, 3),
        duplicate ? 'true' : '',
        results.value(i, 4),
      );
      if (noted) appended.push(limitNote(results.value(i, 5)));
    }
    if (intelligence) for (let j = 0; j < shape.intelligenceColumns; j++) if (keep[j]) appended.push(results.value(i, intelligenceAt + j));
    if (append) appended.push(...appendBought([results.value(i, appendAt), results.value(i, appendAt + 1)], purchase, list.report));
    return appended;
  };

  /** A chunk's rows at a time. */
  async function* rows(): AsyncGenerator<ResultRow[]> {
    // The upload, opened at the first chunk that stored no texts and read in step from there on.
    let file: AsyncIterator<ListRecord> | undefined;
    try {
      for await (const chunk of chunks()) {
        const results = readChunkResults(chunk.results, shape);
        const out: ResultRow[] = [];
        for (let i = 0; i < results.records; i++) {
          const index = chunk.index * plan.chunkSize + i;
          let original = file ? undefined : results.text(i);
          let hash = results.hash(i);
          if (original === undefined) {
            file ??= listRecords(input, list.format, layout, { startAt: index })[Symbol.asyncIterator]();
            const next = await file.next();
            if (next.done || next.value.index !== index) throw new Error(`list ${list.id}: record ${index} is not in the upload`);
            original = text.join(padCells(next.value.cells, header.length));
            if (emailColumn !== undefined) hash ??= duplicateHash(next.value.cells[emailColumn] ?? '');
          }
          out.push({
            text: original,
            appended: appendedOf(results, i, hash !== undefined && (duplicates?.isDuplicateHash(hash) ?? false)),
          });
        }
        yield out;
      }
    } finally {
      await file?.return?.();
    }
  }

  return writeResultsFile(
    {
      zipPath: await files.resultsPath(list.id),
      innerName: resultsFileName(list.name, list.id, layout.extension),
      delimiter: layout.delimiter,
      originalHeader: header,
      appendedHeader,
      appendedAsIs,
      bom: layout.outputBom,
    },
    rows(),
  );
}

async function* emailsOf(records: AsyncIterable<{ cells: string[] }>, column: number): AsyncGenerator<string> {
  for await (const record of records) yield record.cells[column] ?? '';
}

function bought(column: string, purchase: Purchase): boolean {
  if (!purchase.fields) return true;
  return purchase.fields.includes(column) || ((EAM_FIELDS as readonly string[]).includes(column) && purchase.fields.includes('eam'));
}

function appendBought(cells: string[], purchase: Purchase, report: boolean): string[] {
  if (!report || cells[1] === '' || purchase.matchType !== 'I' || cells[1] === 'Individual') return cells;
  return ['', ''];
}
