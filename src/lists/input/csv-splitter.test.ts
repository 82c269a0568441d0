import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CsvSplitError, CsvSplitter } from './csv-splitter.js';

/** csv-parse as read-records.ts configures it (without line tracking), over the whole text at once. */
function reference(text: string, delimiter: string): string[][] | 'fails' {
  try {
    return parse(Buffer.from(text), {
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      bom: true,
      max_record_size: 1024 * 1024,
      skip_records_with_empty_values: true,
    }) as string[][];
  } catch {
    return 'fails';
  }
}

function split(text: string, delimiter: string, cuts: number[]): string[][] | 'fails' {
  const splitter = new CsvSplitter(delimiter, 1024 * 1024);
  const rows: string[][] = [];
  let from = 0;
  try {
    for (const cut of [...cuts.filter((c) => c < text.length)].sort((a, b) => a - b)) {
      rows.push(...splitter.write(text.slice(from, cut), false));
      from = cut;
    }
    rows.push(...splitter.write(text.slice(from), true));
    return rows;
  } catch (err) {
    if (err instanceof CsvSplitError) return 'fails';
    throw err;
  }
}

describe('CsvSplitter', () => {
  it('reads what csv-parse reads, however the text is cut', () => {
    const unit = fc.constantFrom('a', 'b', ' ', 'é', '😀', '"', '""', ',', ';', '\t', '\n', '\r', '\r\n', '\uFEFF', 'x');
    fc.assert(
      fc.property(
        fc.string({ unit, maxLength: 40 }),
        fc.constantFrom(',', ';', '\t', '😀'),
        fc.array(fc.nat({ max: 45 }), { maxLength: 6 }),
        (text, delimiter, cuts) => {
          expect(split(text, delimiter, cuts)).toEqual(reference(text, delimiter));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('reads quoted cells, relaxed quotes and every line end', () => {
    const text = '\uFEFFa,"b,c","say ""hi"""\r\n"x"y,z "q"\r\n\r\n , \r\nlast';
    expect(split(text, ',', [5, 17])).toEqual(reference(text, ','));
    expect(split(text, ',', [])).toEqual([['a', 'b,c', 'say "hi"'], ['"x"y', 'z "q"'], ['last']]);
    expect(split('a\rb\r', ',', [2])).toEqual([['a'], ['b']]);
    expect(split('a\nb\rc\n', ',', [])).toEqual([['a'], ['b\rc']]);
  });

  it('gives up on a never-closed quote and on a record near the size limit', () => {
    expect(split('a\n"b\n', ',', [])).toBe('fails');
    const splitter = new CsvSplitter(',', 30);
    expect(() => splitter.write('0123456789012,', false)).toThrow(CsvSplitError);
  });
});
