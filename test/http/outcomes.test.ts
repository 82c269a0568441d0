/**
 * POST /v5/outcomes/{token}/{source} over HTTPS on loopback (issue 32): an ESP's hard bounce puts
 * the address on that key's bouncers (520 for it, not for another key) until a later delivery, a
 * complaint gives 525, every ESP fixture goes through once, and every refusal answers its exact
 * status and message and stores nothing. A repeated event id answers 200 and changes nothing.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { request } from 'node:https';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { classifyOutcome } from '../../src/outcomes/classify.js';
import { generateOutcomeToken, hashOutcomeToken } from '../../src/outcomes/ingest-token.js';
import { parseOutcomes } from '../../src/outcomes/parse-outcomes.js';
import { addressListValue } from '../../src/verification/list-value.js';
import type { OutcomeSource } from '../../src/outcomes/outcome-event.js';
import { delivery, fixture } from '../fixtures/outcomes/load-fixture.js';
import { makeSigner, signSns, snsNotification, type TestSigner } from '../fixtures/outcomes/sns-signing.js';
import { runList, validationCodes } from '../helpers/lists.js';
import { startTlsTestApp, type TlsTestApp } from '../helpers/tls-app.js';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

let server: TlsTestApp;
let signer: TestSigner;
const keys: Record<'a' | 'b', { id: number; key: string; token: string }> = {} as never;

function call(
  method: 'GET' | 'POST',
  path: string,
  body?: Buffer | string,
  headers: Record<string, string> = {},
  port = server.port,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, rejectUnauthorized: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
      });
    });
    // A refused large body may be answered before it is all sent: the answer is what counts.
    req.on('error', reject);
    req.end(body);
  });
}

const post = (
  token: string,
  source: string,
  body: Buffer | string,
  contentType = 'application/json',
  headers: Record<string, string> = {},
  port = server.port,
) => call('POST', `/v5/outcomes/${token}/${source}`, body, { 'content-type': contentType, ...headers }, port);

async function code(key: string, email: string): Promise<number> {
  const answer = await call('GET', `/v5/ev?email=${encodeURIComponent(email)}&api_key=${key}`);
  expect(answer.status).toBe(200);
  const verdict = (answer.body.safe_to_send ?? answer.body.email_validation) as { status_code: number };
  return verdict.status_code;
}

/** SendGrid events at `at` (seconds), as the webhook posts them. */
function sendgrid(events: { id: string; email: string; event: string; at: number; status?: string; type?: string }[]): string {
  return JSON.stringify(
    events.map((e) => ({
      email: e.email,
      timestamp: e.at,
      event: e.event,
      sg_event_id: e.id,
      ...(e.status ? { status: e.status, reason: `550 ${e.status} no such user` } : {}),
      ...(e.type ? { type: e.type } : {}),
    })),
  );
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const iso = (ms = Date.now()) => new Date(ms).toISOString();

/** What a key has in the outcome stores: entries by list, per-domain counts, accuracy counts. */
async function stored(keyId: number) {
  const { outcomes } = server.t.storage;
  return {
    entries: await outcomes.countEntries(keyId, iso()),
    domains: await outcomes.domainCounts(keyId, '2000-01-01'),
    accuracy: await outcomes.accuracy(keyId, '2000-01-01'),
  };
}

beforeAll(async () => {
  signer = await makeSigner();
  server = await startTlsTestApp({ outcomePorts: signer.ports() });
  for (const name of ['a', 'b'] as const) {
    const created = await server.t.key(`outcomes-${name}`);
    const token = generateOutcomeToken();
    await server.t.storage.outcomeKeys.setToken(created.record.id, hashOutcomeToken(token));
    keys[name] = { id: created.record.id, key: created.key, token };
  }
});
afterAll(() => server.close());

describe('a key learns from its own ESP', () => {
  it('a SendGrid hard bounce gives 520 to that key only, and a later delivery removes it', async () => {
    const email = 'x@ok-mail.com';
    expect(await code(keys.a.key, email)).not.toBe(520);
    const bounce = await post(
      keys.a.token,
      'sendgrid',
      sendgrid([{ id: 'e2e-bounce', email, event: 'bounce', at: nowSeconds() - 60, status: '5.1.1', type: 'bounce' }]),
    );
    expect(bounce).toEqual({ status: 200, body: { events: 1, applied: 1, repeated: 0 } });
    expect(await code(keys.a.key, email)).toBe(520);
    expect(await code(keys.b.key, email)).not.toBe(520);

    const delivered = await post(
      keys.a.token,
      'sendgrid',
      sendgrid([{ id: 'e2e-delivered', email, event: 'delivered', at: nowSeconds() }]),
    );
    expect(delivered).toEqual({ status: 200, body: { events: 1, applied: 1, repeated: 0 } });
    expect(await code(keys.a.key, email)).not.toBe(520);
  });

  it('a spam complaint gives 525', async () => {
    const email = 'annoyed@ok-mail.com';
    const answer = await post(
      keys.a.token,
      'sendgrid',
      sendgrid([{ id: 'e2e-complaint', email, event: 'spamreport', at: nowSeconds() - 5 }]),
    );
    expect(answer).toEqual({ status: 200, body: { events: 1, applied: 1, repeated: 0 } });
    expect(await code(keys.a.key, email)).toBe(525);
    expect(await code(keys.b.key, email)).not.toBe(525);
  });

  it('a repeated event id answers 200 and changes nothing', async () => {
    const body = sendgrid([
      { id: 'e2e-repeat', email: 'again@ok-mail.com', event: 'bounce', at: nowSeconds() - 5, status: '5.1.1', type: 'bounce' },
    ]);
    expect((await post(keys.a.token, 'sendgrid', body)).body).toEqual({ events: 1, applied: 1, repeated: 0 });
    // The operator removes the entry: the ESP's retry of the same event must not bring it back.
    await server.t.storage.outcomes.remove(keys.a.id, 'again@ok-mail.com');
    const before = await stored(keys.a.id);
    expect(await post(keys.a.token, 'sendgrid', body)).toEqual({ status: 200, body: { events: 1, applied: 0, repeated: 1 } });
    expect(await stored(keys.a.id)).toEqual(before);
    expect(await code(keys.a.key, 'again@ok-mail.com')).not.toBe(520);
  });
});

describe('lists', () => {
  it('count 520 and 525 hits as ever, and say how many came from ingested outcomes', async () => {
    const created = await server.t.key('outcomes-lists', { services: 'verification,lists' });
    const token = generateOutcomeToken();
    await server.t.storage.outcomeKeys.setToken(created.record.id, hashOutcomeToken(token));
    const at = nowSeconds() - 60;
    const answer = await post(
      token,
      'sendgrid',
      sendgrid([
        { id: 'list-1', email: 'learnt-bouncer@ok-mail.com', event: 'bounce', at, status: '5.1.1', type: 'bounce' },
        { id: 'list-2', email: 'learnt-complainer@ok-mail.com', event: 'spamreport', at },
        { id: 'list-3', email: 'imported-too@ok-mail.com', event: 'bounce', at, status: '5.1.1', type: 'bounce' },
      ]),
    );
    expect(answer.body).toEqual({ events: 3, applied: 3, repeated: 0 });
    // An address the operator imported as well: the imported entry decides, and it is no outcome hit.
    await server.t.storage.policy.add([
      { kind: 'bouncer', value: 'imported-too@ok-mail.com' },
      { kind: 'bouncer', value: 'imported-only@ok-mail.com' },
    ]);
    const emails = ['learnt-bouncer@ok-mail.com', 'learnt-complainer@ok-mail.com', 'imported-too@ok-mail.com', 'imported-only@ok-mail.com'];
    const { report, rows } = await runList(server, created.key, emails);
    expect(report.status_codes['520']).toBe(3);
    expect(report.status_codes['525']).toBe(1);
    expect(report.outcome_hits).toEqual({ 'Outcome Hits': 2, 'Known Bouncers': 1, 'Known Complainers': 1 });
    expect(validationCodes(rows)).toEqual(
      new Map([
        ['learnt-bouncer@ok-mail.com', 520],
        ['learnt-complainer@ok-mail.com', 525],
        ['imported-too@ok-mail.com', 520],
        ['imported-only@ok-mail.com', 520],
      ]),
    );
    // Another key's list: no outcome of its own, so no hit from one.
    const other = await server.t.key('outcomes-lists-other', { services: 'verification,lists' });
    const { report: plain } = await runList(server, other.key, emails);
    expect(plain.status_codes['520']).toBe(2);
    expect(plain.outcome_hits).toBeUndefined();
  });
});

describe('the log', () => {
  it('holds no ingestion token and no address', () => {
    const text = server.t.logs.join('');
    expect(text).toContain('/v5/outcomes/~/sendgrid');
    for (const { token } of Object.values(keys)) expect(text).not.toContain(token);
    expect(text).not.toContain('@ok-mail.com');
  });
});

const SES = [
  'ses-bounce-permanent.json',
  'ses-bounce-transient.json',
  'ses-bounce-suppressed.json',
  'ses-complaint.json',
  'ses-delivery.json',
];
const JSON_FIXTURES: [OutcomeSource, string][] = [
  ['sendgrid', 'sendgrid-events.json'],
  ['sparkpost', 'sparkpost-events.json'],
  ...(
    [
      'mailgun-complained',
      'mailgun-delivered',
      'mailgun-failed-permanent',
      'mailgun-failed-suppressed',
      'mailgun-failed-temporary',
    ] as const
  ).map((name): [OutcomeSource, string] => ['mailgun', `${name}.json`]),
  ...(
    [
      'postmark-delivery',
      'postmark-hard-bounce-generic',
      'postmark-hard-bounce',
      'postmark-soft-bounce',
      'postmark-spam-complaint',
    ] as const
  ).map((name): [OutcomeSource, string] => ['postmark', `${name}.json`]),
];
const REPORTS: [OutcomeSource, string][] = [
  ['dsn', 'dsn-failed.eml'],
  ['dsn', 'dsn-base64.eml'],
  ['arf', 'arf-abuse.eml'],
  ['arf', 'arf-not-spam.eml'],
  ['arf', 'arf-redacted-rcpt.eml'],
];

/**
 * A fixture's text with its recipients moved to a domain that may be listed: `.example` is no
 * domain an address can have, so verification never looks such an address up and outcomes list it
 * nowhere.
 */
const listable = (name: string) => fixture(name).toString('utf8').replaceAll('@receiver.example', '@receiver-mail.com');

/** Every fixture as its ESP posts it: source, body, Content-Type. */
function fixtureDeliveries(): { source: OutcomeSource; name: string; body: Buffer; contentType: string }[] {
  return [
    ...JSON_FIXTURES.map(([source, name]) => ({ source, name, body: Buffer.from(listable(name)), contentType: 'application/json' })),
    ...SES.map((name) => ({
      source: 'ses' as const,
      name,
      body: Buffer.from(JSON.stringify(signSns(snsNotification(listable(name), `sns-${name}`), signer.privateKey))),
      contentType: 'text/plain; charset=UTF-8',
    })),
    ...REPORTS.map(([source, name]) => ({ source, name, body: Buffer.from(listable(name)), contentType: 'message/rfc822' })),
  ];
}

describe('every ESP fixture through the endpoint', () => {
  // The fixtures are dated early in 2026: this server stands a little after them, so their entries count.
  const NOW = new Date('2026-03-01T12:00:00Z');
  let dated: TlsTestApp;
  beforeAll(async () => {
    dated = await startTlsTestApp({ outcomePorts: signer.ports(), containerClock: { now: () => NOW.getTime() } });
  });
  afterAll(() => dated.close());

  it('answers what the parser reads, and lists exactly the bounces and complaints classification adds', async () => {
    const created = await dated.t.key('outcomes-fixtures');
    const token = generateOutcomeToken();
    await dated.t.storage.outcomeKeys.setToken(created.record.id, hashOutcomeToken(token));
    const seen = new Set<string>();
    let listed = 0;
    for (const sent of fixtureDeliveries()) {
      const parsed = await parseOutcomes(sent.source, delivery(sent.body, sent.contentType), {}, NOW, signer.ports());
      if (!parsed.ok) throw new Error(`${sent.name}: ${parsed.refusal.message}`);
      const fresh = parsed.events.filter((e) => !seen.has(e.eventId));
      parsed.events.forEach((e) => seen.add(e.eventId));
      const answer = await post(token, sent.source, sent.body, sent.contentType, {}, dated.port);
      expect({ name: sent.name, ...answer }).toEqual({
        name: sent.name,
        status: 200,
        body: { events: parsed.events.length, applied: fresh.length, repeated: parsed.events.length - fresh.length },
      });
      for (const event of fresh) {
        const effect = classifyOutcome(event);
        const entries = await dated.t.storage.outcomes.match(event.email.toLowerCase(), NOW.toISOString());
        const kinds = entries.filter((e) => e.keyId === created.record.id).map((e) => e.kind);
        const kind = effect === 'add-bouncer' ? 'bouncer' : effect === 'add-complainer' ? 'complainer' : undefined;
        // An address no list can hold (a base64 part keeps `.example`) is on none.
        const expected = kind && 'value' in addressListValue(event.email) ? [kind] : [];
        if (expected.length) listed += 1;
        if (effect !== 'remove-outcome-entries')
          expect({ name: sent.name, email: event.email, kinds }).toEqual({ name: sent.name, email: event.email, kinds: expected });
      }
    }
    expect(seen.size).toBeGreaterThanOrEqual(20);
    expect(listed).toBeGreaterThanOrEqual(6);
  });
});

describe('refusals store nothing', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const bounce = sendgrid([
    { id: 'refused-1', email: 'refused@ok-mail.com', event: 'bounce', at: 1767225600, status: '5.1.1', type: 'bounce' },
  ]);
  const signed = (body: string, key = privateKey) => {
    const timestamp = String(nowSeconds());
    return {
      'x-twilio-email-event-webhook-timestamp': timestamp,
      'x-twilio-email-event-webhook-signature': sign('sha256', Buffer.from(timestamp + body), key).toString('base64'),
    };
  };
  let refusing: { id: number; token: string };

  beforeAll(async () => {
    const created = await server.t.key('outcomes-refusals');
    refusing = { id: created.record.id, token: generateOutcomeToken() };
    await server.t.storage.outcomeKeys.setToken(refusing.id, hashOutcomeToken(refusing.token));
    await server.t.storage.outcomeKeys.setSecrets(refusing.id, {
      sendgridPublicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    });
  });
  const empty = { entries: { bouncer: 0, complainer: 0 }, domains: [], accuracy: [] };
  beforeEach(async () => expect(await stored(refusing.id)).toEqual(empty));

  const dsnWithoutStatus = () => fixture('dsn-without-status.eml');
  it.each([
    ['malformed JSON', () => post(refusing.token, 'sendgrid', '[{"event":', 'application/json', signed('[{"event":')), 400, 'Invalid JSON'],
    [
      'an unknown ESP shape',
      () => post(refusing.token, 'sendgrid', '{"event":"bounce"}', 'application/json', signed('{"event":"bounce"}')),
      422,
      'SendGrid event webhook: expected a JSON array of events',
    ],
    [
      'a DSN without a delivery-status part',
      () => post(refusing.token, 'dsn', dsnWithoutStatus(), 'message/rfc822'),
      422,
      'DSN: the report has no message/delivery-status part (RFC 3464 needs one after the human-readable part)',
    ],
    ['a bad token', () => post(generateOutcomeToken(), 'sendgrid', bounce), 401, 'Invalid outcome token'],
    ['a token of the wrong shape', () => post('not-a-token', 'sendgrid', bounce), 401, 'Invalid outcome token'],
    [
      'an unsigned body where a signature is expected',
      () => post(refusing.token, 'sendgrid', bounce),
      401,
      'SendGrid signature missing: the key expects signed event webhooks',
    ],
    [
      'a bad signature',
      () => post(refusing.token, 'sendgrid', bounce, 'application/json', signed(bounce, other)),
      401,
      'SendGrid signature does not match',
    ],
    [
      'a Content-Type the ESP never sends',
      () => post(refusing.token, 'sendgrid', bounce, 'text/csv', signed(bounce)),
      415,
      'SendGrid webhooks are JSON: expected Content-Type application/json, got text/csv',
    ],
    [
      'a 10 MB body',
      () => post(refusing.token, 'sendgrid', Buffer.alloc(10 * 1024 * 1024, 0x20), 'application/json'),
      413,
      'Request body too large',
    ],
  ])('%s', async (_what, send, status, message) => {
    const answer = await send();
    expect(answer).toEqual({ status, body: { error_code: status, error_msg: message } });
    expect(await stored(refusing.id)).toEqual(empty);
    expect(await server.t.storage.outcomes.match('refused@ok-mail.com', '2026-01-01T00:00:00Z')).toEqual([]);
  });

  it('a correctly signed body is taken (the refusals above are the signature’s, not the key’s)', async () => {
    expect(await post(refusing.token, 'sendgrid', bounce, 'application/json', signed(bounce))).toEqual({
      status: 200,
      body: { events: 1, applied: 1, repeated: 0 },
    });
  });
});
