/**
 * How well postal append by a plain email address finds the mailbox written another way
 * (src/generate/mailbox-variants.ts): per kind, precision (answers that are the person expected /
 * answers) and recall (variants expecting a person that got them / such variants). A variant
 * expecting nobody makes any answer wrong.
 */
import type { MailboxVariant } from '../../../src/generate/mailbox-variants.js';
import { rate, type Rate } from './evaluate-matcher.js';

/** Email addresses in, the `personKey` of the person each names out (absent: nobody). */
export type PostalLookup = (emails: readonly string[]) => Promise<ReadonlyMap<string, string>>;

export interface PostalRow {
  kind: string;
  variants: number;
  precision: Rate;
  recall: Rate;
}

export interface PostalReport {
  overall: PostalRow;
  kinds: PostalRow[];
  failures: { kind: string; email: string; expected?: string; got?: string }[];
}

class Tally {
  variants = 0;
  answered = 0;
  right = 0;
  expected = 0;
  found = 0;
}

export async function evaluatePostal(lookup: PostalLookup, variants: Iterable<MailboxVariant>, maxFailures = 10): Promise<PostalReport> {
  const all = [...variants];
  const answers = new Map<string, string>();
  for (let i = 0; i < all.length; i += 1_000) {
    for (const [email, key] of await lookup(all.slice(i, i + 1_000).map((v) => v.email))) answers.set(email, key);
  }
  const overall = new Tally();
  const kinds = new Map<string, Tally>();
  const failures: PostalReport['failures'] = [];
  for (const v of all) {
    let kind = kinds.get(v.kind);
    if (kind === undefined) kinds.set(v.kind, (kind = new Tally()));
    const got = answers.get(v.email);
    for (const t of [overall, kind]) {
      t.variants++;
      if (got !== undefined) t.answered++;
      if (got !== undefined && got === v.expect) t.right++;
      if (v.expect !== undefined) t.expected++;
      if (v.expect !== undefined && got === v.expect) t.found++;
    }
    if (got !== v.expect && failures.length < maxFailures)
      failures.push({ kind: v.kind, email: v.email, ...(v.expect ? { expected: v.expect } : {}), ...(got ? { got } : {}) });
  }
  const row = (kind: string, t: Tally): PostalRow => ({
    kind,
    variants: t.variants,
    precision: rate(t.right, t.answered),
    recall: rate(t.found, t.expected),
  });
  return { overall: row('all', overall), kinds: [...kinds].map(([kind, t]) => row(kind, t)), failures };
}

export function postalTable(report: PostalReport): string {
  const pct = (r: Rate) => (r.value === null ? '—' : `${(r.value * 100).toFixed(2)} % (${r.hits}/${r.total})`);
  const lines = ['| kind | variants | precision | recall |', '|---|---:|---:|---:|'];
  for (const row of [...report.kinds, report.overall])
    lines.push(`| ${row.kind} | ${row.variants} | ${pct(row.precision)} | ${pct(row.recall)} |`);
  return lines.join('\n');
}
