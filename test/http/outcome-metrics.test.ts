/**
 * Outcome ingestion on /metrics (MAILSURE_METRICS): events by source, kind and effect, refusals by
 * source and status, and the accuracy table by verdict class and kind, read at scrape time. No
 * address, domain or token in any label.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOutcomeToken, hashOutcomeToken } from '../../src/outcomes/ingest-token.js';
import { verdictIdOf, verdictRecordKey } from '../../src/outcomes/verdict-record.js';
import { loadSecretKey } from '../../src/storage/secret-box.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await makeTestApp({ env: { MAILSURE_METRICS: '127.0.0.1:0' } });
  const created = await t.key('outcome-metrics');
  token = generateOutcomeToken();
  await t.storage.outcomeKeys.setToken(created.record.id, hashOutcomeToken(token));
  // The verdicts the key was given an hour ago, as the server's recorder keeps them (by HMAC id).
  const idOf = verdictIdOf(verdictRecordKey(await loadSecretKey(undefined, t.dataDir)));
  const at = new Date(Date.now() - 3_600_000).toISOString();
  await t.storage.verdictRecords.record([
    { keyId: created.record.id, id: idOf(created.record.id, 'wrong@ok-mail.com'), code: 50, at },
    { keyId: created.record.id, id: idOf(created.record.id, 'right@ok-mail.com'), code: 50, at },
  ]);
  await t.lifecycle.startBackground();
});
afterAll(() => t.close());

/** The value of the one sample of `name` carrying every one of `labels` (0 when none). */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const lines = text
    .split('\n')
    .filter(
      (line) => line.startsWith(`${name}{`) && Object.entries(labels).every(([label, value]) => line.includes(`${label}="${value}"`)),
    );
  if (lines.length > 1) throw new Error(`${lines.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return lines[0] ? Number(lines[0].slice(lines[0].lastIndexOf(' ') + 1)) : 0;
}

const post = (body: string) =>
  t.app.inject({ method: 'POST', url: `/v5/outcomes/${token}/sendgrid`, headers: { 'content-type': 'application/json' }, payload: body });

describe('outcome metrics', () => {
  it('counts events by source, kind and effect, refusals by status, and shows the accuracy table', async () => {
    const now = Math.floor(Date.now() / 1000);
    const events = [
      { email: 'wrong@ok-mail.com', timestamp: now, event: 'bounce', type: 'bounce', status: '5.1.1', sg_event_id: 'm1' },
      { email: 'right@ok-mail.com', timestamp: now, event: 'delivered', sg_event_id: 'm2' },
      { email: 'never-verified@ok-mail.com', timestamp: now, event: 'deferred', sg_event_id: 'm3' },
      { email: 'never-verified@ok-mail.com', timestamp: now, event: 'spamreport', sg_event_id: 'm4' },
    ];
    expect((await post(JSON.stringify(events))).statusCode).toBe(200);
    expect((await post('[{')).statusCode).toBe(400);

    const text = await (await fetch(`http://127.0.0.1:${t.lifecycle.metricsServer()!.port}/metrics`)).text();
    const events_ = (kind: string, effect: string) => sample(text, 'mailsure_outcome_events_total', { source: 'sendgrid', kind, effect });
    expect([
      events_('bounce', 'add-bouncer'),
      events_('delivery', 'remove-outcome-entries'),
      events_('deferral', 'count-only'),
      events_('complaint', 'add-complainer'),
      events_('bounce', 'count-only'),
    ]).toEqual([1, 1, 1, 1, 0]);
    expect(sample(text, 'mailsure_outcome_refusals_total', { source: 'sendgrid', status: '400' })).toBe(1);
    const accuracy = (cls: string, kind: string) => sample(text, 'mailsure_outcome_accuracy_events', { class: cls, kind });
    // Only the two verified addresses count, under their verdict's class.
    expect([accuracy('50', 'bounce'), accuracy('50', 'delivery'), accuracy('50', 'complaint'), accuracy('invalid', 'delivery')]).toEqual([
      1, 1, 0, 0,
    ]);
    expect(text).not.toContain('@');
    expect(text).not.toContain('ok-mail');
    expect(text).not.toContain(token);
  });
});
