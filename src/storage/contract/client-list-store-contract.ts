import { describe, expect, it } from 'vitest';
import type { ClientListEntry } from '../../verification/client-list-store.js';
import { keyId, type CurrentStorage } from './fixtures.js';

const suppress = (value: string): ClientListEntry => ({ kind: 'suppression', value });
const allow = (value: string): ClientListEntry => ({ kind: 'exception', value });

export function clientListStoreContract(storage: CurrentStorage): void {
  const lists = () => storage().clientLists;

  describe('ClientListStore', () => {
    it('adds entries and returns how many were new, ignoring repeats', async () => {
      const id = await keyId(storage(), 'alpha');
      const other = await keyId(storage(), 'beta');
      expect(await lists().hasAny(id)).toBe(false);
      expect(await lists().add(id, [])).toBe(0);
      expect(await lists().hasAny(id)).toBe(false);
      expect(await lists().add(id, [suppress('a@x.com'), suppress('x.com'), suppress('a@x.com')])).toBe(2);
      expect(await lists().add(id, [suppress('x.com'), suppress('b@x.com')])).toBe(1);
      expect(await lists().add(id, [allow('x.com')])).toBe(1); // same value, other kind
      expect(await lists().hasAny(id)).toBe(true);
      expect(await lists().hasAny(other)).toBe(false);
      expect(await lists().count(id, 'suppression')).toBe(3);
      expect(await lists().count(id, 'exception')).toBe(1);
    });

    it('matches the address and its whole domain, address entries first', async () => {
      const id = await keyId(storage(), 'alpha');
      await lists().add(id, [suppress('x.com'), allow('a@x.com'), suppress('a@x.com'), allow('b@y.com')]);
      expect(await lists().match(id, 'a@x.com', 'x.com')).toEqual([allow('a@x.com'), suppress('a@x.com'), suppress('x.com')]);
      expect(await lists().match(id, 'c@x.com', 'x.com')).toEqual([suppress('x.com')]);
      expect(await lists().match(id, 'b@y.com', 'y.com')).toEqual([allow('b@y.com')]);
    });

    it('matches exactly: no parent domains, other addresses or other keys', async () => {
      const a = await keyId(storage(), 'a');
      const b = await keyId(storage(), 'b');
      await lists().add(a, [suppress('x.com'), suppress('a@x.com')]);
      expect(await lists().match(a, 'a@mail.x.com', 'mail.x.com')).toEqual([]);
      expect(await lists().match(a, 'z@z.com', 'z.com')).toEqual([]);
      expect(await lists().match(b, 'a@x.com', 'x.com')).toEqual([]);
      expect(await lists().count(b, 'suppression')).toBe(0);
      expect(await lists().add(b, [suppress('x.com')])).toBe(1);
      expect(await lists().count(a, 'suppression')).toBe(2);
    });

    it('adds large files in one call', async () => {
      const id = await keyId(storage(), 'bulk');
      const entries = Array.from({ length: 12_345 }, (_, i) => suppress(`user${i}@bulk.example`));
      expect(await lists().add(id, entries)).toBe(12_345);
      expect(await lists().add(id, [...entries.slice(0, 10_000), suppress('new@bulk.example')])).toBe(1);
      expect(await lists().count(id, 'suppression')).toBe(12_346);
      expect(await lists().match(id, 'user12344@bulk.example', 'bulk.example')).toEqual([suppress('user12344@bulk.example')]);
    });
  });
}
