import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../test/fixtures/outcomes/load-fixture.js';
import { classifyOutcome } from './classify.js';
import type { OutcomeDelivery, OutcomeSecrets } from './outcome-event.js';
import { parseOutcomes } from './parse-outcomes.js';

const NOW = new Date('2026-03-01T12:00:00Z');

function delivery(body: Buffer | string, headers: Record<string, string> = {}): OutcomeDelivery {
  return {
    body: Buffer.isBuffer(body) ? body : Buffer.from(body),
    contentType: 'application/json',
    contentTypeHeader: 'application/json; charset=utf-8',
    headers,
  };
}

async function parsed(body: Buffer | string, secrets: OutcomeSecrets = {}, headers: Record<string, string> = {}) {
  return parseOutcomes('sendgrid', delivery(body, headers), secrets, NOW);
}

describe('SendGrid event webhook', () => {
  it('reads each outcome event of the documented kinds and skips engagement events', async () => {
    const result = await parsed(fixture('sendgrid-events.json'));
    if (!result.ok) throw new Error(result.refusal.message);
    expect(result.events.map((event) => [event.email, event.kind, classifyOutcome(event)])).toEqual([
      ['gone@receiver.example', 'bounce', 'add-bouncer'],
      ['listed@receiver.example', 'blocked', 'count-only'],
      ['busy@receiver.example', 'deferral', 'count-only'],
      ['happy@receiver.example', 'delivery', 'remove-outcome-entries'],
      ['annoyed@receiver.example', 'complaint', 'add-complainer'],
      ['again@receiver.example', 'blocked', 'count-only'],
    ]);
    const [bounce, , deferral] = result.events;
    expect(bounce).toMatchObject({
      source: 'sendgrid',
      eventId: 'c2VuZGdyaWQtYm91bmNlLTAx',
      enhancedStatus: '5.1.1',
      smtpCode: 550,
      occurredAt: new Date(1767225600 * 1000),
    });
    expect(bounce!.diagnostic).toMatch(/^550 5\.1\.1 The email account/);
    expect(deferral).toMatchObject({ smtpCode: 421, enhancedStatus: '4.7.0' });
  });

  it('takes a precise status from the reason when the status field says only "failed"', async () => {
    const body = JSON.stringify([
      { event: 'bounce', type: 'bounce', email: 'a@b.example', sg_event_id: 'e1', status: '5.0.0', reason: '550 5.1.1 User unknown' },
      { event: 'bounce', type: 'bounce', email: 'c@b.example', sg_event_id: 'e2', status: '5.0.0', reason: '500 unknown recipient' },
    ]);
    const result = await parsed(body);
    if (!result.ok) throw new Error(result.refusal.message);
    expect(result.events.map((event) => event.enhancedStatus)).toEqual(['5.1.1', '5.0.0']);
    expect(result.events.map(classifyOutcome)).toEqual(['add-bouncer', 'add-bouncer']);
  });

  it('uses the time of the delivery when an event has no usable timestamp', async () => {
    const result = await parsed(JSON.stringify([{ event: 'delivered', email: 'a@b.example', sg_event_id: 'x', timestamp: 'soon' }]));
    expect(result.ok && result.events[0]!.occurredAt).toEqual(NOW);
  });

  it('keeps no recipient address in the diagnostic text, only its domain', async () => {
    const reason = "550 5.1.1 <Gone.Away+news@Receiver.example>: Recipient address rejected; also copied to o'neil@other.example";
    const result = await parsed(JSON.stringify([{ event: 'bounce', email: 'Gone.Away+news@Receiver.example', sg_event_id: 'x', reason }]));
    expect(result.ok && result.events[0]!.diagnostic).toBe(
      '550 5.1.1 <*@Receiver.example>: Recipient address rejected; also copied to *@other.example',
    );
  });

  it('cuts the diagnostic text to 500 characters', async () => {
    const reason = `550 5.1.1 ${'x'.repeat(2000)}`;
    const result = await parsed(JSON.stringify([{ event: 'bounce', email: 'a@b.example', sg_event_id: 'x', reason }]));
    expect(result.ok && result.events[0]!.diagnostic).toHaveLength(500);
  });

  it.each([
    ['not JSON', '[{"event":', 400, /^Invalid JSON$/],
    ['an object, not an array', '{"event":"bounce"}', 422, /expected a JSON array/],
    ['an event without "event"', '[{"email":"a@b.example"}]', 422, /event 0: expected an object with an "event" field/],
    ['a bounce without an address', '[{"event":"bounce","sg_event_id":"x"}]', 422, /email: expected a recipient address/],
    ['a bounce with a non-address', '[{"event":"bounce","sg_event_id":"x","email":"nobody"}]', 422, /expected a recipient address/],
    ['a bounce without an id', '[{"event":"bounce","email":"a@b.example"}]', 422, /sg_event_id: expected an event id/],
  ])('refuses %s, returning no event', async (_name, body, status, message) => {
    const result = await parsed(`${body}`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.refusal.status).toBe(status);
    expect(result.refusal.message).toMatch(message);
  });

  it('refuses a body that is not JSON by its content type (415)', async () => {
    const result = await parseOutcomes('sendgrid', { ...delivery('[]'), contentType: 'text/html' }, {}, NOW);
    expect(!result.ok && result.refusal.status).toBe(415);
  });

  it('refuses the whole batch when one event is malformed (a retry would otherwise store the rest twice)', async () => {
    const body = JSON.stringify([
      { event: 'delivered', email: 'a@b.example', sg_event_id: 'ok' },
      { event: 'bounce', email: 'c@d.example' },
    ]);
    expect((await parsed(body)).ok).toBe(false);
  });
});

describe('SendGrid signed event webhook', () => {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const verificationKey = publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  const body = fixture('sendgrid-events.json');
  const timestamp = '1767225700';
  const signature = sign('sha256', Buffer.concat([Buffer.from(timestamp), body]), privateKey).toString('base64');
  const headers = (sig: string, ts = timestamp) => ({
    'x-twilio-email-event-webhook-signature': sig,
    'x-twilio-email-event-webhook-timestamp': ts,
  });

  it('accepts a body signed with the key (base64 DER, as SendGrid shows it, or PEM)', async () => {
    expect((await parsed(body, { sendgridPublicKey: verificationKey }, headers(signature))).ok).toBe(true);
    const pem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
    expect((await parsed(body, { sendgridPublicKey: pem }, headers(signature))).ok).toBe(true);
  });

  it.each([
    ['no signature headers', {}],
    ['another timestamp', headers(signature, '1767225701')],
    ['a signature of something else', headers(sign('sha256', Buffer.from('other'), privateKey).toString('base64'))],
    ['a signature that is not base64 DER', headers('bm90IGEgc2lnbmF0dXJl')],
  ])('refuses %s with 401', async (_name, given) => {
    const result = await parsed(body, { sendgridPublicKey: verificationKey }, given);
    expect(!result.ok && result.refusal).toEqual({ status: 401, message: expect.stringMatching(/SendGrid signature/) });
  });

  it('refuses a changed body under a valid signature', async () => {
    const changed = Buffer.from(body.toString().replace('gone@', 'kept@'));
    expect(!(await parsed(changed, { sendgridPublicKey: verificationKey }, headers(signature))).ok).toBe(true);
  });

  it('refuses when the configured key is unusable, rather than skipping the check', async () => {
    const result = await parsed(body, { sendgridPublicKey: 'not a key' }, headers(signature));
    expect(!result.ok && result.refusal.status).toBe(401);
  });
});
