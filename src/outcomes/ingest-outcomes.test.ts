import { describe, expect, it } from 'vitest';
import { openMemoryStorage } from '../storage/open-storage.js';
import { newKey } from '../storage/contract/fixtures.js';
import { countingOutcomeEntries } from '../verification/policy/outcome-entries.js';
import { generateOutcomeToken, hashOutcomeToken } from './ingest-token.js';
import { createOutcomeIngest, type ParseOutcomes } from './ingest-outcomes.js';
import type { OutcomeDelivery, OutcomeEffect, OutcomeEvent, OutcomeKind } from './outcome-event.js';
import { createVerdictRecorder, verdictIdOf } from './verdict-record.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const DAY = 86_400_000;

/** A parser double: the body is a JSON array of events in the seam's shape (the real parsers are src/outcomes/parse/). */
const parseDouble: ParseOutcomes = (source, delivery) => {
  const text = delivery.body.toString('utf8');
  if (delivery.headers['x-bad-signature']) return { ok: false, refusal: { status: 401, message: 'Invalid signature' } };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, refusal: { status: 400, message: 'Invalid JSON' } };
  }
  const events = (raw as { id: string; email: string; kind: OutcomeKind; status?: string; at: string }[]).map((e): OutcomeEvent => ({
    source,
    eventId: e.id,
    email: e.email,
    kind: e.kind,
    ...(e.status ? { enhancedStatus: e.status } : {}),
    occurredAt: new Date(e.at),
  }));
  return { ok: true, events };
};
/** A classification double after issue 32's rules: a 5.1.x bounce lists, a complaint lists, a delivery removes. */
const classifyDouble = (event: OutcomeEvent): OutcomeEffect =>
  event.kind === 'bounce' && event.enhancedStatus?.startsWith('5.1.')
    ? 'add-bouncer'
    : event.kind === 'complaint'
      ? 'add-complainer'
      : event.kind === 'delivery'
        ? 'remove-outcome-entries'
        : 'count-only';

const delivery = (events: unknown[], headers: Record<string, string> = {}): OutcomeDelivery => ({
  body: Buffer.from(JSON.stringify(events)),
  contentType: 'application/json',
  contentTypeHeader: 'application/json',
  headers,
});

async function world() {
  const storage = openMemoryStorage();
  let now = NOW;
  const clock = { now: () => now };
  const idOf = verdictIdOf(Buffer.alloc(32, 7));
  const a = await storage.keys.create(newKey('a'));
  const b = await storage.keys.create(newKey('b'));
  const tokenA = generateOutcomeToken();
  await storage.outcomeKeys.setToken(a.id, hashOutcomeToken(tokenA));
  const subscriptions: string[] = [];
  const ingest = createOutcomeIngest({
    keys: storage.outcomeKeys,
    outcomes: storage.outcomes,
    verdictRecords: storage.verdictRecords,
    parse: parseDouble,
    classify: classifyDouble,
    verdictIdOf: idOf,
    clock,
    onSubscription: async (_keyId, url) => void subscriptions.push(url),
  });
  const listed = async (keyId: number, address: string) =>
    countingOutcomeEntries(await storage.outcomes.match(address, new Date(now).toISOString()), keyId).map((e) => e.kind);
  return { storage, ingest, a, b, tokenA, listed, idOf, clock, setNow: (ms: number) => (now = ms), subscriptions };
}

