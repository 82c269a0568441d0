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
  return events.map((event, index) => planWrite(event, ctx, ctx.verdictOf(index)));
}

function planWrite(event: OutcomeEvent, ctx: PlanContext, verdict: VerdictRecord | undefined): OutcomeWrite {
  const write: OutcomeWrite = { eventId: event.eventId };
  const listed = addressListValue(event.email.trim());
  // An ESP's clock ahead of ours never makes an entry outlive its time, nor removes a later one.
  const at = Math.min(event.occurredAt.getTime(), ctx.now);
  const eventAt = new Date(at).toISOString();
  const day = isoDay(at);
  if ('value' in listed) {
    const value = listed.value;
    const effect = ctx.classify(event);
    if (effect === 'add-bouncer' || effect === 'add-complainer') {
      const kind = effect === 'add-bouncer' ? 'bouncer' : 'complainer';
      write.change = { op: 'add', kind, value, shared: ctx.share, eventAt, expiresAt: new Date(at + ctx.entryDays * DAY_MS).toISOString() };
    } else if (effect === 'remove-outcome-entries') {
      write.change = { op: 'remove', value, eventAt };
    } else {
      write.domainCount = { domain: value.slice(value.lastIndexOf('@') + 1), day, kind: event.kind };
    }
  }
  // Only a verdict given before the event can have predicted it.
  if (verdict && Date.parse(verdict.at) <= event.occurredAt.getTime()) {
    write.accuracy = { day, code: verdict.code, kind: event.kind, source: event.source };
  }
  return write;
}
