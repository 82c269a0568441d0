import { beforeAll, describe, expect, it } from 'vitest';
import { delivery, eventsOf, fixture, refusalOf } from '../../test/fixtures/outcomes/load-fixture.js';
import { CERT_URL, makeSigner, signSns, snsNotification, type Sns, type TestSigner } from '../../test/fixtures/outcomes/sns-signing.js';
import { classifyOutcome } from './classify.js';
import { parseOutcomes, type OutcomePorts } from './parse-outcomes.js';
import { CertificateUnavailable, isSnsUrl } from './sns.js';

const NOW = new Date('2026-03-01T12:00:00Z');
let signer: TestSigner;
let otherKey: string;

beforeAll(async () => {
  signer = await makeSigner();
  otherKey = (await makeSigner()).privateKey;
});

const signed = (message: Sns, version: '1' | '2' = '1', key?: string) => signSns(message, key ?? signer.privateKey, version);
const notification = (sesFixture: string) => snsNotification(fixture(sesFixture).toString('utf8'));

function confirmation(subscribeUrl: string): Sns {
  return {
    Type: 'SubscriptionConfirmation',
    MessageId: '165545c9-2a5c-472c-8df2-7ff2be2b3b1b',
    Token:
      '2336412f37fb687f5d51e6e241d09c805a5a57b30d712f794cc5f6a988666d92768dd60a747ba6f3beb71854e285d6ad02428b09ceece29417f1f02d609c582afbacc99c583a916b9981dd2728f4ae6fdb82efd087cc3b7849e05798d2d2785c03b0879594eeac82c01f235d0e717736',
    TopicArn: 'arn:aws:sns:eu-west-1:111122223333:ses-outcomes',
    Message: 'You have chosen to subscribe to the topic arn:aws:sns:eu-west-1:111122223333:ses-outcomes.',
    SubscribeURL: subscribeUrl,
    Timestamp: '2026-01-15T08:00:00.000Z',
  };
}

const ports = (asked: string[] = []): OutcomePorts => signer.ports(asked);

const parse = (body: unknown, given: OutcomePorts = ports()) =>
  parseOutcomes('ses', delivery(JSON.stringify(body), 'text/plain; charset=UTF-8'), {}, NOW, given);

