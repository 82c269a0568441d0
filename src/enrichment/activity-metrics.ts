/**
 * Email activity metrics (api-reference "Email activity metrics") from an address's activity
 * stats: pure, bounded, monotone in the evidence, deterministic. The formulas are written out in
 * docs/enrichment.md.
 */
import { checkedWindows } from '../people/activity-rules.js';
import type { ActivityStats } from '../people/person.js';

export interface EamObject {
  date_first_seen: string;
  longevity: number;
  velocity: number;
  popularity: number;
  month_last_open?: string;
}

const DAY_MS = 86_400_000;

/** Window starts for `statsFor`, from today's date (`YYYY-MM-DD`, UTC); a RangeError for another `today`. */
export function activityWindows(today: string): { since6m: string; since12m: string; since1m: string } {
  // Every request of a day asks for the same windows: date arithmetic once a day, not per call.
  if (lastWindows?.today !== today) {
    lastWindows = {
      today,
      windows: checkedWindows({ since1m: shiftMonths(today, -1), since6m: shiftMonths(today, -6), since12m: shiftMonths(today, -12) }),
    };
  }
  return lastWindows.windows;
}

let lastWindows: { today: string; windows: Readonly<{ since6m: string; since12m: string; since1m: string }> } | undefined;

export function eamFrom(stats: ActivityStats | undefined, today: string, includeMonthLastOpen: boolean): EamObject {
  if (!stats || stats.firstSeen === null) return { date_first_seen: 'now', longevity: 0, velocity: 0, popularity: 0 };
  const windows = activityWindows(today);
  const eam: EamObject = {
    date_first_seen: stats.firstSeen,
    longevity: stats.firstSeen >= windows.since1m ? 1 : stats.firstSeen >= windows.since12m ? 2 : 3,
    velocity: velocityScore(stats.events6m),
    popularity: Math.min(10, stats.sources12m),
  };
  if (includeMonthLastOpen && stats.lastOpen12m) eam.month_last_open = stats.lastOpen12m.slice(0, 7);
  return eam;
}

/**
 * 0 for no events in six months; otherwise 1–10, rising with diminishing returns:
 * round(10 × (1 − e^(−events/8))), at least 1. Eight events give 6, sixteen 9, twenty-four 10.
 */
export function velocityScore(events6m: number): number {
  if (events6m <= 0) return 0;
  return Math.max(1, Math.min(10, Math.round(10 * (1 - Math.exp(-events6m / 8)))));
}

/**
 * The 0–10 engagement score /v5/ev reports for deliverable addresses: recent activity weighs
 * most, then the breadth of sources, then age. Undefined for an address never seen: no data, no
 * score (it is never invented).
 */
export function engagementScore(stats: ActivityStats | undefined, today: string): number | undefined {
  if (!stats || stats.firstSeen === null) return undefined;
  const eam = eamFrom(stats, today, false);
  const longevity10 = (eam.longevity / 3) * 10;
  return Math.round(0.5 * eam.velocity + 0.3 * eam.popularity + 0.2 * longevity10);
}

function shiftMonths(day: string, months: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
  // Clamp to the target month's last day (31 March − 1 month → 28/29 February).
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return target.toISOString().slice(0, 10);
}

export function todayUtc(nowMs: number): string {
  const day = Math.floor(nowMs / DAY_MS);
  if (lastDay?.day !== day) lastDay = { day, text: new Date(day * DAY_MS).toISOString().slice(0, 10) };
  return lastDay.text;
}

let lastDay: { day: number; text: string } | undefined;
