// python-email-validator (JoshData), tests/test_syntax.py. Rows are compared when their options
// cannot change python's answer relative to our policy (see python-options.ts); every
// disagreement is pinned with our code and rule, and explained in docs/accuracy.md.

import { describe, expect, it } from 'vitest';
import { classifySyntax, type SyntaxCode, type SyntaxRule } from '../../src/verification/syntax.js';
import { loadCorpus, measure, readAccuracyDoc, summaryRow } from './agreement.js';
import { isComparable, type PythonOptions } from './python-options.js';

interface PythonRow {
  address: string;
  valid: boolean;
  test: string;
  options: PythonOptions;
  expected_error: string | null;
}

type Pinned = readonly [address: string, code: SyntaxCode | 'ok', rule: SyntaxRule | null];

// All policy: python's syntax tests use made-up TLDs (`.tld`, `.ψομ`…) with DNS checks off.
const PINNED: readonly Pinned[] = [
  ['Abc@example.tld', 200, 'tld-unknown'],
  ['user+mailbox/department=shipping@example.tld', 200, 'tld-unknown'],
  ["!#$%&'*+-/=?^_`.{|}~@example.tld", 200, 'tld-unknown'],
  ['伊昭傑@郵件.商務', 200, 'tld-unknown'],
  ['राम@मोहन.ईन्फो', 200, 'tld-unknown'],
  ['θσερ@εχαμπλε.ψομ', 200, 'tld-unknown'],
  ['ñoñó@example.tld', 200, 'tld-unknown'],
  ['我買@example.tld', 200, 'tld-unknown'],
  ['甲斐黒川日本@example.tld', 200, 'tld-unknown'],
  ['чебурашкаящик-с-апельсинами.рф@example.tld', 200, 'tld-unknown'],
  ['उदाहरण.परीक्ष@domain.with.idn.tld', 200, 'tld-unknown'],
];

/** What the README calls default options: none, or only check_deliverability/test_environment. */
const isDefault = (o: PythonOptions): boolean => Object.keys(o).every((k) => k === 'check_deliverability' || k === 'test_environment');

describe('python-email-validator corpus', () => {
  const rows = loadCorpus<PythonRow>('python_email_validator_cases.json');
  const compared = rows.filter((r) => isComparable(r.address, r.valid, r.options));
  const result = measure(compared.map((r) => ({ address: r.address, expectedValid: r.valid })));

  it('disagrees with the corpus on exactly the pinned rows', () => {
    expect(result.disagreements).toEqual(PINNED.map(([address, code, rule]) => ({ address, code, rule })));
  });

  it.each(PINNED.map(([address, code, rule]) => ({ address, code, rule })))(
    '$address: our verdict is $code ($rule)',
    ({ address, code, rule }) => {
      const v = classifySyntax(address);
      if (code === 'ok') expect(v.ok).toBe(true);
      else expect(v).toMatchObject({ ok: false, code, rule });
    },
  );

  // Raw agreement cannot reach 98 %: 11 of python's valid rows use TLDs that are not delegated.
  it('agrees on the RFC grammar for at least 98 % of the compared rows', () => {
    expect(result.grammarPercent).toBeGreaterThanOrEqual(98);
  });

  it('has its figures and row selection quoted in docs/accuracy.md', () => {
    const defaults = rows.filter((r) => isDefault(r.options));
    const comparedDefaults = compared.filter((r) => isDefault(r.options)).length;
    const doc = readAccuracyDoc();
    expect(doc).toContain(summaryRow('python-email-validator', result));
    expect(doc).toContain(
      `${compared.length} of ${rows.length} rows compared: ${comparedDefaults} of the ${defaults.length} default-option rows ` +
        `and ${compared.length - comparedDefaults} of the ${rows.length - defaults.length} rows with other options.`,
    );
  });
});
