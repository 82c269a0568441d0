// validator.js isEmail, test/validators.test.js. Only the default-option rows are compared: the
// other blocks ask other questions (display names, host allow/deny lists, blacklisted
// characters, IP domains, no length limit). Disagreements are pinned and explained in
// docs/accuracy.md.

import { describe, expect, it } from 'vitest';
import { classifySyntax, type SyntaxCode, type SyntaxRule } from '../../src/verification/syntax.js';
import { loadCorpus, measure, readAccuracyDoc, summaryRow } from './agreement.js';

interface ValidatorRow {
  address: string;
  valid: boolean;
  options: Record<string, unknown>;
  test: string;
  line: number;
}

type Pinned = readonly [address: string, code: SyntaxCode | 'ok', rule: SyntaxRule | null];

// All policy: Gmail usernames are 6–30 letters, digits and dots; validator.js checks that only
// with domain_specific_validation, and its own rows under that option agree with us.
const PINNED: readonly Pinned[] = [
  ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@gmail.com', 125, 'provider-username'],
  ['test@gmail.com', 125, 'provider-username'],
  ['test.1@gmail.com', 125, 'provider-username'],
];

describe('validator.js isEmail corpus (default options)', () => {
  const rows = loadCorpus<ValidatorRow>('validatorjs_isemail_cases.json').filter((r) => Object.keys(r.options).length === 0);
  const result = measure(rows.map((r) => ({ address: r.address, expectedValid: r.valid })));

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

  it('agrees on the RFC grammar for every compared row', () => {
    expect(result.grammarPercent).toBe(100);
  });

  it('has its figures quoted in docs/accuracy.md', () => {
    expect(readAccuracyDoc()).toContain(summaryRow('validator.js', result));
  });
});
