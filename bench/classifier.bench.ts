/**
 * The syntax classifier against validator.js isEmail (default options) over the same mixed list:
 * every address of the public corpora plus generated everyday addresses, valid and broken.
 * Warm-up, then alternating timed rounds; the best round of each counts, which damps noise from
 * other processes on a small machine.
 */
import { readFileSync } from 'node:fs';
import validator from 'validator';
import { classifySyntax } from '../src/verification/syntax.js';
import { compareOps, ROUND_MS, ROUNDS, WARMUP_MS } from './support/compare-ops.js';
import type { BenchResult } from './types.js';
import { corpusUrl } from '../test/fixtures/corpora.js';

function corpusAddresses(): string[] {
  const files = [
    'isemail_tests.json',
    'isemail_tests_original.json',
    'python_email_validator_cases.json',
    'validatorjs_isemail_cases.json',
  ];
  const out: string[] = [];
  for (const file of files) {
    const rows = JSON.parse(readFileSync(corpusUrl(file), 'utf8')) as { address: string }[];
    for (const row of rows) out.push(row.address);
  }
  return out;
}

/** Everyday traffic: mostly valid, with the usual typos, deterministic (no Math.random). */
function generatedAddresses(count: number): string[] {
  const first = ['john', 'Jane', 'maria', 'wei', 'olu', 'sven', 'ana', 'r', 'info', 'sales'];
  const last = ['smith', 'doe', 'garcia', 'zhang', 'okafor', 'berg', 'müller', 'o.neil', '2024', 'x'];
  const domains = [
    'gmail.com',
    'yahoo.com',
    'outlook.com',
    'example.com',
    'company.co.uk',
    'univ.edu',
    'mail.example.org',
    'bücher.de',
    'icloud.com',
    'aol.com',
  ];
  const breakers = [
    (a: string) => a,
    (a: string) => a,
    (a: string) => a,
    (a: string) => ` ${a}`,
    (a: string) => a.replace('@', '@@'),
    (a: string) => a.replace('.', '..'),
    (a: string) => a.replace('@', ''),
    (a: string) => `${a}.`,
    (a: string) => a.replace('.com', '.cmo'),
    (a: string) => a.replace('@', ' @'),
  ];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = `${first[i % first.length]}${i % 3 === 0 ? '.' : ''}${last[(i * 7) % last.length]}${i % 5 === 0 ? '+news' : ''}`;
    const address = `${name}@${domains[(i * 3) % domains.length]}`;
    out.push((breakers[(i * 11) % breakers.length] as (a: string) => string)(address));
  }
  return out;
}

export default async function run(): Promise<BenchResult> {
  // isEmail throws on lone surrogates (encodeURI); those rows are left out for both sides.
  const list = [...corpusAddresses(), ...generatedAddresses(2000)].filter((s) => {
    try {
      validator.isEmail(s);
      return true;
    } catch {
      return false;
    }
  });
  const ours = (s: string): boolean => classifySyntax(s).ok;
  const baseline = (s: string): boolean => validator.isEmail(s);

  const best = compareOps(ours, baseline, list);

  const ratio = best.ours / best.baseline;
  return {
    title: 'Syntax classifier vs validator.js isEmail',
    ours: { label: 'classifySyntax', value: best.ours, unit: 'ops/s' },
    baseline: { label: 'validator.js isEmail (default options)', value: best.baseline, unit: 'ops/s' },
    ratio,
    goal: '≥ 1.0',
    met: ratio >= 1,
    notes:
      `classifySyntax (full verdict: standardized address, IDNA, TLD, provider and role checks) vs validator.js ` +
      `isEmail with default options, over the same ${list.length} addresses (the four public corpora plus generated ` +
      `everyday addresses, a third of them broken; rows on which isEmail throws left out); ${WARMUP_MS} ms warm-up each, then ${ROUNDS} alternating rounds of ` +
      `${ROUND_MS} ms, best round of each.`,
  };
}
