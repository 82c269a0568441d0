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
        const guarded = rows.map((r) => r.map(neutraliseFormula));
        expect(rows.map((r) => `${text.join(r)}\n`).join('')).toBe(stringify(guarded, { delimiter: d }));
      }),
      { numRuns: 2000 },
    );
  });

  it('quotes only where needed', () => {
    const text = csvText(',');
    expect(text.join(['a', '', 'b,c', 'say "hi"', 'x\ny', ' padded '])).toBe('a,,"b,c","say ""hi""","x\ny", padded ');
    expect(csvText('\t').join(['a,b', 'c\td'])).toBe('a,b\t"c\td"');
  });

  it('writes cells a spreadsheet would run as formulas as text (OWASP CSV injection)', () => {
    const text = csvText(',');
    const cells = ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", '@SUM(1+1)', "-2+3+cmd|' /C calc'!A0", '\t=1', '\r=1'];
    const written = [`"'=HYPERLINK(""http://x"",""y"")"`, "'+cmd|' /C calc'!A0", "'@SUM(1+1)", "'-2+3+cmd|' /C calc'!A0", "'\t=1", `"'\r=1"`];
    expect(text.join(cells)).toBe(written.join(','));
    // Data stays data: signed numbers, and = or @ anywhere but first.
    expect(text.join(['-12.50', '+3', 'a=b', 'ann@example.com', '1-2'])).toBe('-12.50,+3,a=b,ann@example.com,1-2');
  });
});
