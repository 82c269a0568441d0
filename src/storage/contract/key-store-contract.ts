import { describe, expect, it } from 'vitest';
import { DuplicateKeyName } from '../../accounts/key-store.js';
import { newKey, type CurrentStorage } from './fixtures.js';

export function keyStoreContract(storage: CurrentStorage): void {
  const keys = () => storage().keys;

  describe('KeyStore', () => {
    it('creates a key with an id, no calls, a creation time and not revoked', async () => {
      const before = Date.now();
      const created = await keys().create(newKey('alpha'));
      expect(created).toMatchObject({ ...newKey('alpha'), callsUsed: 0, revokedAt: null });
      expect(created.id).toBeTypeOf('number');
      expect(new Date(created.createdAt).toISOString()).toBe(created.createdAt);
      expect(Date.parse(created.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    });

    it('finds by hash and by name, and answers undefined for unknown ones', async () => {
      const created = await keys().create(newKey('alpha'));
      expect(await keys().findByHash('hash-of-alpha')).toEqual(created);
      expect(await keys().findByName('alpha')).toEqual(created);
      expect(await keys().findById(created.id)).toEqual(created);
      expect(await keys().findById(created.id + 1000)).toBeUndefined();
      expect(await keys().findByHash('nope')).toBeUndefined();
      expect(await keys().findByName('nope')).toBeUndefined();
    });

    it('round-trips every setting, telling null fields from an empty list', async () => {
      const everything = newKey('full', {
        services: ['verification', 'enrichment', 'eam', 'lists'],
        variant: 'email_validation',
        fields: ['age', 'household_income', 'eam.date_first_seen'],
        quota: 10_000_000_000, // past 2^31: a BIGINT must come back as a number
        rate: 25,
        recordRate: 2_000,
        trial: true,
        bouncers: true,
        evidence: true,
      });
      await keys().create(everything);
      await keys().create(newKey('none', { fields: [], services: [] }));
      expect(await keys().findByName('full')).toMatchObject(everything);
      expect(await keys().findByName('none')).toMatchObject({ fields: [], services: [], quota: null, recordRate: null });
    });

    it('refuses a taken name with DuplicateKeyName and stores nothing', async () => {
      await keys().create(newKey('alpha'));
      const again = keys().create(newKey('alpha', { keyHash: 'another-hash' }));
      await expect(again).rejects.toBeInstanceOf(DuplicateKeyName);
      await expect(again).rejects.toMatchObject({ keyName: 'alpha' });
      expect(await keys().count()).toBe(1);
    });

    it('refuses a taken hash, but not as a duplicate name', async () => {
      await keys().create(newKey('alpha'));
      const error = await keys()
        .create(newKey('beta', { keyHash: 'hash-of-alpha' }))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(DuplicateKeyName);
      expect(await keys().findByName('beta')).toBeUndefined();
    });

    it('lists keys in creation order, revoked ones included, and counts them', async () => {
      expect(await keys().list()).toEqual([]);
      expect(await keys().count()).toBe(0);
      for (const name of ['b', 'a', 'c']) await keys().create(newKey(name));
      await keys().revoke('a', '2030-01-01T00:00:00.000Z');
      expect((await keys().list()).map((k) => k.name)).toEqual(['b', 'a', 'c']);
      expect(await keys().count()).toBe(3);
    });

    it('updates only the settings given; null is a value, undefined is not', async () => {
      const created = await keys().create(newKey('alpha', { fields: ['age'], quota: 100 }));
      await keys().addCalls(created.id, 7);
      const updated = await keys().update('alpha', { fields: null, rate: 5, quota: undefined, recordRate: 40 });
      expect(updated).toEqual({ ...created, fields: null, rate: 5, recordRate: 40, callsUsed: 7 });
      expect(await keys().findByName('alpha')).toEqual(updated);
      expect(await keys().update('alpha', {})).toEqual(updated);
      expect(await keys().update('alpha', { trial: true, services: ['lists'], bouncers: true, evidence: true })).toMatchObject({
        trial: true,
        bouncers: true,
        evidence: true,
        services: ['lists'],
        quota: 100,
      });
    });

    it('answers undefined when updating or revoking an unknown name', async () => {
      expect(await keys().update('ghost', { rate: 1 })).toBeUndefined();
      expect(await keys().revoke('ghost', '2030-01-01T00:00:00.000Z')).toBeUndefined();
      expect(await keys().count()).toBe(0);
    });

    it('revokes, keeping the first revocation time, and still finds the key by hash', async () => {
      await keys().create(newKey('alpha'));
      const first = await keys().revoke('alpha', '2030-01-01T00:00:00.000Z');
      expect(first?.revokedAt).toBe('2030-01-01T00:00:00.000Z');
      const second = await keys().revoke('alpha', '2031-01-01T00:00:00.000Z');
      expect(second?.revokedAt).toBe('2030-01-01T00:00:00.000Z');
      expect((await keys().findByHash('hash-of-alpha'))?.revokedAt).toBe('2030-01-01T00:00:00.000Z');
    });

    it('adds calls per key and returns the running total', async () => {
      const a = await keys().create(newKey('a'));
      const b = await keys().create(newKey('b'));
      expect(await keys().addCalls(a.id, 3)).toBe(3);
      expect(await keys().addCalls(a.id, 0)).toBe(3);
      expect(await keys().addCalls(b.id, 5_000_000_000)).toBe(5_000_000_000);
      expect(await keys().addCalls(a.id, 4)).toBe(7);
      expect((await keys().findByName('a'))?.callsUsed).toBe(7);
    });

    it('loses no increment when many calls are added at once', async () => {
      const { id } = await keys().create(newKey('busy'));
      const totals = await Promise.all(Array.from({ length: 50 }, () => keys().addCalls(id, 1)));
      expect([...totals].sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect((await keys().findByName('busy'))?.callsUsed).toBe(50);
    });

    it('rejects calls for an unknown key, and counts that are not non-negative integers', async () => {
      const { id } = await keys().create(newKey('alpha'));
      await expect(keys().addCalls(id + 1000, 1)).rejects.toThrow();
      await expect(keys().addCalls(id, -1)).rejects.toBeInstanceOf(RangeError);
      await expect(keys().addCalls(id, 1.5)).rejects.toBeInstanceOf(RangeError);
      expect((await keys().findByName('alpha'))?.callsUsed).toBe(0);
    });

    it('returns copies: mutating a result does not change the store', async () => {
      const created = await keys().create(newKey('alpha', { fields: ['age'] }));
      created.services.push('lists');
      created.fields?.push('interests');
      expect(await keys().findByName('alpha')).toMatchObject({ services: ['verification'], fields: ['age'] });
    });
  });
}
