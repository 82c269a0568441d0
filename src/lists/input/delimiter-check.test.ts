import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { suspectDelimiter } from './delimiter-check.js';

const DELIMITERS = [',', '\t', ';', '|'] as const;

/** A cell written as a CSV writer writes it: quoted when it holds the delimiter or a quote. */
const quote = (cell: string, d: string) => (cell.includes(d) || cell.includes('"') ? `"${cell.replaceAll('"', '""')}"` : cell);
const write = (rows: readonly (readonly string[])[], d: string) =>
  rows.map((row) => row.map((cell) => quote(cell, d)).join(d)).join('\n') + '\n';

describe('suspectDelimiter', () => {
  it('spots tab data in a .csv even when its notes hold commas', () => {
    const text =
      'email\tname\tnotes\nann@example.com\tAnn\tcall after 5, not before\nbob@example.com\tBob\tVIP\ncy@example.com\tCy\ta, b, c\n';
    expect(suspectDelimiter(text, true, ',')).toBe('\t');
  });

  it('keeps a comma CSV whose cells hold tabs', () => {
    const text = 'email,name,notes\nann@example.com,Ann,"a\tb"\nbob@example.com,Bob,c\td\ncy@example.com,Cy,\n';
    expect(suspectDelimiter(text, true, ',')).toBeUndefined();
  });

  it('keeps a tab file whose names hold commas', () => {
    const text = 'email\tname\nann@example.com\tLee, Ann\nbob@example.com\tBob\n';
    expect(suspectDelimiter(text, true, '\t')).toBeUndefined();
  });

  it('spots a semicolon CSV whose amounts hold decimal commas', () => {
    expect(suspectDelimiter('email;amount\nann@example.com;12,50\nbob@example.com;3,00\n', true, ',')).toBe(';');
  });

  it('spots another delimiter by the column names when there are no addresses', () => {
    const text = 'first\tlast\tstreet\tcity\tstate\nAnn\tLee\t1 Main St, Apt 2\tAustin\tTX\nBob\tRay\t2 Elm St\tDallas\tTX\n';
    expect(suspectDelimiter(text, true, ',')).toBe('\t');
  });

  it('spots a consistent other delimiter when the default splits nothing', () => {
    expect(suspectDelimiter('a;b;c\nd;e;f\n', true, ',')).toBe(';');
    expect(suspectDelimiter('a|b\nc|d\n', true, ',')).toBe('|');
    expect(suspectDelimiter('a@b.com\nc@d.com\n', true, ',')).toBeUndefined();
    expect(suspectDelimiter('a;b\nc\n', true, ',')).toBeUndefined();
    expect(suspectDelimiter('a;b\n', true, ';')).toBeUndefined();
    expect(suspectDelimiter('', true, ',')).toBeUndefined();
  });

  it('reads only whole rows of a file cut short', () => {
    // The cut falls inside a quote the comma reading would leave open: the rows before it still count.
    expect(suspectDelimiter('email\tname\nann@example.com\tAnn\nbob@example.com\t"Bo', false, ',')).toBe('\t');
  });

  // Tables as real exports write them: a column of addresses, other cells that may hold any of
  // the common delimiters (quoted when they hold the file's own), maybe a header.
  const word = fc.string({ unit: fc.constantFrom('a', 'b', ' ', ',', '\t', ';', '|', '"', '1', '-'), maxLength: 8 });
  const address = fc
    .tuple(fc.stringMatching(/^[a-z0-9.+]{1,8}$/), fc.constantFrom('example.com', 'x.org', 'mail.co.uk'))
    .map(([l, d]) => `${l}@${d}`);
  const table = fc
    .record({
      width: fc.integer({ min: 2, max: 5 }),
      emailAt: fc.nat(),
      rows: fc.integer({ min: 1, max: 30 }),
      header: fc.boolean(),
    })
    .chain(({ width, emailAt, rows, header }) =>
      fc.record({
        head: fc.constant(header ? ['Email', ...Array.from({ length: width - 1 }, (_, i) => `Notes ${i + 1}`)] : undefined),
        body: fc.array(fc.tuple(address, fc.array(word, { minLength: width - 1, maxLength: width - 1 })), {
          minLength: rows,
          maxLength: rows,
        }),
        at: fc.constant(emailAt % width),
      }),
    )
    .map(({ head, body, at }) => {
      const rows = body.map(([email, others]) => [...others.slice(0, at), email, ...others.slice(at)]);
      if (head) rows.unshift([...head.slice(1, at + 1), head[0]!, ...head.slice(at + 1)]);
      return rows;
    });

  it('never refuses a table read with its own delimiter', () => {
    fc.assert(
      fc.property(table, fc.constantFrom(...DELIMITERS), (rows, d) => {
        expect(suspectDelimiter(write(rows, d), true, d)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('names the table’s delimiter when read with another', () => {
    fc.assert(
      fc.property(table, fc.constantFrom(...DELIMITERS), fc.constantFrom(...DELIMITERS), (rows, d, given) => {
        fc.pre(d !== given);
        expect(suspectDelimiter(write(rows, d), true, given)).toBe(d);
      }),
      { numRuns: 500 },
    );
  });
});
