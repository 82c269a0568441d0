import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideListName, formatOf, parseDelimiter, resolveDelimiter, stem } from './list-name.js';

describe('decideListName', () => {
  it('uses the name parameter and its extension, case-insensitively', () => {
    expect(decideListName('clients.TXT', 'upload.csv')).toEqual({ ok: true, value: { name: 'clients.TXT', format: 'txt' } });
    expect(decideListName('a.b.zip', undefined)).toEqual({ ok: true, value: { name: 'a.b.zip', format: 'zip' } });
  });

  it('falls back to the part file name, then myfile.csv', () => {
    expect(decideListName(undefined, 'contacts.csv')).toEqual({ ok: true, value: { name: 'contacts.csv', format: 'csv' } });
    expect(decideListName('', 'C:\\Users\\me\\list.zip')).toEqual({ ok: true, value: { name: 'list.zip', format: 'zip' } });
    expect(decideListName(undefined, 'book.xlsx')).toEqual({ ok: true, value: { name: 'myfile.csv', format: 'csv' } });
    expect(decideListName(undefined, undefined)).toEqual({ ok: true, value: { name: 'myfile.csv', format: 'csv' } });
    expect(decideListName(undefined, '.csv')).toEqual({ ok: true, value: { name: 'myfile.csv', format: 'csv' } });
  });

  it('keeps only the last path segment and drops control characters', () => {
    expect(decideListName('../../etc/passwd.csv', undefined)).toEqual({ ok: true, value: { name: 'passwd.csv', format: 'csv' } });
    expect(decideListName('li\r\nst.csv', undefined)).toEqual({ ok: true, value: { name: 'list.csv', format: 'csv' } });
  });

  it.each([
    ['report.xlsx', 'The file name must end in .csv, .txt or .zip (got "report.xlsx")'],
    ['report', 'The file name must end in .csv, .txt or .zip (got "report")'],
    ['.csv', 'The file name needs a name before its extension (got ".csv")'],
    [`${'a'.repeat(260)}.csv`, 'The file name is longer than 255 characters'],
  ])('refuses the name %s', (name, reason) => {
    expect(decideListName(name, 'ok.csv')).toEqual({ ok: false, reason });
  });

  it('never throws, and every accepted name has an accepted extension', () => {
    fc.assert(
      fc.property(fc.option(fc.string()), fc.option(fc.string()), (name, part) => {
        const result = decideListName(name ?? undefined, part ?? undefined);
        if (result.ok) expect(formatOf(result.value.name)).toBe(result.value.format);
      }),
    );
  });
});

describe('delimiters', () => {
  it('defaults by extension and lets the parameter override', () => {
    expect(resolveDelimiter(undefined, 'csv')).toBe(',');
    expect(resolveDelimiter(undefined, 'txt')).toBe('\t');
    expect(resolveDelimiter(';', 'csv')).toBe(';');
  });

  it.each([
    [undefined, undefined],
    ['', undefined],
    [';', ';'],
    ['|', '|'],
    ['\t', '\t'],
    ['\\t', '\t'],
    ['TAB', '\t'],
    ['§', '§'],
  ])('accepts %j', (raw, delimiter) => {
    expect(parseDelimiter(raw)).toEqual({ ok: true, value: delimiter });
  });

  it.each([
    [';;', 'Invalid parameter delimiter: must be exactly one character'],
    ['"', 'Invalid parameter delimiter: a quote cannot be the delimiter'],
    ['\n', 'Invalid parameter delimiter: a line break cannot be the delimiter'],
    ['\r', 'Invalid parameter delimiter: a line break cannot be the delimiter'],
  ])('refuses %j', (raw, reason) => {
    expect(parseDelimiter(raw)).toEqual({ ok: false, reason });
  });

  it('strips one extension for the stem', () => {
    expect(stem('a.b.csv')).toBe('a.b');
  });
});
