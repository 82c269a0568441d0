/**
 * The evaluation as text: Markdown tables, readable in a terminal and in docs/accuracy.md, where
 * the script keeps its own section between two markers and leaves the rest of the file alone.
 */
import { VARIANT_DESCRIPTIONS } from '../../../src/generate/query-variants.js';
import type { EvaluationReport, Rate, TypeScores } from './evaluate-matcher.js';

export const DOCS_BEGIN = '<!-- identity:begin -->';
export const DOCS_END = '<!-- identity:end -->';

/** What `measureAddressAccuracy()` (identity/address/address-accuracy.ts) returns per corpus. */
export interface AddressAccuracy {
  corpus: string;
  rows: number;
  components: { name: string; correct: number; total: number }[];
  /** A fraction, or counts. */
  overall: number | { correct: number; total: number };
}

export function percent(value: number | null): string {
  return value === null ? '—' : `${(value * 100).toFixed(2)} %`;
}

function rateText(r: Rate): string {
  return r.total === 0 ? '—' : `${percent(r.value)} (${r.hits}/${r.total})`;
}

/** A Markdown table with padded columns. */
export function markdownTable(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(3, ...all.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** Individual and Household rows; with a baseline, its rows follow, marked. */
export function summaryTable(report: EvaluationReport, baseline?: EvaluationReport): string {
  const row = (label: string, s: TypeScores) => [label, rateText(s.precision), rateText(s.recall), percent(s.f1)];
  const rows = [row('Individual', report.individual), row('Household', report.household)];
  if (baseline) rows.push(row('Individual, exact lookup', baseline.individual), row('Household, exact lookup', baseline.household));
  return markdownTable(['match type', 'precision', 'recall', 'F1'], rows);
}

/** Counts only where something was missed or wrong: a kind's few misses read as few, not as "0.00 %". */
export function kindTable(report: EvaluationReport): string {
  const p = (r: Rate) => (r.value === null || r.value === 1 ? percent(r.value) : `${percent(r.value)} (${r.hits}/${r.total})`);
  return markdownTable(
    ['kind', 'variants', 'share', 'as expected', 'Ind. precision', 'Ind. recall', 'HH precision', 'HH recall'],
    [...report.kinds]
      .sort((a, b) => b.variants - a.variants)
      .map((k) => [
        k.kind,
        String(k.variants),
        percent(k.variants / report.variants),
        p(k.correct),
        p(k.individual.precision),
        p(k.individual.recall),
        p(k.household.precision),
        p(k.household.recall),
      ])
      .concat([
        [
          'all',
          String(report.variants),
          '100.00 %',
          p(report.correct),
          p(report.individual.precision),
          p(report.individual.recall),
          p(report.household.precision),
          p(report.household.recall),
        ],
      ]),
  );
}

export function failureLines(report: EvaluationReport): string[] {
  return report.failures.map((f) => `${f.kind} ${f.from}: ${f.problems.join('; ')} ← ${JSON.stringify(f.query)}`);
}

function overallValue(o: AddressAccuracy['overall']): number | null {
  if (typeof o === 'number') return o;
  return o.total === 0 ? null : o.correct / o.total;
}

/** Per corpus and component; with a baseline (parse-address alone), its accuracy in a last column. */
export function addressTable(results: readonly AddressAccuracy[], baseline?: readonly AddressAccuracy[]): string {
  const rows: string[][] = [];
  for (const r of results) {
    const base = baseline?.find((b) => b.corpus === r.corpus);
    const of = (c: { correct: number; total: number } | undefined) => (c === undefined || c.total === 0 ? null : c.correct / c.total);
    for (const c of r.components) {
      const row = [r.corpus, c.name, String(c.correct), String(c.total), percent(of(c))];
      if (baseline) row.push(percent(of(base?.components.find((b) => b.name === c.name))));
      rows.push(row);
    }
    const overall = [r.corpus, `overall (${r.rows} rows)`, '', '', percent(overallValue(r.overall))];
    if (baseline) overall.push(base === undefined ? '—' : percent(overallValue(base.overall)));
    rows.push(overall);
  }
  const header = ['corpus', 'component', 'correct', 'total', 'accuracy'];
  return markdownTable(baseline ? [...header, 'parse-address alone'] : header, rows);
}

/** Address-parsing results with the baseline, or why there are none. */
export type AddressSection = { results: readonly AddressAccuracy[]; baseline?: readonly AddressAccuracy[] } | string;

export function addressText(a: AddressSection): string {
  return typeof a === 'string' ? wrap(a) : addressTable(a.results, a.baseline);
}

export interface DocsInput {
  report: EvaluationReport;
  /** The exact lookup's figures on the same queries, for comparison. */
  baseline?: EvaluationReport;
  people: number;
  seed: string;
  perPerson: number;
  matcher: string;
  address: AddressSection;
  /** Postal append by a plain email, the mailbox written another way: the table (evaluate-postal.ts `postalTable`). */
  postal?: string;
}

/** The docs/accuracy.md section, markers included. */
export function docsSection(d: DocsInput): string {
  const command = `npm run eval:identity -- --people ${d.people} --per-person ${d.perPerson} --seed ${d.seed} --write-docs`;
  const intro =
    `Written by \`${command}\` (edit the script, not this section, and rerun it after a matcher change). ` +
    'The figures here come from this run only; the targets below are asserted by ' +
    '`test/evaluation/identity/targets.test.ts`, which runs the same evaluation (import, variants, matcher) on 2,500 ' +
    'people of another seed, holds the `first-initial` kind to the Individual precision target, and each name-form ' +
    'kind to 95 % recall with no wrong Individual, each address-form kind to 97 % with no wrong match, and postal ' +
    'append by mailbox to 99 %. ' +
    `${d.people.toLocaleString('en-US')} generated people (seed \`${d.seed}\`) and the name-form households ` +
    '(`src/generate/name-form-households.ts`: compound and double surnames, particles, and the traps) and the ' +
    'address-form households (`src/generate/address-form-households.ts`: state highways, county roads, rural routes, ' +
    'lettered units, a city of several ZIPs) are imported ' +
    `into a temporary SQLite store by the code \`mailsure import people\` runs; ${d.report.variants.toLocaleString('en-US')} ` +
    `queries with known truth (${d.perPerson} per person, \`src/generate/query-variants.ts\`, and the name forms of ` +
    '`src/generate/name-form-variants.ts` and `src/generate/address-form-variants.ts`) are matched by the ' +
    `${d.matcher}. ` +
    'An Individual match claims the person asked for; a Household match claims somebody else at the same address with ' +
    'the same last name. Definitions are in `test/evaluation/identity/evaluate-matcher.ts`; a query is "as expected" ' +
    'when it got no wrong match and missed nothing expected.' +
    (d.baseline
      ? ' The "exact lookup" rows run the same queries through the lookup enrichment used before the identity matcher ' +
        '(normalised name and address equal, no Household matches).'
      : '');
  const targets =
    'Targets: Individual precision ≥ 99.9 % and recall ≥ 97 %; Household precision ≥ 99 %; postal append by the same ' +
    'mailbox written another way ≥ 99 %.';
  const legend = Object.entries(VARIANT_DESCRIPTIONS).map(([kind, text]) => wrap(`- \`${kind}\`: ${text}.`, '  '));
  return [
    DOCS_BEGIN,
    '## Identity matching (issue: identity)',
    '',
    wrap(intro),
    '',
    wrap(targets),
    '',
    summaryTable(d.report, d.baseline),
    '',
    '### By query variant',
    '',
    kindTable(d.report),
    '',
    'What each kind sends, and whom it expects:',
    '',
    ...legend,
    ...(d.postal === undefined
      ? []
      : [
          '',
          '### Postal append by a plain email',
          '',
          wrap(
            'One of a generated person’s addresses written another way (`src/generate/mailbox-variants.ts`), looked up the ' +
              'way postal append does (`findPeopleByEmail` in `src/people/mailbox-lookup.ts`: as written, then by mailbox). ' +
              'Precision: answers that are the person expected; recall: variants expecting a person that got them. The ' +
              '`mailbox-dots-elsewhere` kind expects nobody (dots make another mailbox there), so any answer to it is wrong ' +
              'unless somebody holds that exact address.',
          ),
          '',
          d.postal,
        ]),
    '',
    '### Address parsing',
    '',
    wrap(
      'Component accuracy of the address parser on the public corpora in `test/fixtures/corpora` ' +
        '(`measureAddressAccuracy()` in `test/evaluation/address/address-accuracy.ts`); where a last column is shown, it is ' +
        'the `parse-address` package (`parseLocation`) alone on the same rows, scored the same way: the baseline ours improves on ' +
        '(it consults parse-address only as a second opinion):',
    ),
    '',
    addressText(d.address),
    DOCS_END,
  ].join('\n');
}

/** Lines of at most `width` characters (a longer word stays whole). */
function wrap(text: string, indent = '', width = 100): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}

/** `doc` with its marked section replaced by `section`, or `section` appended when absent. */
export function replaceMarkedSection(doc: string, section: string): string {
  const begin = doc.indexOf(DOCS_BEGIN);
  const end = doc.indexOf(DOCS_END, begin);
  if (begin !== -1 && end !== -1) return doc.slice(0, begin) + section + doc.slice(end + DOCS_END.length);
  if (begin !== -1 || doc.includes(DOCS_END)) throw new Error(`docs: ${DOCS_BEGIN} and ${DOCS_END} must both appear, in that order`);
  return `${doc.replace(/\n*$/, '')}\n\n${section}\n`;
}
