import fc from 'fast-check';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { collect } from '../test-support.js';
import { CsvSplitError } from './csv-splitter.js';
import { InputError } from './input-error.js';
import { readRecords, readRowBatches, readRows } from './read-records.js';

const from = (text: string | Buffer, chunk = 7) => {
  const bytes = Buffer.from(text);
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunk) parts.push(bytes.subarray(i, i + chunk));
  return Readable.from(parts);
};

const rows = (text: string | Buffer, delimiter = ',', chunk?: number) => collect(readRows(from(text, chunk), { delimiter }));

async function failure(text: string | Buffer, options: { delimiter?: string; maxRecordChars?: number } = {}): Promise<string> {
  try {
    await collect(readRows(from(text, 4096), { delimiter: options.delimiter ?? ',', maxRecordChars: options.maxRecordChars }));
  } catch (err) {
    if (err instanceof InputError) return err.reason;
    throw err;
  }
  throw new Error('no failure');
}

describe('readRows', () => {
  it('parses quotes, CRLF, a BOM and ragged rows', async () => {
    const text = '\uFEFFemail,name\r\n"a@b.com","Smith, ""J"""\r\nc@d.com\r\n"e\r\nf",x,y\r\n';
    expect(await rows(text)).toEqual([['email', 'name'], ['a@b.com', 'Smith, "J"'], ['c@d.com'], ['e\r\nf', 'x', 'y']]);
  });

  it('skips blank lines and rows of empty cells', async () => {
    expect(await rows('a@b.com\n\n   \n,,\n\t\nc@d.com\n')).toEqual([['a@b.com'], ['c@d.com']]);
  });

  it('keeps a quote inside an unquoted cell', async () => {
    expect(await rows('John "Jack" Smith,a@b.com\n')).toEqual([['John "Jack" Smith', 'a@b.com']]);
  });

  it('reads tab-delimited text and old Mac line ends', async () => {
    expect(await rows('a@b.com\tAnn\rc@d.com\tBob\r', '\t')).toEqual([
      ['a@b.com', 'Ann'],
      ['c@d.com', 'Bob'],
    ]);
  });

  it('reads UTF-16LE with its byte-order mark', async () => {
    const text = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('email\tnom\nzoë@exemple.fr\tZoë\n', 'utf16le')]);
    expect(await rows(text, '\t', 3)).toEqual([
      ['email', 'nom'],
      ['zoë@exemple.fr', 'Zoë'],
    ]);
  });

  it('names the line a never-closed quote opens on', async () => {
    expect(await failure('a,b\n\nc,d\n"e\nf\n')).toBe('Malformed CSV: the quote opened on line 4 is never closed');
    expect(await failure('"x\ny",1\n\n\nq,"open\nmore\n')).toBe('Malformed CSV: the quote opened on line 5 is never closed');
  });

  it('refuses a record longer than the limit (a file without line breaks)', async () => {
    expect(await failure(`a,b\n${'x'.repeat(5000)}`, { maxRecordChars: 1000 })).toBe(
      'Malformed CSV: the record on line 2 is longer than 1,000 characters',
    );
  });

  it('keeps text after a closing quote rather than failing the list', async () => {
    expect(await rows('a,b\n"x"y,z\n')).toEqual([
      ['a', 'b'],
      ['"x"y', 'z'],
    ]);
  });

  it('refuses binary content and bad UTF-8', async () => {
    expect(await failure(Buffer.from([0x50, 0x4b, 0x00, 0x01, 0x0a]))).toBe('The file is not a text file');
    expect(await failure(Buffer.from('a@b.com,Jos\xe9\n', 'latin1'))).toBe('The file is not valid UTF-8 text');
  });

  it('reads Windows-1252 when told to', async () => {
    const bytes = Buffer.from('a@b.com,Jos\xe9 \x93Pepe\x94\n', 'latin1');
    expect(await collect(readRows(from(bytes), { delimiter: ',', encoding: 'windows-1252' }))).toEqual([['a@b.com', 'José “Pepe”']]);
  });

  it('splits multi-byte characters across chunks safely', async () => {
    const text = 'ä@ö.de,日本語\n';
    for (const chunk of [1, 2, 3, 5]) expect(await rows(text, ',', chunk)).toEqual([['ä@ö.de', '日本語']]);
  });

  it('reads what it is given, whatever the chunking', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'b', '@', ' ', ',', '"', '\n', 'é') });
    return fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { maxLength: 6 }),
        fc.integer({ min: 1, max: 9 }),
        async (table, chunk) => {
          const quoted = table.map((row) => row.map((c) => `"${c.replace(/"/g, '""')}"`).join(',')).join('\n');
          const expected = table.filter((row) => row.some((c) => c.trim() !== ''));
          expect(await rows(quoted, ',', chunk)).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('readRecords', () => {
  const text = 'email\na@b.com\n\nc@d.com\ne@f.com\n';

  it('indexes data records from 0, header and blank rows excluded', async () => {
    expect(await collect(readRecords(from(text), { delimiter: ',', skipHeader: true }))).toEqual([
      { index: 0, cells: ['a@b.com'] },
      { index: 1, cells: ['c@d.com'] },
      { index: 2, cells: ['e@f.com'] },
    ]);
  });

  it('resumes at a record index', async () => {
    expect(await collect(readRecords(from(text), { delimiter: ',', skipHeader: true, startAt: 2 }))).toEqual([
      { index: 2, cells: ['e@f.com'] },
    ]);
    expect((await collect(readRecords(from(text), { delimiter: ',', skipHeader: false }))).map((r) => r.index)).toEqual([0, 1, 2, 3]);
  });

  it('closes its input when the reader stops early', async () => {
    const input = from('a@b.com\n'.repeat(10_000), 64);
    for await (const record of readRecords(input, { delimiter: ',', skipHeader: false })) if (record.index === 3) break;
    await new Promise((resolve) => setImmediate(resolve));
    expect(input.destroyed).toBe(true);
  });
});

describe('readRows without line tracking', () => {
  it('yields exactly the records of the line-tracking pass (later passes index records the same way)', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', ' ', ',', '"', '\n', '\r\n', '\t', 'é') });
    return fc.assert(
      fc.asyncProperty(fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { maxLength: 8 }), async (rows) => {
        const text = rows.map((r) => r.join(',')).join('\n');
        const read = (trackLines: boolean) =>
          collect(readRows(Readable.from([Buffer.from(text)]), { delimiter: ',', trackLines })).then(
            (records) => ({ records }),
            (error: unknown) => ({ failed: error instanceof InputError }),
          );
        const [tracked, untracked] = await Promise.all([read(true), read(false)]);
        if ('records' in tracked) expect(untracked).toEqual(tracked);
        else expect(untracked).toEqual({ failed: true });
      }),
      { numRuns: 300 },
    );
  });
});

