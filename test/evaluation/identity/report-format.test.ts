import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rate, scores, type EvaluationReport } from './evaluate-matcher.js';
import { loadNicknamePairs } from './nickname-corpus.js';
import {
  addressTable,
  docsSection,
  DOCS_BEGIN,
  DOCS_END,
  kindTable,
  markdownTable,
  percent,
  replaceMarkedSection,
  summaryTable,
} from './report-format.js';

const typeScores = scores(rate(9, 10), rate(3, 4));
const report: EvaluationReport = {
  variants: 4,
  correct: rate(3, 4),
  individual: typeScores,
  household: scores(rate(0, 0), rate(0, 0)),
  kinds: [
    { kind: 'exact', variants: 1, correct: rate(1, 1), individual: typeScores, household: scores(rate(0, 0), rate(0, 0)), failures: [] },
    { kind: 'moved', variants: 3, correct: rate(2, 3), individual: typeScores, household: scores(rate(0, 0), rate(0, 0)), failures: [] },
  ],
  failures: [],
};

describe('report text', () => {
  it('formats percentages and missing values', () => {
    expect([percent(0.98765), percent(1), percent(null)]).toEqual(['98.77 %', '100.00 %', '—']);
  });

  it('pads Markdown tables', () => {
    expect(markdownTable(['a', 'bb'], [['ccc', 'd']])).toBe('| a   | bb  |\n|-----|-----|\n| ccc | d   |');
  });

  it('shows counts in the summary and sorts kinds by size with an "all" row', () => {
    expect(summaryTable(report)).toContain('| Individual | 90.00 % (9/10) | 75.00 % (3/4) | 81.82 % |');
    expect(summaryTable(report)).toMatch(/\| Household +\| — +\| — +\| — +\|/);
    const rows = kindTable(report)
      .split('\n')
      .slice(2)
      .map((r) => r.split('|')[1]!.trim());
    expect(rows).toEqual(['moved', 'exact', 'all']);
  });

  it('gives counts in the kind table only where a rate falls short', () => {
    const moved = kindTable(report).split('\n')[2]!;
    expect(moved).toMatch(/\| 66\.67 % \(2\/3\) +\| 90\.00 % \(9\/10\) +\| 75\.00 % \(3\/4\) +\| — +\| — +\|$/);
    const exact = kindTable(report).split('\n')[3]!;
    expect(exact).toMatch(/^\| exact +\| 1 +\| 25\.00 % +\| 100\.00 % +\|/);
  });

  it('lists address components per corpus, with counts or fractions overall', () => {
    const text = addressTable([
      { corpus: 'usaddress', rows: 2, components: [{ name: 'zip', correct: 1, total: 2 }], overall: 0.5 },
      { corpus: 'parse-address', rows: 3, components: [], overall: { correct: 3, total: 3 } },
    ]);
    expect(text).toContain('| usaddress     | zip              | 1       | 2     | 50.00 %  |');
    expect(text).toContain('| parse-address | overall (3 rows) |');
    expect(text).toContain('100.00 %');
  });

  it('adds the baseline as a last column, matched by corpus and component', () => {
    const ours = [
      {
        corpus: 'c',
        rows: 2,
        components: [
          { name: 'zip', correct: 2, total: 2 },
          { name: 'unit', correct: 1, total: 2 },
        ],
        overall: 0.75,
      },
    ];
    const base = [{ corpus: 'c', rows: 2, components: [{ name: 'zip', correct: 1, total: 2 }], overall: 0.25 }];
    const lines = addressTable(ours, base).split('\n');
    expect(lines[0]).toMatch(/\| parse-address alone \|$/);
    expect(lines[2]).toMatch(/\| 100\.00 % +\| 50\.00 % +\|$/);
    expect(lines[3]).toMatch(/\| 50\.00 % +\| — +\|$/);
    expect(lines[4]).toMatch(/\| 75\.00 % +\| 25\.00 % +\|$/);
  });
});

describe('replaceMarkedSection', () => {
  const section = docsSection({ report, people: 10, seed: 's', perPerson: 1, matcher: 'test matcher', address: 'Not measured.' });

  it('writes a section between the markers', () => {
    expect(section.startsWith(`${DOCS_BEGIN}\n## Identity matching`)).toBe(true);
    expect(section.endsWith(`Not measured.\n${DOCS_END}`)).toBe(true);
  });

  it('appends the section when the markers are absent, and replaces only it later', () => {
    const first = replaceMarkedSection('# Accuracy\n\ntext\n\n', section);
    expect(first).toBe(`# Accuracy\n\ntext\n\n${section}\n`);
    const withTail = `${first}\n## Later\n`;
    const other = docsSection({ report, people: 20, seed: 's', perPerson: 1, matcher: 'other', address: 'None.' });
    const second = replaceMarkedSection(withTail, other);
    expect(second).toBe(`# Accuracy\n\ntext\n\n${other}\n\n## Later\n`);
    expect(replaceMarkedSection(second, other)).toBe(second);
  });

  it('refuses a lone marker', () => {
    expect(() => replaceMarkedSection(`x\n${DOCS_END}\n`, section)).toThrow(/must both appear/);
    expect(() => replaceMarkedSection(`x\n${DOCS_BEGIN}\n`, section)).toThrow(/must both appear/);
  });
});

describe('loadNicknamePairs', () => {
  it('reads name and nickname, lower-cased, and rejects other shapes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nick-'));
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify([{ name: 'Robert', relationship: 'has_nickname', nickname: 'Bob' }]));
    expect(loadNicknamePairs(good)).toEqual([['robert', 'bob']]);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify([{ name: 'Robert' }]));
    expect(() => loadNicknamePairs(bad)).toThrow(/row 0/);
  });
});
