// Shared arithmetic for the corpus tests: load a corpus, compare our ok/not-ok with the
// corpus's expected validity, and report the figures docs/accuracy.md quotes.

import { readFileSync } from 'node:fs';
import { corpusUrl } from '../fixtures/corpora.js';
import { classifySyntax, type SyntaxCode, type SyntaxRule } from '../../src/verification/syntax.js';

/** The public corpora copied into test/fixtures/corpora (sources and licences in its README). */
export function loadCorpus<T>(file: string): T[] {
  return JSON.parse(readFileSync(corpusUrl(file), 'utf8')) as T[];
}

export function readAccuracyDoc(): string {
  return readFileSync(new URL('../../docs/accuracy.md', import.meta.url), 'utf8');
}

export interface ComparedRow {
  address: string;
  expectedValid: boolean;
}

/** Ours for one address: `ok`, or the code and rule of the fault. */
export interface Outcome {
  code: SyntaxCode | 'ok';
  rule: SyntaxRule | null;
}

export interface PinnedDisagreement extends Outcome {
  address: string;
}

/**
 * Rules that reject, as a deliberate public-internet policy, what the RFC grammar allows: address
 * literals, dotless domains, top-level domains outside the root zone (numeric, special-use or not
 * delegated) and provider username rules. The corpora test the grammar alone (isemail files DNS
 * failures under valid; python-email-validator's rows switch DNS off), so a corpus-valid row that
 * we reject by one of these is a policy difference, not a grammar error.
 */
export const POLICY_RULES: ReadonlySet<SyntaxRule> = new Set<SyntaxRule>([
  'domain-literal',
  'dotless-domain',
  'tld-numeric',
  'tld-reserved',
  'tld-unknown',
  'provider-username',
]);

export interface Agreement {
  compared: number;
  agreements: number;
  percent: number;
  disagreements: PinnedDisagreement[];
  /** Corpus-valid rows we reject by a policy rule, left out of the grammar figure. */
  policyOnly: number;
  grammarCompared: number;
  grammarAgreements: number;
  grammarPercent: number;
}

export function outcome(address: string): Outcome {
  const v = classifySyntax(address);
  return v.ok ? { code: 'ok', rule: null } : { code: v.code, rule: v.rule ?? null };
}

export function measure(rows: readonly ComparedRow[]): Agreement {
  let agreements = 0;
  let policyOnly = 0;
  const disagreements: PinnedDisagreement[] = [];
  for (const row of rows) {
    const ours = outcome(row.address);
    if ((ours.code === 'ok') === row.expectedValid) {
      agreements++;
      continue;
    }
    disagreements.push({ address: row.address, ...ours });
    if (row.expectedValid && ours.rule !== null && POLICY_RULES.has(ours.rule)) policyOnly++;
  }
  const grammarCompared = rows.length - policyOnly;
  return {
    compared: rows.length,
    agreements,
    percent: percent(agreements, rows.length),
    disagreements,
    policyOnly,
    grammarCompared,
    grammarAgreements: agreements,
    grammarPercent: percent(agreements, grammarCompared),
  };
}

function percent(part: number, whole: number): number {
  return whole === 0 ? 100 : Math.floor((10000 * part) / whole) / 100;
}

/** The summary row docs/accuracy.md must carry, so the document cannot drift from the code. */
export function summaryRow(name: string, a: Agreement): string {
  return (
    `| ${name} | ${a.compared} | ${a.agreements} | ${a.percent.toFixed(2)} % | ` +
    `${a.policyOnly} | ${a.grammarAgreements}/${a.grammarCompared} | ${a.grammarPercent.toFixed(2)} % |`
  );
}