describe('Amazon SES through SNS', () => {
  it.each([
    [
      'ses-bounce-permanent.json',
      [
        ['gone@receiver.example', 'bounce', 'add-bouncer'],
        ['filtered@receiver.example', 'bounce', 'count-only'],
      ],
    ],
    ['ses-bounce-transient.json', [['full@receiver.example', 'deferral', 'count-only']]],
    ['ses-bounce-suppressed.json', [['earlier@receiver.example', 'blocked', 'count-only']]],
    ['ses-complaint.json', [['annoyed@receiver.example', 'complaint', 'add-complainer']]],
    ['ses-delivery.json', [['happy@receiver.example', 'delivery', 'remove-outcome-entries']]],
  ])('%s, signed with SHA-1 and with SHA-256', async (name, expected) => {
    for (const version of ['1', '2'] as const) {
      const events = eventsOf(await parse(signed(notification(name), version)));
      expect(events.map((event) => [event.email, event.kind, classifyOutcome(event)])).toEqual(expected);
    }
  });

  it('gives each recipient of one notification its own event id, the same on a redelivery', async () => {
    const first = eventsOf(await parse(signed(notification('ses-bounce-permanent.json'))));
    const again = eventsOf(await parse(signed(notification('ses-bounce-permanent.json'))));
    expect(new Set(first.map((event) => event.eventId)).size).toBe(2);
    expect(again.map((event) => event.eventId)).toEqual(first.map((event) => event.eventId));
    expect(first[0]).toMatchObject({
      enhancedStatus: '5.1.1',
      smtpCode: 550,
      occurredAt: new Date('2026-01-15T08:30:12.000Z'),
    });
    expect(first[0]!.diagnostic).toBe('550 5.1.1 <*@receiver.example>: Recipient address rejected: User unknown in virtual mailbox table');
  });

  it('asks the port for the certificate at the signed URL only', async () => {
    const asked: string[] = [];
    await parse(signed(notification('ses-delivery.json')), ports(asked));
    expect(asked).toEqual([CERT_URL]);
  });

  it('hands a subscription confirmation to the operator, never following it', async () => {
    const url =
      'https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=arn:aws:sns:eu-west-1:111122223333:ses-outcomes&Token=2336';
    const result = await parse(signed(confirmation(url)));
    expect(result).toEqual({ ok: true, events: [], subscribeUrl: url });
  });

  it.each([
    'http://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription',
    'https://sns.eu-west-1.amazonaws.com.attacker.example/?Action=ConfirmSubscription',
    'https://attacker.example/?u=sns.eu-west-1.amazonaws.com',
    'https://sns.eu-west-1.amazonaws.com:8443/?Action=ConfirmSubscription',
  ])('refuses a confirmation whose SubscribeURL is not an SNS host: %s', async (url) => {
    expect(refusalOf(await parse(signed(confirmation(url))))).toMatchObject({
      status: 422,
      message: expect.stringMatching(/SubscribeURL/),
    });
  });

  it.each([
    ['a signature by another key', () => signed(notification('ses-bounce-permanent.json'), '1', otherKey)],
    ['a changed message', () => ({ ...signed(notification('ses-complaint.json')), Message: fixture('ses-delivery.json').toString() })],
    ['a changed subject (an optional signed field)', () => ({ ...signed(notification('ses-delivery.json')), Subject: 'added' })],
    ['no signature', () => ({ ...notification('ses-delivery.json'), SignatureVersion: '1', SigningCertURL: CERT_URL })],
    ['an unknown signature version', () => ({ ...signed(notification('ses-delivery.json')), SignatureVersion: '3' })],
  ])('refuses %s with 401', async (_name, body) => {
    expect(refusalOf(await parse(body())).status).toBe(401);
  });

  it.each([
    'https://sns.eu-west-1.amazonaws.com.attacker.example/cert.pem',
    'http://sns.eu-west-1.amazonaws.com/SimpleNotificationService-1.pem',
    'https://s3.amazonaws.com/sns.eu-west-1.amazonaws.com/cert.pem',
    'https://sns.eu-west-1.amazonaws.com/redirect?to=https://attacker.example/cert.pem',
  ])('never asks for a certificate outside the SNS hosts: %s', async (url) => {
    const asked: string[] = [];
    const body = { ...signed(notification('ses-delivery.json')), SigningCertURL: url };
    expect(refusalOf(await parse(body, ports(asked))).status).toBe(401);
    expect(asked).toEqual([]);
  });

  it('refuses (401) when no certificate source is configured', async () => {
    expect(refusalOf(await parse(signed(notification('ses-delivery.json')), {})).status).toBe(401);
  });

  it('lets a failing certificate source through as an error, not a refusal (SNS should retry)', async () => {
    const failing: OutcomePorts = { fetchCertificate: () => Promise.reject(new Error('timed out')) };
    await expect(parse(signed(notification('ses-delivery.json')), failing)).rejects.toBeInstanceOf(CertificateUnavailable);
  });

  it.each([
    ['raw message delivery', fixture('ses-delivery.json').toString(), /raw message delivery/],
    ['an SNS message without Type', '{"MessageId":"x","Message":"{}"}', /expected an SNS message/],
  ])('refuses %s with 422', async (_name, body, message) => {
    const result = await parseOutcomes('ses', delivery(body), {}, NOW, ports());
    expect(refusalOf(result)).toMatchObject({ status: 422, message: expect.stringMatching(message) });
  });

  it('refuses a signed notification whose Message is not an SES notification', async () => {
    const body = signed({ ...notification('ses-delivery.json'), Message: 'hello' });
    expect(refusalOf(await parse(body)).status).toBe(422);
  });

  it('skips SES events that are not outcomes (sends, opens)', async () => {
    const body = signed({ ...notification('ses-delivery.json'), Message: JSON.stringify({ eventType: 'Open', open: {} }) });
    expect(eventsOf(await parse(body))).toEqual([]);
  });
});

describe('isSnsUrl', () => {
  it.each([
    ['https://sns.us-east-1.amazonaws.com/x.pem', true],
    ['https://sns.us-gov-west-1.amazonaws.com/x.pem', true],
    ['https://sns.cn-north-1.amazonaws.com.cn/x.pem', true],
    ['https://SNS.US-EAST-1.AMAZONAWS.COM/x.pem', true],
    ['https://sns.amazonaws.com/x.pem', false],
    ['https://user@sns.us-east-1.amazonaws.com/x.pem', false],
    ['https://sns.us-east-1.amazonaws.com.evil.example/x.pem', false],
    ['https://evilsns.us-east-1.amazonaws.com/x.pem', false],
    ['not a url', false],
  ])('%s: %s', (url, expected) => {
    expect(isSnsUrl(url)).toBe(expected);
  });
});
