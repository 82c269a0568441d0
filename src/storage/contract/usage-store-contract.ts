import { describe, expect, it } from 'vitest';
import { keyId, type CurrentStorage } from './fixtures.js';

const ZERO = { verification: 0, enrichment_field: 0, append_match: 0, list_record: 0 };

export function usageStoreContract(storage: CurrentStorage): void {
  const usage = () => storage().usage;

  describe('UsageStore', () => {
    it('totals zero for every unit before any usage', async () => {
      const id = await keyId(storage(), 'alpha');
      expect(await usage().totals(id)).toEqual(ZERO);
    });

    it('sums each unit across days and calls', async () => {
      const id = await keyId(storage(), 'alpha');
      await usage().add(id, '2030-01-01', { verification: 2, enrichment_field: 5 });
      await usage().add(id, '2030-01-01', { verification: 1 });
      await usage().add(id, '2030-01-02', { verification: 10, append_match: 1, list_record: 3 });
      await usage().add(id, '2030-01-03', { list_record: 4_000_000_000 });
      expect(await usage().totals(id)).toEqual({
        verification: 13,
        enrichment_field: 5,
        append_match: 1,
        list_record: 4_000_000_003,
      });
    });

    it('ignores zero and empty counts', async () => {
      const id = await keyId(storage(), 'alpha');
      await usage().add(id, '2030-01-01', {});
      await usage().add(id, '2030-01-01', { verification: 0 });
      expect(await usage().totals(id)).toEqual(ZERO);
    });

    it('keeps keys apart', async () => {
      const a = await keyId(storage(), 'a');
      const b = await keyId(storage(), 'b');
      await usage().add(a, '2030-01-01', { verification: 1 });
      await usage().add(b, '2030-01-01', { verification: 2, append_match: 1 });
      expect(await usage().totals(a)).toEqual({ ...ZERO, verification: 1 });
      expect(await usage().totals(b)).toEqual({ ...ZERO, verification: 2, append_match: 1 });
    });

    it('loses no count when many adds for the same day and unit run at once', async () => {
      const id = await keyId(storage(), 'busy');
      await Promise.all(Array.from({ length: 40 }, (_, i) => usage().add(id, '2030-01-01', { verification: 1, list_record: i })));
      expect(await usage().totals(id)).toEqual({ ...ZERO, verification: 40, list_record: (39 * 40) / 2 });
    });

    it('rejects a malformed day and counts that are not non-negative integers', async () => {
      const id = await keyId(storage(), 'alpha');
      await expect(usage().add(id, '2030-1-1', { verification: 1 })).rejects.toBeInstanceOf(RangeError);
      await expect(usage().add(id, '2030-01-01T00:00', { verification: 1 })).rejects.toBeInstanceOf(RangeError);
      await expect(usage().add(id, '2030-01-01', { verification: -1 })).rejects.toBeInstanceOf(RangeError);
      await expect(usage().add(id, '2030-01-01', { verification: 0.5 })).rejects.toBeInstanceOf(RangeError);
      expect(await usage().totals(id)).toEqual(ZERO);
    });
  });
}
