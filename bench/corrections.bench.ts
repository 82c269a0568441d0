/**
 * Corrections (suggestCorrections, first suggestion) against mailcheck's Mailcheck.run with its
 * default lists, over the same inputs: every input of the typo-corrections corpus plus generated
 * invalid addresses with the usual slips. We do more per input (syntax repair, ending repair,
 * only verification-ready candidates), so the goal is half of mailcheck's rate.
 * Warm-up, then alternating timed rounds; the best round of each counts.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { suggestCorrections } from '../src/verification/corrections/index.js';
import { compareOps, ROUND_MS, ROUNDS, WARMUP_MS } from './support/compare-ops.js';
import type { BenchResult } from './types.js';
import { corpusUrl } from '../test/fixtures/corpora.js';

interface Mailcheck {
  run(opts: { email: string; suggested: (s: { full: string }) => string; empty: () => null }): string | null;
}
// CommonJS; run() calls the callbacks synchronously and returns their value.
const mailcheck = createRequire(import.meta.url)('mailcheck') as Mailcheck;

function corpusInputs(): string[] {
  const url = corpusUrl('typo_corrections.json');
  return (JSON.parse(readFileSync(url, 'utf8')) as { input: string }[]).map((row) => row.input);
}

/** Addresses with one slip each (white space, @@, doubled dots, mistyped names and endings), deterministic. */
function generatedInvalid(count: number): string[] {
  const names = ['john', 'Jane', 'maria', 'wei', 'olu', 'sven', 'ana', 'info', 'sales', 'testuser'];
  const last = ['smith', 'doe', 'garcia', 'zhang', 'okafor', 'berg', 'o.neil', '2024'];
  const domains = [
    'gmail.com',
    'yahoo.com',
    'hotmail.com',
    'outlook.com',
    'icloud.com',
    'aol.com',
    'comcast.net',
    'hotmail.co.uk',
    'yahoo.com.br',
    'web.de',
    'example.com',
    'company.co.uk',
    'univ.edu',
    'acme-widgets.io',
    'mailbox-ok.com',
  ];
  const slips: ((a: string) => string)[] = [
    (a) => ` ${a}`,
    (a) => `${a} `,
    (a) => a.replace('@', '@@'),
    (a) => a.replace('.', '..'),
    (a) => a.replace('@', ''),
    (a) => `${a}.`,
    (a) => a.replace(/\.com$/, '.cmo'),
    (a) => a.replace(/\.com$/, '.con'),
    (a) => a.replace(/\.([a-z]+)$/, '$1'),
    (a) => a.replace(/@(.)(.)/, '@$2$1'),
    (a) => a.replace(/@(.)/, '@'),
    (a) => a.replace(/(@[a-z]+)/, '$1x'),
    (a) => a.replace(/(@[a-z])[a-z]/, '$1n'),
    (a) => a.replace('.', ','),
    (a) => `<${a}>`,
    (a) => `mailto:${a}`,
  ];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = `${names[i % names.length]}${i % 3 === 0 ? '.' : ''}${last[(i * 7) % last.length]}${i % 11}`;
    const address = `${name}@${domains[(i * 3) % domains.length]}`;
    out.push((slips[(i * 5) % slips.length] as (a: string) => string)(address));
  }
  return out;
}

export default async function run(): Promise<BenchResult> {
  const list = [...corpusInputs(), ...generatedInvalid(3000)];
  const ours = (s: string): string | null => suggestCorrections(s)[0] ?? null;
  const baseline = (s: string): string | null => mailcheck.run({ email: s, suggested: (x) => x.full, empty: () => null });

  const best = compareOps(ours, baseline, list);

  const ratio = best.ours / best.baseline;
  return {
    title: 'Corrections vs mailcheck',
    ours: { label: 'suggestCorrections', value: best.ours, unit: 'ops/s' },
    baseline: { label: 'mailcheck 1.1 Mailcheck.run (default lists)', value: best.baseline, unit: 'ops/s' },
    ratio,
    goal: '≥ 0.5',
    met: ratio >= 0.5,
    notes:
      `suggestCorrections (syntax repair, ending repair, typo search towards popular domains, candidates ` +
      `checked by classifySyntax) vs mailcheck's Mailcheck.run with its default lists, over the same ` +
      `${list.length} inputs (every input of typo_corrections.json plus generated addresses with one slip ` +
      `each); steady state: domains repeat across rounds, as across a list, so our per-domain cache is warm. ` +
      `${WARMUP_MS} ms warm-up each, then ${ROUNDS} alternating rounds of ${ROUND_MS} ms, best round of each.`,
  };
}
