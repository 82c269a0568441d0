import fc from 'fast-check';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { csvText } from './csv-text.js';
import { neutraliseFormula } from './formula-guard.js';

describe('csvText', () => {
  it('writes what csv-stringify writes, cell for cell', () => {
    const unit = fc.constantFrom('a', 'é', ' ', ',', ';', '\t', '|', '"', "'", '\n', '\r', '\r\n', '=', '😀', '\uD83D', '\uDE00', 'x');
    const cell = fc.string({ unit, maxLength: 6 });
    const delimiter = fc.constantFrom(',', ';', '\t', '|', ' ', 'x', '😀');
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 }), delimiter, (rows, d) => {
        const text = csvText(d);
        expect(rows.map((r) => `${text.join(r)}\n`).join('')).toBe(stringify(rows, { delimiter: d }));
      }),
      { numRuns: 2000 },
    );
  });

  it('quotes only where needed', () => {
    const text = csvText(',');
    expect(text.join(['a', '', 'b,c', 'say "hi"', 'x\ny', ' padded '])).toBe('a,,"b,c","say ""hi""","x\ny", padded ');
    expect(csvText('\t').join(['a,b', 'c\td'])).toBe('a,b\t"c\td"');
  });

  it('writes values as given, formulas included (the results file decides which to guard)', () => {
    expect(csvText(',').join(['+1234@example.com', '=cmd|x', '@SUM(1+1)'])).toBe('+1234@example.com,=cmd|x,@SUM(1+1)');
  });
});

describe('neutraliseFormula', () => {
  it('writes cells a spreadsheet would run as formulas as text (OWASP CSV injection)', () => {
    const cells = ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", '@SUM(1+1)', "-2+3+cmd|' /C calc'!A0", '\t=1', '\r=1'];
    expect(cells.map(neutraliseFormula)).toEqual(cells.map((c) => `'${c}`));
    // Data stays data: signed numbers, and = or @ anywhere but first.
    const data = ['-12.50', '+3', 'a=b', 'ann@example.com', '1-2', ''];
    expect(data.map(neutraliseFormula)).toEqual(data);
  });
});
