/**
 * What a chunk commits for the results file, and reading it back: one flat JSON array of
 * strings per chunk,
 *
 *   [hashes, text₀, v₀…, text₁, v₁…, …]
 *
 * - `hashes`: the records' duplicate-key hashes (duplicates.ts; -1 for a record without an
 *   address), a Float64Array (little-endian, as every platform Node runs on) in base64. The results
 *   step reads every chunk's hashes first, to know the `Duplicate` flags before it writes the first
 *   row, without parsing the rest.
 * - `text`: the record's original cells as the results file writes them (csv-text.ts, padded to
 *   the file's width), so the results step never reads the upload again.
 * - `v…`: the appended values known when the chunk ran, in column order: validation's five cells
 *   without `Duplicate` and its limit (why a verdict stopped short, or ''), then one per
 *   intelligence column, then append's email and match type. Chunks stored before the limit
 *   existed hold five validation values; `readChunkResults` tells them by their stride.
 *   What the purchase keeps is decided when the file is written.
 *
 * Flat strings, not an object per record: a million records' results parse in a fifth of the time
 * and leave the garbage collector little to trace. Chunks committed by an older version hold
 * `[[validation outcome, intelligence cells, append cells], …]` instead; `readChunkResults` reads
 * both, the older without texts or hashes (the results step then reads the upload for them).
 */
import type { ValidationOutcome } from '../validation-outcome.js';

/** Which appended values each record carries. */
export interface StoredShape {
  validation: boolean;
  intelligenceColumns: number;
  append: boolean;
}

/** Validation's stored cells: status, code, domain type, role account, valid email, limit. */
export const VALIDATION_VALUES = 6;

export const valuesPerRecord = (shape: StoredShape): number =>
  (shape.validation ? VALIDATION_VALUES : 0) + shape.intelligenceColumns + (shape.append ? 2 : 0);

/** Appends validation's cells of one record to `out`, `Duplicate` left out (see `validationCells`). */
export function pushValidationValues(out: string[], outcome: ValidationOutcome | undefined): void {
  if (!outcome) out.push('', '', '', '', '', '');
  else
    out.push(
      outcome.status,
      String(outcome.code),
      outcome.domainType ?? '',
      outcome.roleAccount ? 'true' : '',
      outcome.validEmail ?? '',
      outcome.limit ?? '',
    );
}

/** The chunk's stored results: its hashes, then `records` (taken over): per record, its text and values. */
export function encodeChunkResults(hashes: Float64Array, records: string[]): string[] {
  records.unshift(Buffer.from(hashes.buffer, hashes.byteOffset, hashes.byteLength).toString('base64'));
  return records;
}

function decodeHashes(base64: string): Float64Array {
  const bytes = Buffer.from(base64, 'base64');
  // Copied into a fresh buffer: Buffer.from may answer a slice of its pool, not 8-byte aligned.
  const hashes = new Float64Array(bytes.length / 8);
  new Uint8Array(hashes.buffer).set(bytes);
  return hashes;
}

/**
 * A stored chunk's hashes without parsing the rest of it (the hashes are base64, which JSON
 * writes as is, at the head of the array); undefined for a chunk in the older form.
 */
export function storedHashes(json: string): Float64Array | undefined {
  if (!json.startsWith('["')) return undefined;
  return decodeHashes(json.slice(2, json.indexOf('"', 2)));
}

export interface ChunkResults {
  records: number;
  /** Original text of record `i` (see above); undefined for an older chunk. */
  text(i: number): string | undefined;
  /** Duplicate-key hash of record `i`; undefined for an older chunk. */
  hash(i: number): number | undefined;
  /** The `j`th stored value of record `i`, in `StoredShape` order. */
  value(i: number, j: number): string;
}

type OlderRecord = [validation: ValidationOutcome | null, intelligence: string[], append: string[]];

export function readChunkResults(json: string, shape: StoredShape): ChunkResults {
  const parsed = JSON.parse(json) as string[] | OlderRecord[];
  if (typeof parsed[0] === 'string') {
    const flat = parsed as string[];
    const hashes = decodeHashes(flat[0]!);
    const stride = 1 + valuesPerRecord(shape);
    // A chunk stored before validation kept its limit: one value fewer per record, none for it.
    const fiveValues = shape.validation && hashes.length > 0 && flat.length - 1 === hashes.length * (stride - 1);
    if (fiveValues) {
      const limitAt = VALIDATION_VALUES - 1;
      return {
        records: hashes.length,
        text: (i) => flat[1 + i * (stride - 1)],
        hash: (i) => hashes[i],
        value: (i, j) => (j === limitAt ? '' : flat[2 + i * (stride - 1) + (j > limitAt ? j - 1 : j)]!),
      };
    }
    return {
      records: hashes.length,
      text: (i) => flat[1 + i * stride],
      hash: (i) => hashes[i],
      value: (i, j) => flat[2 + i * stride + j]!,
    };
  }
  const older = parsed as OlderRecord[];
  let last = -1;
  let values: string[] = [];
  return {
    records: older.length,
    text: () => undefined,
    hash: () => undefined,
    value(i, j) {
      if (i !== last) {
        const [outcome, intelligence, append] = older[i]!;
        values = [];
        if (shape.validation) pushValidationValues(values, outcome ?? undefined);
        values.push(...intelligence, ...append);
        last = i;
      }
      return values[j]!;
    },
  };
}