describe('outcome ingestion', () => {
  it('lists a proven hard bounce and a complaint for the key only; a later delivery removes them', async () => {
    const w = await world();
    const result = await w.ingest.ingest(
      w.tokenA,
      'sendgrid',
      delivery([
        { id: 'e1', email: ' X@OK-Mail.com', kind: 'bounce', status: '5.1.1', at: '2026-03-01T10:00:00Z' },
        { id: 'e2', email: 'c@ok-mail.com', kind: 'complaint', at: '2026-03-01T10:00:00Z' },
      ]),
    );
    expect(result).toMatchObject({ ok: true, keyId: w.a.id, applied: 2, repeated: 0, subscription: false });
    expect(await w.listed(w.a.id, 'x@ok-mail.com')).toEqual(['bouncer']);
    expect(await w.listed(w.a.id, 'c@ok-mail.com')).toEqual(['complainer']);
    expect(await w.listed(w.b.id, 'x@ok-mail.com')).toEqual([]);
    await w.ingest.ingest(
      w.tokenA,
      'sendgrid',
      delivery([{ id: 'e3', email: 'x@ok-mail.com', kind: 'delivery', at: '2026-03-01T11:00:00Z' }]),
    );
    expect(await w.listed(w.a.id, 'x@ok-mail.com')).toEqual([]);
    expect(await w.listed(w.a.id, 'c@ok-mail.com')).toEqual(['complainer']);
  });

  it('counts policy blocks and soft bounces per domain and lists nothing for them', async () => {
    const w = await world();
    await w.ingest.ingest(
      w.tokenA,
      'sendgrid',
      delivery([
        { id: 'e1', email: 'x@ok-mail.com', kind: 'bounce', status: '5.7.1', at: '2026-03-01T10:00:00Z' },
        { id: 'e2', email: 'y@ok-mail.com', kind: 'deferral', status: '4.2.2', at: '2026-03-01T10:00:00Z' },
        { id: 'e3', email: 'z@ok-mail.com', kind: 'deferral', status: '4.2.2', at: '2026-02-28T10:00:00Z' },
      ]),
    );
    expect(await w.storage.outcomes.hasEntries()).toBe(false);
    expect(await w.storage.outcomes.domainCounts(w.a.id, '2026-01-01')).toEqual([
      { domain: 'ok-mail.com', day: '2026-02-28', kind: 'deferral', count: 1 },
      { domain: 'ok-mail.com', day: '2026-03-01', kind: 'bounce', count: 1 },
      { domain: 'ok-mail.com', day: '2026-03-01', kind: 'deferral', count: 1 },
    ]);
  });

  it('answers a repeated event as applied before and changes nothing', async () => {
    const w = await world();
    const bounce = { id: 'e1', email: 'x@ok-mail.com', kind: 'bounce', status: '5.1.1', at: '2026-03-01T10:00:00Z' };
    await w.ingest.ingest(w.tokenA, 'sendgrid', delivery([bounce]));
    await w.storage.outcomes.remove(w.a.id, 'x@ok-mail.com');
    expect(await w.ingest.ingest(w.tokenA, 'sendgrid', delivery([bounce]))).toMatchObject({ ok: true, applied: 0, repeated: 1 });
    expect(await w.listed(w.a.id, 'x@ok-mail.com')).toEqual([]);
  });

  it('refuses a bad token or the parser’s refusal and stores nothing', async () => {
    const w = await world();
    const body = delivery([{ id: 'e1', email: 'x@ok-mail.com', kind: 'complaint', at: '2026-03-01T10:00:00Z' }]);
    expect(await w.ingest.ingest('mso_' + 'A'.repeat(32), 'sendgrid', body)).toEqual({
      ok: false,
      refusal: { status: 401, message: 'Invalid outcome token' },
    });
    expect(await w.ingest.ingest('not a token', 'sendgrid', body)).toMatchObject({ ok: false, refusal: { status: 401 } });
    expect(await w.ingest.ingest(w.tokenA, 'sendgrid', { ...body, headers: { 'x-bad-signature': '1' } })).toEqual({
      ok: false,
      refusal: { status: 401, message: 'Invalid signature' },
    });
    expect(await w.storage.outcomes.hasEntries()).toBe(false);
    // Nothing was marked seen either: the same event, sent properly, applies.
    expect(await w.ingest.ingest(w.tokenA, 'sendgrid', body)).toMatchObject({ ok: true, applied: 1 });
  });

  it('lets shared entries count for another key only when two sharing keys corroborate them', async () => {
    const w = await world();
    const c = await w.storage.keys.create(newKey('c'));
    const tokenC = generateOutcomeToken();
    await w.storage.outcomeKeys.setToken(c.id, hashOutcomeToken(tokenC));
    const bounce = [{ id: 'e1', email: 'x@ok-mail.com', kind: 'bounce', status: '5.1.1', at: '2026-03-01T10:00:00Z' }];
    await w.storage.outcomeKeys.setShare(w.a.id, true);
    await w.ingest.ingest(w.tokenA, 'sendgrid', delivery(bounce));
    expect(await w.listed(w.b.id, 'x@ok-mail.com')).toEqual([]);
    // A second key that does not share does not corroborate.
    await w.ingest.ingest(tokenC, 'sendgrid', delivery(bounce));
    expect(await w.listed(w.b.id, 'x@ok-mail.com')).toEqual([]);
    await w.storage.outcomeKeys.setShare(c.id, true);
    await w.ingest.ingest(tokenC, 'sendgrid', delivery([{ ...bounce[0], id: 'e2' }]));
    expect(await w.listed(w.b.id, 'x@ok-mail.com')).toEqual(['bouncer']);
  });

  it('expires entries after the documented 180 days', async () => {
    const w = await world();
    await w.ingest.ingest(
      w.tokenA,
      'sendgrid',
      delivery([{ id: 'e1', email: 'x@ok-mail.com', kind: 'complaint', at: '2026-03-01T10:00:00Z' }]),
    );
    w.setNow(Date.parse('2026-03-01T10:00:00Z') + 180 * DAY - 1);
    expect(await w.listed(w.a.id, 'x@ok-mail.com')).toEqual(['complainer']);
    w.setNow(Date.parse('2026-03-01T10:00:00Z') + 180 * DAY);
    expect(await w.listed(w.a.id, 'x@ok-mail.com')).toEqual([]);
  });

  it('joins an outcome to the verdict the key was given before it, whatever its class', async () => {
    const w = await world();
    const recorder = createVerdictRecorder(w.storage.verdictRecords, w.idOf, { now: () => Date.parse('2026-02-01T00:00:00Z') });
    recorder.note(w.a.id, { address: 'x@ok-mail.com', code: 50 });
    recorder.note(w.a.id, { address: 'y@ok-mail.com', code: 45 });
    recorder.note(w.b.id, { address: 'z@ok-mail.com', code: 50 });
    await recorder.flush();
    await w.ingest.ingest(
      w.tokenA,
      'sendgrid',
      delivery([
        { id: 'e1', email: 'X@ok-mail.com', kind: 'bounce', status: '5.1.1', at: '2026-03-01T10:00:00Z' },
        { id: 'e2', email: 'y@ok-mail.com', kind: 'delivery', at: '2026-03-01T10:00:00Z' },
        // Key b's verdict is not key a's; an event before the verdict is not counted.
        { id: 'e3', email: 'z@ok-mail.com', kind: 'delivery', at: '2026-03-01T10:00:00Z' },
        { id: 'e4', email: 'y@ok-mail.com', kind: 'delivery', at: '2026-01-01T10:00:00Z' },
      ]),
    );
    expect(await w.storage.outcomes.accuracy(w.a.id, '2026-01-01')).toEqual([
      { day: '2026-03-01', code: 45, kind: 'delivery', source: 'sendgrid', count: 1 },
      { day: '2026-03-01', code: 50, kind: 'bounce', source: 'sendgrid', count: 1 },
    ]);
  });

  it('hands an SNS subscription confirmation over, never following it', async () => {
    const w = await world();
    const parse: ParseOutcomes = () => ({
      ok: true,
      events: [],
      subscribeUrl: 'https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription',
    });
    const ingest = createOutcomeIngest({
      keys: w.storage.outcomeKeys,
      outcomes: w.storage.outcomes,
      verdictRecords: w.storage.verdictRecords,
      parse,
      classify: classifyDouble,
      verdictIdOf: w.idOf,
      clock: w.clock,
      onSubscription: async (_keyId, url) => void w.subscriptions.push(url),
    });
    expect(await ingest.ingest(w.tokenA, 'ses', delivery([]))).toMatchObject({ ok: true, applied: 0, subscription: true });
    expect(w.subscriptions).toEqual(['https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription']);
  });
});