describe('readRows through csv-splitter', () => {
  it('yields exactly the records of csv-parse, whatever the encoding and chunking', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', ' ', ',', '"', '\n', '\r\n', '\r', '\t', 'é', '日') });
    return fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { maxLength: 8 }),
        fc.constantFrom<'utf8' | 'utf16le'>('utf8', 'utf16le'),
        fc.integer({ min: 1, max: 9 }),
        async (table, encoding, chunk) => {
          const text = table.map((r) => r.join(',')).join('\n');
          const bytes = encoding === 'utf8' ? Buffer.from(text) : Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
          const read = (splitter: boolean) =>
            collect(readRows(from(bytes, chunk), { delimiter: ',', trackLines: false, splitter })).then(
              (records) => ({ records }),
              (error: unknown) => ({ failed: error instanceof InputError || error instanceof CsvSplitError }),
            );
          expect(await read(true)).toEqual(await read(false));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('passes file problems on as csv-parse does, and its own as CsvSplitError', async () => {
    await expect(collect(readRows(from(Buffer.from([0x61, 0x00, 0x0a])), { delimiter: ',', splitter: true }))).rejects.toThrow(
      'The file is not a text file',
    );
    await expect(collect(readRows(from('a\n"b\n'), { delimiter: ',', splitter: true }))).rejects.toThrow(CsvSplitError);
  });
});

describe('readRowBatches', () => {
  it('gets every row to a reader that takes its time between batches', async () => {
    const { writeFile, rm } = await import('node:fs/promises');
    const { createReadStream } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = `${tmpdir()}/mailsure-slow-reader-${process.pid}.csv`;
    // No line end at the end: the last record comes from csv-parse's flush, after the file ends.
    await writeFile(path, Array.from({ length: 600 }, (_, i) => `u${i}@d.example`).join('\n'));
    try {
      for (const splitter of [false, true]) {
        let count = 0;
        for await (const batch of readRowBatches(createReadStream(path), { delimiter: ',', trackLines: false, splitter })) {
          count += batch.length;
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        expect(count).toBe(600);
      }
    } finally {
      await rm(path, { force: true });
    }
  });
});
