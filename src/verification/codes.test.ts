import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOGUE, CODE, CODE_ENTRIES, SYNTAX_CODES } from './codes.js';
import { statusesFor } from './render.js';
import { RULES } from './rules.js';

// The doc's table is what clients read; the catalogue is what the server answers. They must say
// the same thing in both directions, so a code added, dropped or re-statused in one place only
// fails here rather than in a customer's integration.

interface DocRow {
  from: number;
  to: number;
  meaning: string;
  safeToSend: string;
  legacy: string;
  line: string;
}

const DOC = new URL('../../docs/verification.md', import.meta.url);

/** Rows of the "Codes by variant" table: `| 310 | meaning | invalid | invalid |`, or a range `100–215`. */
function docRows(markdown: string): DocRow[] {
  const start = markdown.indexOf('\n## Codes by variant');
  if (start < 0) throw new Error('docs/verification.md has no "Codes by variant" section');
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  const rows: DocRow[] = [];
  for (const line of section.split('\n')) {
    const match = /^\|\s*(\d+)(?:\s*[–-]\s*(\d+))?\s*\|(.*)\|\s*$/.exec(line);
    if (!match) continue;
    const cells = match[3]!.split('|').map((cell) => cell.replaceAll('`', '').trim());
    // The meaning may hold anything but a pipe; the statuses are the last two cells.
    const [safeToSend, legacy] = cells.slice(-2);
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    rows.push({ from, to, meaning: cells.slice(0, -2).join('|'), safeToSend: safeToSend!, legacy: legacy!, line });
  }
  return rows;
}

const rows = docRows(readFileSync(DOC, 'utf8'));
const entries = Object.values(CATALOGUE);
const statusesOf = (e: { safeToSend: string; legacy: string }) => [e.safeToSend, e.legacy];

describe('the code catalogue', () => {
  it('gives every code one name', () => {
    expect(CODE_ENTRIES.size).toBe(entries.length);
    for (const [name, entry] of Object.entries(CATALOGUE)) expect(CODE[name as keyof typeof CODE]).toBe(entry.code);
  });

  it('lists for each code exactly the rules whose catalogue entry gives it, each rule once', () => {
    for (const entry of entries) {
      for (const id of entry.rules) expect(Object.keys(RULES), `code ${entry.code} names ${id}`).toContain(id);
      expect(new Set(entry.rules).size, `code ${entry.code}`).toBe(entry.rules.length);
      const giving = Object.values(RULES).filter((rule) => (rule.codes as readonly number[]).includes(entry.code));
      expect([...entry.rules].sort(), `code ${entry.code}`).toEqual(giving.map((rule) => rule.id).sort());
    }
  });

  it('has every rule give at least one code, every code given by at least one rule', () => {
    for (const rule of Object.values(RULES)) expect(rule.codes.length, rule.id).toBeGreaterThan(0);
    for (const entry of entries) expect(entry.rules.length, `code ${entry.code}`).toBeGreaterThan(0);
  });

  it('is what the renderer answers', () => {
    for (const e of entries) expect(statusesFor(e.code), `code ${e.code}`).toEqual(statusesOf(e));
  });
});

describe('docs/verification.md "Codes by variant" and the catalogue', () => {
  it('reads the table', () => {
    expect(rows.length).toBeGreaterThan(10);
  });

  it('documents each code of a single-code row as the catalogue has it', () => {
    for (const row of rows.filter((r) => r.from === r.to)) {
      const entry = CODE_ENTRIES.get(row.from);
      expect(entry, `the doc's row ${row.line} is not in the catalogue`).toBeDefined();
      expect(statusesOf(entry!), row.line).toEqual(statusesOf(row));
    }
  });

  it('gives a range row the statuses of every catalogued code in it', () => {
    for (const row of rows.filter((r) => r.from !== r.to)) {
      const inRange = entries.filter(
        (e) => e.code >= row.from && e.code <= row.to && !rows.some((r) => r.from === r.to && r.from === e.code),
      );
      expect(inRange.length, `no catalogued code in ${row.line}`).toBeGreaterThan(0);
      for (const e of inRange) expect(statusesOf(e), `code ${e.code} under ${row.line}`).toEqual(statusesOf(row));
    }
  });

  it('documents every catalogued code', () => {
    const undocumented = entries.filter((e) => !rows.some((r) => e.code >= r.from && e.code <= r.to)).map((e) => e.code);
    expect(undocumented).toEqual([]);
  });

  it('keeps the syntax codes exactly the catalogued codes of the syntax range', () => {
    const syntax = rows.find((r) => r.from !== r.to && r.meaning.startsWith('syntax'));
    expect(syntax, 'the syntax row (100–215)').toBeDefined();
    const inRange = entries.filter((e) => e.code >= syntax!.from && e.code <= syntax!.to).map((e) => e.code);
    expect(Object.values(SYNTAX_CODES).map((e) => e.code)).toEqual(inRange);
  });
});
