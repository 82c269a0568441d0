import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { delivery, eventsOf, fixtureJson, refusalOf } from '../../test/fixtures/outcomes/load-fixture.js';
import { classifyOutcome } from './classify.js';
import { parseOutcomes } from './parse-outcomes.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const KEY = 'key-3ax6xnjp29jd6fds4gc373sgvjxteol0';

/** A fixture as Mailgun would post it, signed with `key`. */
function signed(name: string, key = KEY): string {
  const body = fixtureJson(name);
  const signature = body.signature as { timestamp: string; token: string; signature: string };
  signature.signature = createHmac('sha256', key)
    .update(signature.timestamp + signature.token)
    .digest('hex');
  return JSON.stringify(body);
}

const parse = (body: string, key?: string) =>
  parseOutcomes('mailgun', delivery(body), key === undefined ? {} : { mailgunSigningKey: key }, NOW);

describe('Mailgun webhooks', () => {
  it.each([
    ['mailgun-failed-permanent.json', 'gone@receiver.example', 'bounce', 'add-bouncer'],
    ['mailgun-failed-temporary.json', 'busy@receiver.example', 'deferral', 'count-only'],
    ['mailgun-failed-suppressed.json', 'earlier@receiver.example', 'blocked', 'count-only'],
    ['mailgun-delivered.json', 'happy@receiver.example', 'delivery', 'remove-outcome-entries'],
    ['mailgun-complained.json', 'annoyed@receiver.example', 'complaint', 'add-complainer'],
  ])('%s: %s is a %s (%s)', async (name, email, kind, effect) => {
    const events = eventsOf(await parse(signed(name), KEY));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ source: 'mailgun', email, kind });
    expect(classifyOutcome(events[0]!)).toBe(effect);
  });

  it('keeps the event id, the reply code, the enhanced status and the time', async () => {
    const [event] = eventsOf(await parse(signed('mailgun-failed-permanent.json'), KEY));
    expect(event).toMatchObject({ eventId: 'G9Bn5sl1TC6nu79C8C0bwg', smtpCode: 550, enhancedStatus: '5.1.1' });
    expect(event!.occurredAt.getTime()).toBe(Math.round(1767225600.2107 * 1000));
  });

  it('keeps no reply code for Mailgun’s own codes (605: not sent to a bounced address)', async () => {
    const [event] = eventsOf(await parse(signed('mailgun-failed-suppressed.json')));
    expect(event!.smtpCode).toBeUndefined();
  });

  it('skips engagement events', async () => {
    const body = { signature: {}, 'event-data': { event: 'opened', id: 'x', recipient: 'a@b.example' } };
    expect(eventsOf(await parse(JSON.stringify(body)))).toEqual([]);
  });

  it('accepts unsigned webhooks when no signing key is set (the URL token alone authenticates)', async () => {
    expect(eventsOf(await parse(JSON.stringify(fixtureJson('mailgun-delivered.json'))))).toHaveLength(1);
  });

  it.each([
    ['signed with another key', () => signed('mailgun-delivered.json', 'key-other')],
    ['unsigned', () => JSON.stringify(fixtureJson('mailgun-delivered.json'))],
    ['without a signature object', () => JSON.stringify({ 'event-data': fixtureJson('mailgun-delivered.json')['event-data'] })],
    ['of another shape altogether', () => '[1, 2, 3]'],
    [
      'with a changed token',
      () => {
        const body = JSON.parse(signed('mailgun-delivered.json')) as { signature: { token: string } };
        body.signature.token = body.signature.token.replace(/^./, '0');
        return JSON.stringify(body);
      },
    ],
  ])('refuses a webhook %s with 401', async (_name, body) => {
    expect(refusalOf(await parse(body(), KEY))).toMatchObject({ status: 401, message: expect.stringMatching(/^Mailgun signature/) });
  });

  it.each([
    ['a legacy form post', 'not json', 400],
    ['an array', '[]', 422],
    ['no event-data', '{"signature":{}}', 422],
    ['event-data without a recipient', '{"event-data":{"event":"failed","id":"x"}}', 422],
  ])('refuses %s', async (_name, body, status) => {
    expect(refusalOf(await parse(body)).status).toBe(status);
  });
});
