/**
 * Mailsure's measured accuracy on the operator's own mail, pure: the outcomes ESPs reported after
 * verdicts we gave (outcome-store.ts's accuracy counts), summed per verdict class and outcome
 * kind over a rolling window, in all and per ESP. Its bias: senders rarely mail what we called
 * invalid, so it measures the valid and unknown verdicts best (README, docs/outcomes.md).
 */
import { statusesFor } from '../verification/render.js';
import type { OutcomeKind, OutcomeSource } from './outcome-event.js';
import type { AccuracyCount } from './outcome-store.js';

/** The verdict classes the report shows: 50 (mailbox accepted), 45 (catch-all), 20 (domain OK), 5 (no answer), every invalid code, and the rest. */
export const VERDICT_CLASSES = ['50', '45', '20', '5', 'invalid', 'other'] as const;
export type VerdictClass = (typeof VERDICT_CLASSES)[number];

export const OUTCOME_KINDS: readonly OutcomeKind[] = ['bounce', 'deferral', 'blocked', 'complaint', 'delivery'];

/** Default rolling window of the report: 30 days. */
export const DEFAULT_ACCURACY_DAYS = 30;

export function verdictClass(code: number): VerdictClass {
  if (code === 50 || code === 45 || code === 20 || code === 5) return String(code) as VerdictClass;
  return statusesFor(code)[0] === 'invalid' ? 'invalid' : 'other';
}

export type KindCounts = Record<OutcomeKind, number>;

export interface AccuracyReport {
  /** First day counted (`YYYY-MM-DD`). */
  since: string;
  /** Per verdict class, the outcomes of each kind (every class and kind present, zero when none). */
  classes: Record<VerdictClass, KindCounts>;
  /** The same per ESP that reported them (only those that reported any). */
  bySource: Partial<Record<OutcomeSource, Record<VerdictClass, KindCounts>>>;
  total: number;
}

const zeroKinds = (): KindCounts => ({ bounce: 0, deferral: 0, blocked: 0, complaint: 0, delivery: 0 });
const zeroClasses = (): Record<VerdictClass, KindCounts> =>
  Object.fromEntries(VERDICT_CLASSES.map((c) => [c, zeroKinds()])) as Record<VerdictClass, KindCounts>;

export function accuracyReport(counts: readonly AccuracyCount[], since: string): AccuracyReport {
  const report: AccuracyReport = { since, classes: zeroClasses(), bySource: {}, total: 0 };
  for (const row of counts) {
    if (row.day < since) continue;
    const cls = verdictClass(row.code);
    report.classes[cls][row.kind] += row.count;
    (report.bySource[row.source] ??= zeroClasses())[cls][row.kind] += row.count;
    report.total += row.count;
  }
  return report;
}

/** The first day of a window of `days` days ending today (`now` in ms). */
export function windowStart(now: number, days: number): string {
  return new Date(now - (days - 1) * 86_400_000).toISOString().slice(0, 10);
}
