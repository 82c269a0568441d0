/**
 * Writes a list's results file: the input's records read again, in order, each with the values
 * its chunk committed, the `Duplicate` flag from one extra pass over the addresses, and only what
 * was bought (decisions §6: after `report=true`, the purchase chooses intelligence fields and the
 * email-append match type).
 */
import { EAM_FIELDS } from '../../enrichment/field-names.js';
import { DuplicateIndex } from '../input/duplicates.js';
import { listRecords } from '../input/prepare-list.js';
import type { ListRow, ListStore } from '../list-record.js';
import { APPEND_COLUMNS, VALIDATION_COLUMNS, intelligenceColumns, originalHeader, resultsFileName, validationCells } from '../results/column-names.js';
import { writeResultsFile, type ResultRow, type WrittenResults } from '../results/results-file.js';
import type { ListPlan, RecordResult } from './list-plan.js';
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
  const purchase = list.report ? ((list.purchase as Purchase | null) ?? {}) : {};

  const emailColumn = layout.emailColumn;
  const duplicates =
    validation && emailColumn !== undefined
      ? await DuplicateIndex.build(emailsOf(listRecords(input, list.format, layout), emailColumn))
      : undefined;
  const keep = plan.intelligenceColumns.map((column) => bought(column, purchase));
  const keptColumns = plan.intelligenceColumns.filter((_, i) => keep[i]);
  const appendedHeader = [...(validation ? VALIDATION_COLUMNS : []), ...(intelligence ? intelligenceColumns(keptColumns) : []), ...(append ? APPEND_COLUMNS : [])];

  async function* rows(): AsyncGenerator<ResultRow> {
    let loaded = new Map<number, RecordResult[]>();
    for await (const record of listRecords(input, list.format, layout)) {
      const chunk = Math.floor(record.index / plan.chunkSize);
      if (!loaded.has(chunk)) loaded = await readChunks(store, list.id, chunk, Math.min(chunk + CHUNKS_PER_READ, plan.chunkCount));
      const result = loaded.get(chunk)?.[record.index - chunk * plan.chunkSize];
      if (!result) throw new Error(`list ${list.id}: no committed result for record ${record.index}`);
      const [outcome, intelligenceCells, appendCells] = result;
      const appended: string[] = [];
      if (validation) appended.push(...validationCells(outcome ?? undefined, duplicates?.isDuplicate(record.cells[emailColumn!] ?? '') ?? false));
      if (intelligence) appended.push(...intelligenceCells.filter((_, i) => keep[i]));
      if (append) appended.push(...appendBought(appendCells, purchase, list.report));
      yield { cells: record.cells, appended };
    }
  }

  return writeResultsFile(
    {
      zipPath: resultsPath(dataDir, list.id),
      innerName: resultsFileName(list.name, list.id, layout.extension),
      delimiter: layout.delimiter,
      originalHeader: originalHeader(layout.header, layout.columnCount, layout.emailColumn),
      appendedHeader,
      bom: layout.outputBom,
    },
    rows(),
  );
}

async function* emailsOf(records: AsyncIterable<{ cells: string[] }>, column: number): AsyncGenerator<string> {
  for await (const record of records) yield record.cells[column] ?? '';
}

async function readChunks(store: ListStore, listId: number, from: number, to: number): Promise<Map<number, RecordResult[]>> {
  const chunks = await store.chunkResults(listId, from, to);
  return new Map(chunks.map((c) => [c.index, JSON.parse(c.results) as RecordResult[]]));
}

function bought(column: string, purchase: Purchase): boolean {
  if (!purchase.fields) return true;
  return purchase.fields.includes(column) || ((EAM_FIELDS as readonly string[]).includes(column) && purchase.fields.includes('eam'));
}

function appendBought(cells: string[], purchase: Purchase, report: boolean): string[] {
  if (!report || cells[1] === '' || purchase.matchType !== 'I' || cells[1] === 'Individual') return cells;
  return ['', ''];
}
