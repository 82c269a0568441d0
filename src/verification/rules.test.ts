import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CODE_ENTRIES } from './codes.js';
import { RULES, ruleDoc, syntaxRule } from './rules.js';
import { classifySyntax } from './syntax.js';

const DOC = new URL('../../docs/verification.md', import.meta.url);

/** Rows of the doc's "Rules" table: id, codes, meaning; and the anchor each row carries. */
function docRows(markdown: string) {
  const start = markdown.indexOf('\n## Rules');
  if (start < 0) throw new Error('docs/verification.md has no "Rules" section');
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown
    .slice(start, end)
    .split('\n')
    .map((line) => /^\| <a id="([^"]+)"><\/a>`([^`]+)` \| ([\d, ]+) \| (.*) \|$/.exec(line))
    .filter((m) => m !== null)
    .map((m) => ({ anchor: m[1]!, id: m[2]!, codes: m[3]!.split(', ').map(Number), summary: m[4]!.replaceAll('\\|', '|') }));
}

describe('the rule catalogue', () => {
  it('is the doc’s Rules table, row for row, each row the anchor its rule_doc links to', () => {
    const rows = docRows(readFileSync(DOC, 'utf8'));
    expect(rows.map((r) => r.id)).toEqual(Object.keys(RULES));
    for (const row of rows) {
      const rule = RULES[row.id as keyof typeof RULES];
      expect({ codes: row.codes, summary: row.summary }).toEqual({ codes: [...rule.codes], summary: rule.summary });
      expect(ruleDoc(row.id as keyof typeof RULES)).toBe(`docs/verification.md#${row.anchor}`);
    }
  });

  it('is applied in the stages: verify-service.ts names no code and no rule', () => {
    const service = readFileSync(new URL('./verify-service.ts', import.meta.url), 'utf8');
    expect(service).not.toMatch(/\bCODE\./);
    for (const id of Object.keys(RULES)) expect(service, id).not.toContain(`'${id}'`);
  });

  it('names only codes the code catalogue has, ids in the one scheme', () => {
    for (const [id, rule] of Object.entries(RULES)) {
      expect(rule.id).toBe(id);
      expect(id).toMatch(/^[a-z-]+\.[a-z-]+$/);
      for (const code of rule.codes) expect(CODE_ENTRIES.has(code), `${id}: ${code}`).toBe(true);
    }
  });

  it('gives each syntax fault the code the syntax stage gives it (property)', () => {
    const alphabet = fc.constantFrom(
      ...'ab.@ "\\-_+é\u0000\t1x'.split(''),
      '..',
      '@@',
      'a'.repeat(70),
      '.com',
      '.invalid',
      '[1.2.3.4]',
      'xn--',
      '-',
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 12 }), (parts) => {
        const verdict = classifySyntax(parts.join(''));
        if (verdict.ok) return;
        expect(RULES[syntaxRule(verdict.rule)].codes).toContain(verdict.code);
      }),
      { numRuns: 3000 },
    );
  });
});
