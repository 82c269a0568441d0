import { describe, expect, it } from 'vitest';
import { delivery, eventsOf, fixture, refusalOf } from '../../test/fixtures/outcomes/load-fixture.js';
import { classifyOutcome } from './classify.js';
import { parseOutcomes } from './parse-outcomes.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const parse = (body: Buffer | string) => parseOutcomes('sparkpost', delivery(body), {}, NOW);

describe('SparkPost webhooks', () => {
  it('reads each kind by its bounce class and skips auto-replies and engagement', async () => {
    const events = eventsOf(await parse(fixture('sparkpost-events.json')));
    expect(events.map((event) => [event.email, event.kind, classifyOutcome(event)])).toEqual([
      ['gone@receiver.example', 'bounce', 'add-bouncer'],
      ['listed@receiver.example', 'blocked', 'count-only'],
      ['full@receiver.example', 'deferral', 'count-only'],
      ['happy@receiver.example', 'delivery', 'remove-outcome-entries'],
      ['annoyed@receiver.example', 'complaint', 'add-complainer'],
      ['again@receiver.example', 'blocked', 'count-only'],
      ['late@receiver.example', 'bounce', 'add-bouncer'],
    ]);
    expect(events[0]).toMatchObject({
      eventId: '92356927693813856',
      smtpCode: 550,
      enhancedStatus: '5.1.1',
      occurredAt: new Date(1767226000 * 1000),
    });
  });

  it('answers SparkPost’s test batch with no event', async () => {
    expect(eventsOf(await parse('[{"msys":{}}]'))).toEqual([]);
  });

  it.each([
    ['an object', '{"msys":{}}'],
    ['an item without msys', '[{"type":"bounce"}]'],
    ['an event without a type', '[{"msys":{"message_event":{"rcpt_to":"a@b.example"}}}]'],
    ['a delivery without rcpt_to', '[{"msys":{"message_event":{"type":"delivery","event_id":"1"}}}]'],
    ['a delivery without event_id', '[{"msys":{"message_event":{"type":"delivery","rcpt_to":"a@b.example"}}}]'],
  ])('refuses %s with 422', async (_name, body) => {
    expect(refusalOf(await parse(body)).status).toBe(422);
  });
});
