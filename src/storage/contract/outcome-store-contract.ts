import { describe, expect, it } from 'vitest';
import type { OutcomeWrite } from '../../outcomes/outcome-store.js';
import { keyId, type CurrentStorage } from './fixtures.js';

const NOW = '2026-03-01T00:00:00.000Z';
const LATER = '2026-09-01T00:00:00.000Z';

const bounce = (eventId: string, value: string, eventAt = '2026-02-01T00:00:00.000Z', shared = false): OutcomeWrite => ({
  eventId,
  change: { op: 'add', kind: 'bouncer', value, shared, eventAt, expiresAt: LATER },
});
const delivered = (eventId: string, value: string, eventAt: string): OutcomeWrite => ({
  eventId,
  change: { op: 'remove', value, eventAt },
});

export function outcomeStoreContract(storage: CurrentStorage): void {
  const outcomes = () => storage().outcomes;

  describe('OutcomeKeyStore', () => {
    it('finds a key by its token hash; a rotated token replaces the old one', async () => {
      const id = await keyId(storage(), 'alpha');
      const other = await keyId(storage(), 'beta');
      const keys = storage().outcomeKeys;
      expect(await keys.settings(id)).toBeUndefined();
      await keys.setToken(id, 'hash-1');
      await keys.setToken(other, 'hash-2');
      expect(await keys.keyOfToken('hash-1')).toBe(id);
      expect(await keys.keyOfToken('hash-2')).toBe(other);
      await keys.setToken(id, 'hash-3');
      expect(await keys.keyOfToken('hash-1')).toBeUndefined();
      expect(await keys.keyOfToken('hash-3')).toBe(id);
      expect(await keys.settings(id)).toEqual({ keyId: id, hasToken: true, secrets: {}, share: false });
    });

    it('lists the keys holding a token, not those with only secrets or a sharing setting', async () => {
      const keys = storage().outcomeKeys;
      expect(await keys.keysWithToken()).toEqual([]);
      const alpha = await keyId(storage(), 'alpha');
      const beta = await keyId(storage(), 'beta');
      const gamma = await keyId(storage(), 'gamma');
      await keys.setToken(gamma, 'hash-g');
      await keys.setSecrets(beta, { mailgunSigningKey: 'mg-key' });
      await keys.setShare(beta, true);
      await keys.setToken(alpha, 'hash-a');
      expect(await keys.keysWithToken()).toEqual([alpha, gamma]);
    });

    it('keeps the ESP secrets and the sharing setting beside the token', async () => {
      const id = await keyId(storage(), 'alpha');
      const keys = storage().outcomeKeys;
      await keys.setSecrets(id, { mailgunSigningKey: 'mg-key', postmarkBasicAuth: 'u:p' });
      await keys.setShare(id, true);
      expect(await keys.settings(id)).toEqual({
        keyId: id,
        hasToken: false,
        secrets: { mailgunSigningKey: 'mg-key', postmarkBasicAuth: 'u:p' },
        share: true,
      });
      await keys.setSecrets(id, { sendgridPublicKey: 'pk' });
      await keys.setToken(id, 'h');
      expect(await keys.settings(id)).toEqual({ keyId: id, hasToken: true, secrets: { sendgridPublicKey: 'pk' }, share: true });
      await keys.setSecrets(id, {});
      expect((await keys.settings(id))?.secrets).toEqual({});
    });

    it('keeps an SNS subscription for the operator until cleared', async () => {
      const a = await keyId(storage(), 'a');
      const b = await keyId(storage(), 'b');
      const keys = storage().outcomeKeys;
      expect(await keys.pendingSnsSubscriptions()).toEqual([]);
      await keys.setSnsSubscription(b, 'https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&Token=t');
      await keys.setToken(a, 'h');
      expect(await keys.pendingSnsSubscriptions()).toEqual([
        { keyId: b, subscribeUrl: 'https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&Token=t' },
      ]);
      expect((await keys.settings(b))?.snsSubscribeUrl).toBe('https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&Token=t');
      await keys.setSnsSubscription(b, null);
      expect(await keys.pendingSnsSubscriptions()).toEqual([]);
      expect((await keys.settings(b))?.snsSubscribeUrl).toBeUndefined();
    });
  });

  describe('OutcomeStore', () => {
    it('applies an event once: a repeated event id changes nothing', async () => {
      const id = await keyId(storage(), 'alpha');
      expect(await outcomes().hasEntries()).toBe(false);
      expect(await outcomes().apply(id, [bounce('e1', 'x@a.com')], NOW)).toEqual({ applied: 1, repeated: 0 });
      expect(await outcomes().hasEntries()).toBe(true);
      expect(
        await outcomes().apply(id, [delivered('e1', 'x@a.com', LATER), bounce('e2', 'y@a.com'), bounce('e2', 'z@a.com')], NOW),
      ).toEqual({
        applied: 1,
        repeated: 2,
      });
      expect((await outcomes().match('x@a.com', NOW)).map((e) => e.value)).toEqual(['x@a.com']);
      expect(await outcomes().match('z@a.com', NOW)).toEqual([]);
      expect(await outcomes().countEntries(id, NOW)).toEqual({ bouncer: 2, complainer: 0 });
    });

    it('sees event ids per key: the same id from another key applies', async () => {
      const a = await keyId(storage(), 'a');
      const b = await keyId(storage(), 'b');
      await outcomes().apply(a, [bounce('e1', 'x@a.com')], NOW);
      expect(await outcomes().apply(b, [bounce('e1', 'x@a.com', undefined, true)], NOW)).toEqual({ applied: 1, repeated: 0 });
      expect(await outcomes().match('x@a.com', NOW)).toEqual([
        { keyId: a, kind: 'bouncer', value: 'x@a.com', shared: false, eventAt: '2026-02-01T00:00:00.000Z', expiresAt: LATER },
        { keyId: b, kind: 'bouncer', value: 'x@a.com', shared: true, eventAt: '2026-02-01T00:00:00.000Z', expiresAt: LATER },
      ]);
    });

    it('removes only the key’s entries made by events up to the removing one, and only until expiry matches', async () => {
      const a = await keyId(storage(), 'a');
      const b = await keyId(storage(), 'b');
      await outcomes().apply(a, [bounce('e1', 'x@a.com', '2026-02-10T00:00:00.000Z')], NOW);
      await outcomes().apply(b, [bounce('e1', 'x@a.com')], NOW);
      // An older delivery (arriving late) leaves the newer bounce.
      await outcomes().apply(a, [delivered('e2', 'x@a.com', '2026-02-05T00:00:00.000Z')], NOW);
      expect((await outcomes().match('x@a.com', NOW)).map((e) => e.keyId)).toEqual([a, b]);
      await outcomes().apply(a, [delivered('e3', 'x@a.com', '2026-02-11T00:00:00.000Z')], NOW);
      expect((await outcomes().match('x@a.com', NOW)).map((e) => e.keyId)).toEqual([b]);
      // Expired entries are not matched.
      expect(await outcomes().match('x@a.com', LATER)).toEqual([]);
      expect(await outcomes().remove(b, 'x@a.com')).toBe(1);
      expect(await outcomes().remove(b, 'x@a.com')).toBe(0);
    });

    it('applies the writes of one call in order: a bounce after a delivery of the same address stays', async () => {
      const a = await keyId(storage(), 'a');
      await outcomes().apply(
        a,
        [
          bounce('e1', 'x@a.com', '2026-02-01T00:00:00.000Z'),
          delivered('e2', 'x@a.com', '2026-02-02T00:00:00.000Z'),
          bounce('e3', 'x@a.com', '2026-02-03T00:00:00.000Z'),
          { eventId: 'e4', change: { op: 'add', kind: 'complainer', value: 'y@a.com', shared: false, eventAt: NOW, expiresAt: LATER } },
        ],
        NOW,
      );
      expect((await outcomes().match('x@a.com', NOW)).map((e) => e.eventAt)).toEqual(['2026-02-03T00:00:00.000Z']);
      expect(await outcomes().countEntries(a, NOW)).toEqual({ bouncer: 1, complainer: 1 });
    });

    it('applies a long body as its events in order: each address’s changes in turn, each id once', async () => {
      const a = await keyId(storage(), 'a');
      await outcomes().apply(a, [bounce('old', 'y@a.com', '2026-01-01T00:00:00.000Z')], NOW);
      const complaint = (eventId: string, value: string, eventAt: string): OutcomeWrite => ({
        eventId,
        change: { op: 'add', kind: 'complainer', value, shared: false, eventAt, expiresAt: LATER },
      });
      const writes: OutcomeWrite[] = [
        bounce('e1', 'x@a.com', '2026-02-01T00:00:00.000Z'),
        delivered('e2', 'y@a.com', '2026-02-01T00:00:00.000Z'),
        delivered('e3', 'x@a.com', '2026-02-02T00:00:00.000Z'),
        complaint('e4', 'x@a.com', '2026-02-03T00:00:00.000Z'),
        bounce('e1', 'w@a.com'), // a repeated id: not applied
        bounce('e5', 'z@a.com', '2026-02-04T00:00:00.000Z'),
        bounce('e6', 'z@a.com', '2026-02-05T00:00:00.000Z'),
        delivered('e7', 'v@a.com', '2026-02-06T00:00:00.000Z'),
        { eventId: 'e8', domainCount: { domain: 'a.com', day: '2026-02-01', kind: 'deferral' } },
        { eventId: 'e9', domainCount: { domain: 'a.com', day: '2026-02-01', kind: 'deferral' } },
      ];
      // Filler between them, as a webhook body of a hundred events has.
      for (let i = 0; i < 120; i++) writes.push(delivered(`f${i}`, `f${i}@b.com`, '2026-02-07T00:00:00.000Z'));
      expect(await outcomes().apply(a, writes, NOW)).toEqual({ applied: writes.length - 1, repeated: 1 });
      expect(await outcomes().match('x@a.com', NOW)).toEqual([
        { keyId: a, kind: 'complainer', value: 'x@a.com', shared: false, eventAt: '2026-02-03T00:00:00.000Z', expiresAt: LATER },
      ]);
      expect(await outcomes().match('y@a.com', NOW)).toEqual([]);
      expect(await outcomes().match('w@a.com', NOW)).toEqual([]);
      expect((await outcomes().match('z@a.com', NOW)).map((e) => e.eventAt)).toEqual(['2026-02-05T00:00:00.000Z']);
      expect(await outcomes().countEntries(a, NOW)).toEqual({ bouncer: 1, complainer: 1 });
      expect(await outcomes().domainCounts(a, '2026-01-01')).toEqual([{ domain: 'a.com', day: '2026-02-01', kind: 'deferral', count: 2 }]);
      // The whole body again: every id seen, nothing changes.
      expect(await outcomes().apply(a, writes, NOW)).toEqual({ applied: 0, repeated: writes.length });
      expect(await outcomes().domainCounts(a, '2026-01-01')).toEqual([{ domain: 'a.com', day: '2026-02-01', kind: 'deferral', count: 2 }]);
    });

    it('adds per-domain counts and accuracy counts, summed per day', async () => {
      const a = await keyId(storage(), 'a');
      const b = await keyId(storage(), 'b');
      const count = (eventId: string, domain: string, day: string): OutcomeWrite => ({
        eventId,
        domainCount: { domain, day, kind: 'blocked' },
        accuracy: { day, code: 50, kind: 'blocked', source: 'sendgrid' },
      });
      await outcomes().apply(
        a,
        [count('1', 'a.com', '2026-02-01'), count('2', 'a.com', '2026-02-01'), count('3', 'b.com', '2026-02-02')],
        NOW,
      );
      await outcomes().apply(b, [count('1', 'a.com', '2026-02-01')], NOW);
      await outcomes().apply(a, [count('2', 'a.com', '2026-02-01')], NOW); // repeated: not counted
      expect(await outcomes().domainCounts(a, '2026-01-01')).toEqual([
        { domain: 'a.com', day: '2026-02-01', kind: 'blocked', count: 2 },
        { domain: 'b.com', day: '2026-02-02', kind: 'blocked', count: 1 },
      ]);
      expect(await outcomes().domainCounts(a, '2026-02-02')).toEqual([{ domain: 'b.com', day: '2026-02-02', kind: 'blocked', count: 1 }]);
      expect(await outcomes().accuracy(a, '2026-01-01')).toEqual([
        { day: '2026-02-01', code: 50, kind: 'blocked', source: 'sendgrid', count: 2 },
        { day: '2026-02-02', code: 50, kind: 'blocked', source: 'sendgrid', count: 1 },
      ]);
      expect((await outcomes().accuracy(undefined, '2026-01-01'))[0]).toEqual({
        day: '2026-02-01',
        code: 50,
        kind: 'blocked',
        source: 'sendgrid',
        count: 3,
      });
    });

    it('prunes expired entries, old event ids and old days', async () => {
      const a = await keyId(storage(), 'a');
      await outcomes().apply(
        a,
        [bounce('e1', 'x@a.com'), { eventId: 'e2', domainCount: { domain: 'a.com', day: '2026-01-01', kind: 'deferral' } }],
        NOW,
      );
      await outcomes().prune({ now: LATER, seenBefore: '2026-03-02T00:00:00.000Z', dayBefore: '2026-02-01' });
      expect(await outcomes().hasEntries()).toBe(false);
      expect(await outcomes().domainCounts(a, '2000-01-01')).toEqual([]);
      // The id was forgotten: the event applies again.
      expect(await outcomes().apply(a, [bounce('e1', 'x@a.com')], NOW)).toEqual({ applied: 1, repeated: 0 });
    });
  });

  describe('VerdictRecordStore', () => {
    it('keeps the last verdict per key and id, finds and prunes them', async () => {
      const a = await keyId(storage(), 'a');
      const b = await keyId(storage(), 'b');
      const records = storage().verdictRecords;
      await records.record([
        { keyId: a, id: 'h1', code: 50, at: '2026-01-01T00:00:00.000Z' },
        { keyId: a, id: 'h1', code: 400, at: '2026-01-02T00:00:00.000Z' },
        { keyId: b, id: 'h1', code: 45, at: '2026-01-01T00:00:00.000Z' },
      ]);
      await records.record([{ keyId: a, id: 'h2', code: 20, at: '2026-01-03T00:00:00.000Z' }]);
      const found = await records.find(a, ['h1', 'h2', 'h3']);
      expect(found.sort((x, y) => x.id.localeCompare(y.id))).toEqual([
        { keyId: a, id: 'h1', code: 400, at: '2026-01-02T00:00:00.000Z' },
        { keyId: a, id: 'h2', code: 20, at: '2026-01-03T00:00:00.000Z' },
      ]);
      expect(await records.find(b, ['h1'])).toEqual([{ keyId: b, id: 'h1', code: 45, at: '2026-01-01T00:00:00.000Z' }]);
      expect(await records.prune('2026-01-02T12:00:00.000Z')).toBe(2);
      expect(await records.find(a, ['h1', 'h2'])).toEqual([{ keyId: a, id: 'h2', code: 20, at: '2026-01-03T00:00:00.000Z' }]);
    });
  });
}
