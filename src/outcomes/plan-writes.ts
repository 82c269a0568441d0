/**
 * What each parsed event writes, pure: classification's effect on the key's lists (an entry with
 * its expiry, or the removal of outcome entries), the per-domain count of events that change no
 * list, and the accuracy count when the key was given a verdict for the address before the event.
 */
import { isoDay } from '../core/clock.js';
import { addressListValue } from '../verification/list-value.js';
import type { OutcomeEffect, OutcomeEvent } from './outcome-event.js';
import type { OutcomeWrite } from './outcome-store.js';
import type { VerdictRecord } from './verdict-record-store.js';

/** How long an outcome entry counts after its event: 180 days, then the address may be mailed (and bounce) again. */
export const DEFAULT_ENTRY_DAYS = 180;
const DAY_MS = 86_400_000;

export interface PlanContext {
  now: number;
  /** The key's outcomes may count for other keys (when corroborated). */
  share: boolean;
  entryDays: number;
  classify: (event: OutcomeEvent) => OutcomeEffect;
  /** The verdict the key was given for the event's address, by the event's index. */
  verdictOf: (index: number) => VerdictRecord | undefined;
}

export function planWrites(events: readonly OutcomeEvent[], ctx: PlanContext): OutcomeWrite[] {
  // A body's events fall on a few days: each day's string is made once, not once per event.
  const days = new Map<number, string>();
  const dayOf = (at: number) => {
    const number = Math.floor(at / DAY_MS);
    let day = days.get(number);
    if (day === undefined) days.set(number, (day = isoDay(at)));
    return day;
  };
  return events.map((event, index) => planWrite(event, ctx, ctx.verdictOf(index), dayOf));
}

function planWrite(event: OutcomeEvent, ctx: PlanContext, verdict: VerdictRecord | undefined, dayOf: (at: number) => string): OutcomeWrite {
  const write: OutcomeWrite = { eventId: event.eventId };
  const listed = addressListValue(event.email.trim());
  const occurredAt = event.occurredAt.getTime();
  // An ESP's clock ahead of ours never makes an entry outlive its time, nor removes a later one.
  const at = Math.min(occurredAt, ctx.now);
  if ('value' in listed) {
    const value = listed.value;
    const effect = ctx.classify(event);
    if (effect === 'add-bouncer' || effect === 'add-complainer') {
      const kind = effect === 'add-bouncer' ? 'bouncer' : 'complainer';
      const eventAt = new Date(at).toISOString();
      write.change = { op: 'add', kind, value, shared: ctx.share, eventAt, expiresAt: new Date(at + ctx.entryDays * DAY_MS).toISOString() };
    } else if (effect === 'remove-outcome-entries') {
      write.change = { op: 'remove', value, eventAt: new Date(at).toISOString() };
    } else {
      write.domainCount = { domain: value.slice(value.lastIndexOf('@') + 1), day: dayOf(at), kind: event.kind };
    }
  }
  // Only a verdict given before the event can have predicted it.
  if (verdict && Date.parse(verdict.at) <= occurredAt) {
    write.accuracy = { day: dayOf(at), code: verdict.code, kind: event.kind, source: event.source };
  }
  return write;
}
