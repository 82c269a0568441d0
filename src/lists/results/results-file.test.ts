import fc from 'fast-check';
import { neutraliseFormula } from './formula-guard.js';
import { existsSync } from 'node:fs';
import { readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInput } from '../input/open-input.js';
import { readRows } from '../input/read-records.js';
import { collect, tempDir } from '../test-support.js';
import {
  APPEND_COLUMNS,
  appendCells,
  distinctAppendedNames,
  originalHeader,
  resultsFileName,
  resultsZipName,
  VALIDATION_COLUMNS,
  validationCells,
} from './column-names.js';
import { writeResultsFile, type ResultRow } from './results-file.js';

let tmp: Awaited<ReturnType<typeof tempDir>>;
let n = 0;

beforeAll(async () => {
  tmp = await tempDir();
});
afterAll(async () => {
  await tmp.cleanup();
});

async function readBack(zipPath: string, delimiter: string) {
  const opened = await openInput(zipPath, 'zip');
  if (!opened.ok) throw new Error(opened.reason);
  return { innerName: opened.value.innerName, rows: await collect(readRows(opened.value.stream, { delimiter })) };
}

describe('column names', () => {
  it('names the results file and download', () => {
    expect(resultsFileName('clients.zip', 42, 'txt')).toBe('clients-42-Service.txt');
    expect(resultsFileName('my.list.csv', 7, 'csv')).toBe('my.list-7-Service.csv');
    expect(resultsZipName('clients.csv', 42)).toBe('clients-42-Service.zip');
  });

  it('heads a header-less file with Email and Column N, and pads a short header', () => {
    expect(originalHeader(undefined, 3, 1)).toEqual(['Column 1', 'Email', 'Column 3']);
    expect(originalHeader(['email', 'name'], 3, 0)).toEqual(['email', 'name', 'Column 3']);
  });

  it('never gives an appended column a name an input column has', () => {
    const ei = (name: string) => ({ name, prefix: 'ei_' });
    expect(distinctAppendedNames(['email', 'first', 'zip'], [ei('age'), ei('zip')])).toEqual(['age', 'ei_zip']);
    expect(distinctAppendedNames(['Email', 'ZIP ', 'ei_zip'], [ei('zip')])).toEqual(['ei_zip_2']);
    expect(distinctAppendedNames(['Validation Status'], [{ name: 'Validation Status', prefix: 'Mailsure ' }])).toEqual([
      'Mailsure Validation Status',
    ]);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('zip', 'ZIP', 'ei_zip', 'ei_zip_2', 'age', ' Age', 'email', 'x'), { maxLength: 8 }),
        fc.uniqueArray(fc.constantFrom('zip', 'age', 'gender', 'eam'), { maxLength: 4 }),
        (original, fields) => {
          const names = distinctAppendedNames(original, fields.map(ei));
          const key = (n: string) => n.trim().toLowerCase();
          const all = [...new Set(original.map(key)), ...names.map(key)];
          expect(new Set(all).size).toBe(all.length);
          names.forEach((name, i) => expect(name === fields[i] || name.startsWith(`ei_${fields[i]}`)).toBe(true));
          // A free name is kept.
          names.forEach((name, i) => original.map(key).includes(fields[i]!) || expect(name).toBe(fields[i]));
        },
      ),
    );
  });

  it('writes validation and append cells', () => {
    expect(VALIDATION_COLUMNS).toEqual(['Validation Status', 'Validation Code', 'Domain Type', 'Role Account', 'Duplicate', 'Valid Email']);
    expect(APPEND_COLUMNS).toEqual(['Append Email', 'Append Match Type']);
    expect(validationCells({ status: 'valid', code: 50, domainType: 'freeisp', roleAccount: true, validEmail: 'a@b.com' }, true)).toEqual([
      'valid',
      '50',
      'freeisp',
      'true',
      'true',
      'a@b.com',
    ]);
    expect(validationCells({ status: 'invalid', code: 400, roleAccount: false }, false)).toEqual(['invalid', '400', '', '', '', '']);
    expect(validationCells(undefined, false)).toEqual(['', '', '', '', '', '']);
    expect(appendCells({ email: 'x@y.com', matchType: 'Household' })).toEqual(['x@y.com', 'Household']);
    expect(appendCells(undefined)).toEqual(['', '']);
  });
});

