import { describe, expect, it } from 'vitest';
import { DuplicateKeyName } from '../../accounts/key-store.js';
import type { Storage } from '../interfaces.js';
import { newKey, type CurrentStorage, type OpenStorage } from './fixtures.js';

/**
 * A second handle on the same database, as the server and the `mailsure keys` CLI have: opening
 * migrates again (which must be harmless) and both see and guard the same data.
 */
export function reopenContract(storage: CurrentStorage, reopen: OpenStorage): void {
  describe('a second handle on the same database', () => {
    const withSecond = async (test: (second: Storage) => Promise<void>) => {
      const second = await reopen();
      try {
        await test(second);
      } finally {
        await second.close();
      }
    };

    it('migrates again harmlessly and sees the existing data', async () => {
      const created = await storage().keys.create(newKey('alpha'));
      await storage().usage.add(created.id, '2030-01-01', { verification: 2 });
      await withSecond(async (second) => {
        await second.ping();
        expect(await second.keys.findByName('alpha')).toEqual(created);
        expect((await second.usage.totals(created.id)).verification).toBe(2);
      });
      await withSecond(async (third) => expect(await third.keys.count()).toBe(1));
    });

    it('refuses a name the other handle took', async () => {
      await storage().keys.create(newKey('alpha'));
      await withSecond(async (second) => {
        await expect(second.keys.create(newKey('alpha', { keyHash: 'h2' }))).rejects.toBeInstanceOf(DuplicateKeyName);
      });
    });

    it('loses no increment when both handles add calls at once', async () => {
      const { id } = await storage().keys.create(newKey('busy'));
      await withSecond(async (second) => {
        const adds = Array.from({ length: 20 }, (_, i) => (i % 2 ? second : storage()).keys.addCalls(id, 1));
        await Promise.all(adds);
        expect((await second.keys.findByName('busy'))?.callsUsed).toBe(20);
      });
    });
  });
}
