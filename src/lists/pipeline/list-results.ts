/**
 * Writes a list's results file from its committed chunks alone, in order: each record's original
 * cells as its chunk stored them written out, its appended values, the `Duplicate` flag from the
 * duplicate-key hashes every chunk stored (read in a first pass over the chunks), and only what
 * was bought (decisions §6: after `report=true`, the purchase chooses intelligence fields and the
 * email-append match type). Chunks committed by an older version stored no texts or hashes: from
 * the first such chunk on, the upload is read again for them.
 */
import { EAM_FIELDS } from '../../enrichment/field-names.js';
import { DuplicateIndex, duplicateHash } from '../input/duplicates.js';
import { listRecords } from '../input/prepare-list.js';
import type { ListRecord } from '../input/read-records.js';
import type { ListRow, ListStore } from '../list-record.js';
import { APPEND_COLUMNS, VALIDATION_COLUMNS, intelligenceColumns, originalHeader, resultsFileName } from '../results/column-names.js';
import { csvText } from '../results/csv-text.js';
import { padCells, writeResultsFile, type ResultRow, type WrittenResults } from '../results/results-file.js';
import { readChunkResults, storedHashes, VALIDATION_VALUES, type StoredShape } from '../results/stored-results.js';
import type { ListPlan } from './list-plan.js';
import { resultsPath, uploadPath } from './list-paths.js';

/** The body of POST /v5/list/{id}/purchase, as stored. */
export interface Purchase {
  fields?: string[];
  /** `I`: Individual matches only; `H`: household matches too. */
  matchType?: 'I' | 'H';
}

/** Chunks read from the store at once while writing. */
const CHUNKS_PER_READ = 20;

export async function writeListResults(list: ListRow, plan: ListPlan, store: ListStore, dataDir: string): Promise<WrittenResults> {
  const input = uploadPath(dataDir, list.id, list.format);
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
  const appendedHeader = [...(validation ? VALIDATION_COLUMNS : []), ...(intelligence ? intelligenceColumns(keptColumns) : []), ...(append ? APPEND_COLUMNS : [])];

  const appendedOf = (values: readonly string[], duplicate: boolean): string[] => {
    const appended: string[] = [];
    let at = 0;
    if (validation) {
      appended.push(values[0]!, values[1]!, values[2]!, values[3]!, duplicate ? 'true' : '', values[4]!);
      at = VALIDATION_VALUES;
    }
    if (intelligence) for (let i = 0; i < plan.intelligenceColumns.length; i++) if (keep[i]) appended.push(values[at + i]!);
    if (append) appended.push(...appendBought([values[at + shape.intelligenceColumns]!, values[at + shape.intelligenceColumns + 1]!], purchase, list.report));
    return appended;
  };

  async function* rows(): AsyncGenerator<ResultRow> {
    // The upload, opened at the first chunk that stored no texts and read in step from there on.
    let file: AsyncIterator<ListRecord> | undefined;
    try {
      for await (const chunk of chunks()) {
        const results = readChunkResults(chunk.results, shape);
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
          yield { text: original, appended: appendedOf(results.values(i), hash !== undefined && (duplicates?.isDuplicateHash(hash) ?? false)) };
        }
      }
    } finally {
      await file?.return?.();
    }
  }

  return writeResultsFile(
    {
      zipPath: resultsPath(dataDir, list.id),
      innerName: resultsFileName(list.name, list.id, layout.extension),
      delimiter: layout.delimiter,
      originalHeader: header,
      appendedHeader,
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