describe('writeResultsFile', () => {
  it('writes header, padded rows and appended columns into a one-file zip', async () => {
    const zipPath = tmp.path(`r${++n}.zip`);
    const rows: ResultRow[] = [
      { cells: ['a@b.com', 'Ann'], appended: ['valid', '50'] },
      { cells: ['c@d.com'], appended: ['invalid'] },
    ];
    const written = await writeResultsFile(
      {
        zipPath,
        innerName: 'list-1-Service.csv',
        delimiter: ',',
        originalHeader: ['email', 'name'],
        appendedHeader: ['Validation Status', 'Validation Code'],
      },
      rows,
    );
    expect(written).toMatchObject({ zipPath, rows: 2 });
    expect(written.sizeBytes).toBe((await readFile(zipPath)).length);
    expect(await readBack(zipPath, ',')).toEqual({
      innerName: 'list-1-Service.csv',
      rows: [
        ['email', 'name', 'Validation Status', 'Validation Code'],
        ['a@b.com', 'Ann', 'valid', '50'],
        ['c@d.com', '', 'invalid', ''],
      ],
    });
    expect((await readdir(tmp.dir)).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('writes a byte-order mark when asked', async () => {
    const zipPath = tmp.path(`r${++n}.zip`);
    await writeResultsFile({ zipPath, innerName: 'x.txt', delimiter: '\t', originalHeader: ['Email'], appendedHeader: [], bom: true }, [
      { cells: ['é@x.fr'], appended: [] },
    ]);
    const opened = await openInput(zipPath, 'zip');
    if (!opened.ok) throw new Error(opened.reason);
    const bytes = Buffer.concat(await collect(opened.value.stream as AsyncIterable<Buffer>));
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(bytes.subarray(3).toString('utf8')).toBe('Email\né@x.fr\n');
  });

  it('leaves nothing behind when the rows fail', async () => {
    const zipPath = tmp.path(`r${++n}.zip`);
    async function* rows(): AsyncGenerator<ResultRow> {
      yield { cells: ['a'], appended: [] };
      throw new Error('store went away');
    }
    await expect(
      writeResultsFile({ zipPath, innerName: 'x.csv', delimiter: ',', originalHeader: ['e'], appendedHeader: [] }, rows()),
    ).rejects.toThrow('store went away');
    expect((await readdir(tmp.dir)).filter((f) => f.startsWith(`r${n}.zip`))).toEqual([]);
  });

  it('fails cleanly when it cannot write', async () => {
    const blocker = tmp.path(`blocker${++n}`);
    await writeFile(blocker, 'a file, not a directory');
    await expect(
      writeResultsFile({ zipPath: `${blocker}/out.zip`, innerName: 'x.csv', delimiter: ',', originalHeader: ['e'], appendedHeader: [] }, [
        { cells: ['a'], appended: [] },
      ]),
    ).rejects.toThrow();
  });

  it.skipIf(!existsSync('/dev/full'))('fails cleanly when the disk fills up mid-file', async () => {
    const zipPath = tmp.path(`r${++n}.zip`);
    await symlink('/dev/full', `${zipPath}.partial`);
    async function* rows(): AsyncGenerator<ResultRow> {
      for (let i = 0; i < 200_000; i++) yield { cells: [`${i}@example.com`, String(Math.random())], appended: ['valid'] };
    }
    await expect(
      writeResultsFile({ zipPath, innerName: 'x.csv', delimiter: ',', originalHeader: ['e', 'r'], appendedHeader: ['s'] }, rows()),
    ).rejects.toThrow(/ENOSPC/);
    expect((await readdir(tmp.dir)).filter((f) => f.startsWith(`r${n}.zip`))).toEqual([]);
  });

  it('streams many rows from an async source', async () => {
    const zipPath = tmp.path(`r${++n}.zip`);
    const count = 50_000;
    async function* rows(): AsyncGenerator<ResultRow> {
      for (let i = 0; i < count; i++) yield { cells: [`user${i}@example.com`, `Name ${i}`], appended: ['valid', '50', String(i)] };
    }
    const written = await writeResultsFile(
      { zipPath, innerName: 'big-1-Service.csv', delimiter: ',', originalHeader: ['email', 'name'], appendedHeader: ['a', 'b', 'c'] },
      rows(),
    );
    expect(written.rows).toBe(count);
    const back = await readBack(zipPath, ',');
    expect(back.rows).toHaveLength(count + 1);
    expect(back.rows[count]).toEqual([`user${count - 1}@example.com`, `Name ${count - 1}`, 'valid', '50', String(count - 1)]);
  });

  it('round-trips any cells through csv-parse (formulas written as text in our columns but the addresses), with any supported delimiter', async () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'Z', '@', ' ', ',', ';', '|', '\t', '"', "'", '\n', '\r', 'é', '日', '=') });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(',', '\t', ';', '|'),
        fc.array(fc.tuple(fc.array(cell, { minLength: 0, maxLength: 3 }), fc.array(cell, { minLength: 1, maxLength: 2 })), {
          maxLength: 8,
        }),
        async (delimiter, table) => {
          const zipPath = tmp.path(`p${++n}.zip`);
          const rows = table.map(([cells, appended]) => ({ cells, appended }));
          await writeResultsFile(
            {
              zipPath,
              innerName: 'p.csv',
              delimiter,
              originalHeader: ['c1', 'c2', 'c3'],
              appendedHeader: ['x', 'y'],
              appendedAsIs: [false, true],
            },
            rows,
          );
          // The customer's cells and the address column `y` as they are; our `x` guarded.
          const expected = [
            ['c1', 'c2', 'c3', 'x', 'y'],
            ...rows.map((r) => [...pad(r.cells, 3), neutraliseFormula(pad(r.appended, 2)[0]!), pad(r.appended, 2)[1]!]),
          ].filter((row) => row.some((c) => c.trim() !== ''));
          expect((await readBack(zipPath, delimiter)).rows).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });
});

function pad(cells: string[], width: number): string[] {
  return [...cells, ...Array<string>(Math.max(0, width - cells.length)).fill('')];
}
