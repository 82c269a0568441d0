import { describe, expect, it } from 'vitest';
import { delivery, eventsOf, fixture, refusalOf } from '../../test/fixtures/outcomes/load-fixture.js';
import { classifyOutcome } from './classify.js';
import type { OutcomeSecrets } from './outcome-event.js';
import { parseOutcomes } from './parse-outcomes.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const basic = (credentials: string) => ({ authorization: `Basic ${Buffer.from(credentials).toString('base64')}` });
const parse = (body: Buffer | string, secrets: OutcomeSecrets = {}, headers: Record<string, string> = {}) =>
  parseOutcomes('postmark', delivery(body, 'application/json', headers), secrets, NOW);

describe('Postmark webhooks', () => {
  it.each([
    ['postmark-hard-bounce.json', 'gone@receiver.example', 'bounce', 'add-bouncer'],
    ['postmark-hard-bounce-generic.json', 'unclear@receiver.example', 'bounce', 'count-only'],
    ['postmark-soft-bounce.json', 'busy@receiver.example', 'deferral', 'count-only'],
    ['postmark-spam-complaint.json', 'annoyed@receiver.example', 'complaint', 'add-complainer'],
    ['postmark-delivery.json', 'happy@receiver.example', 'delivery', 'remove-outcome-entries'],
  ])('%s: %s is a %s (%s)', async (name, email, kind, effect) => {
    const events = eventsOf(await parse(fixture(name)));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ source: 'postmark', email, kind });
    expect(classifyOutcome(events[0]!)).toBe(effect);
  });

  it('keeps a bounce id of 64 bits exactly (a JSON number would round it)', async () => {
    const [hard] = eventsOf(await parse(fixture('postmark-hard-bounce.json')));
    const [soft] = eventsOf(await parse(fixture('postmark-soft-bounce.json')));
    expect(hard!.eventId).toBe('Bounce:4323372036854775807');
    expect(soft!.eventId).toBe('Bounce:4323372036854775806');
  });

  it('reads the reply from Details, never from Postmark’s description of the bounce type', async () => {
    const [generic] = eventsOf(await parse(fixture('postmark-hard-bounce-generic.json')));
    expect(generic!.diagnostic).toBeUndefined();
    const [hard] = eventsOf(await parse(fixture('postmark-hard-bounce.json')));
    expect(hard).toMatchObject({ smtpCode: 550, enhancedStatus: '5.1.1', occurredAt: new Date('2026-01-17T12:00:00.123Z') });
  });

  it('names a delivery by its message and recipient (a delivery record has no id)', async () => {
    const [event] = eventsOf(await parse(fixture('postmark-delivery.json')));
    expect(event!.eventId).toBe('Delivery:6d5b1a7e-9fa2-4dc4-be5f-6a7b8c9d0e1f:happy@receiver.example');
  });

  it.each(['AutoResponder', 'Subscribe', 'AddressChange', 'ChallengeVerification'])('skips a %s bounce (not an outcome)', async (type) => {
    const body = { RecordType: 'Bounce', ID: 1, Type: type, Email: 'a@b.example' };
    expect(eventsOf(await parse(JSON.stringify(body)))).toEqual([]);
  });

  it('skips opens and clicks', async () => {
    expect(eventsOf(await parse(JSON.stringify({ RecordType: 'Open', Recipient: 'a@b.example' })))).toEqual([]);
  });

  it('accepts the operator’s basic-auth credentials', async () => {
    const result = await parse(fixture('postmark-delivery.json'), { postmarkBasicAuth: 'hooks:s3cret' }, basic('hooks:s3cret'));
    expect(eventsOf(result)).toHaveLength(1);
  });

  it.each([
    ['no credentials', {}],
    ['other credentials', basic('hooks:guess')],
    ['a longer password', basic('hooks:s3cret!')],
    ['another scheme', { authorization: 'Bearer s3cret' }],
  ])('refuses %s with 401, before reading the body', async (_name, headers) => {
    const refusal = refusalOf(await parse('not even json', { postmarkBasicAuth: 'hooks:s3cret' }, headers));
    expect(refusal).toMatchObject({ status: 401, message: expect.stringMatching(/^Postmark basic auth/) });
  });

  it.each([
    ['no RecordType', '{"Type":"HardBounce","Email":"a@b.example"}', 422],
    ['an array', '[]', 422],
    ['a bounce without an ID', '{"RecordType":"Bounce","Type":"HardBounce","Email":"a@b.example"}', 422],
    ['a bounce without an Email', '{"RecordType":"Bounce","Type":"HardBounce","ID":5}', 422],
    ['broken JSON', '{"RecordType":', 400],
  ])('refuses %s', async (_name, body, status) => {
    expect(refusalOf(await parse(body)).status).toBe(status);
  });
});
