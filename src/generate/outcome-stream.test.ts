import { describe, expect, it } from 'vitest';
import { classifyOutcome } from '../outcomes/classify.js';
import type { OutcomeKind } from '../outcomes/outcome-event.js';
import { parseOutcomes } from '../outcomes/parse-outcomes.js';
import { outcomeStream, sendgridBatches, type OutcomeCounts } from './outcome-stream.js';

const stream = outcomeStream({ seed: 'accuracy' });
const byEmail = new Map(stream.verified.map((address) => [address.email, address]));

describe('outcomeStream', () => {
  it('is the same stream for the same seed, another for another seed', () => {
    expect(outcomeStream({ seed: 'accuracy' })).toEqual(stream);
    const other = outcomeStream({ seed: 'other' });
    expect(other.events.map((event) => event.email)).not.toEqual(stream.events.map((event) => event.email));
  });

  it('holds 10,000 events in time order, each verdict given before the first event', () => {
    expect(stream.events).toHaveLength(10_000);
    const times = stream.events.map((event) => event.occurredAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const first = times[0]!;
    expect(stream.verified.every((address) => address.verifiedAt.getTime() < first)).toBe(true);
    expect(new Set(stream.events.map((event) => event.eventId)).size).toBe(10_000);
  });

  it('counts, per verdict code and kind, exactly the events about verified addresses', () => {
    const events: OutcomeCounts = {};
    const addresses = new Map<string, Set<string>>();
    let unverified = 0;
    for (const event of stream.events) {
      const address = byEmail.get(event.email);
      if (!address) {
        unverified++;
        continue;
      }
      events[address.code] ??= { bounce: 0, deferral: 0, blocked: 0, complaint: 0, delivery: 0 };
      events[address.code]![event.kind]++;
      const key = `${address.code}/${event.kind}`;
      addresses.set(key, (addresses.get(key) ?? new Set()).add(event.email));
    }
    expect(stream.expected.events).toEqual(events);
    expect(stream.expected.unverified).toBe(unverified);
    for (const [code, kinds] of Object.entries(stream.expected.addresses))
      for (const [kind, count] of Object.entries(kinds)) expect(count).toBe(addresses.get(`${code}/${kind}`)?.size ?? 0);
  });

  it('has right and wrong verdicts of every class to find, and strangers to leave out', () => {
    for (const code of [5, 20, 45, 50, 400, 410]) {
      const total = Object.values(stream.expected.events[code]!).reduce((sum, count) => sum + count, 0);
      expect(total).toBeGreaterThan(0);
    }
    expect(stream.expected.events[50]!.bounce).toBeGreaterThan(0);
    expect(stream.expected.events[400]!.delivery).toBeGreaterThan(0);
    expect(stream.expected.unverified).toBeGreaterThan(0);
  });

  it('follows each address’s truth: only a mailbox that does not exist ever proves it by a bounce', () => {
    for (const event of stream.events) {
      const address = byEmail.get(event.email);
      if (!address) continue;
      expect(classifyOutcome(event) === 'add-bouncer').toBe(address.truth === 'no-mailbox');
    }
  });
});

describe('sendgridBatches', () => {
  it('posts the stream as SendGrid batches that parse back to the same events', async () => {
    const small = outcomeStream({ seed: 'bench', events: 500 });
    const parsed = [];
    for (const body of sendgridBatches(small.events, 100)) {
      const result = await parseOutcomes(
        'sendgrid',
        { body, contentType: 'application/json', contentTypeHeader: 'application/json', headers: {} },
        {},
        new Date(),
      );
      if (!result.ok) throw new Error(result.refusal.message);
      parsed.push(...result.events);
    }
    const view = (event: { eventId: string; email: string; kind: OutcomeKind; occurredAt: Date }) => [
      event.eventId,
      event.email,
      event.kind,
      event.occurredAt.getTime(),
    ];
    expect(parsed.map(view)).toEqual(small.events.map(view));
    expect(parsed.map(classifyOutcome)).toEqual(small.events.map(classifyOutcome));
  });
});
