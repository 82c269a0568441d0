import { describe, expect, it } from 'vitest';
import type { PolicyEntry, PolicyKind } from '../../verification/policy/policy-store.js';
import type { CurrentStorage } from './fixtures.js';

const entry = (kind: PolicyKind, value: string): PolicyEntry => ({ kind, value });

export function policyStoreContract(storage: CurrentStorage): void {
  const policy = () => storage().policy;

  describe('PolicyStore', () => {
    it('adds entries once and counts them per kind', async () => {
      expect(await policy().hasAny()).toBe(false);
      expect(await policy().add([])).toBe(0);
      expect(await policy().hasAny()).toBe(false);
      expect(await policy().add([entry('trap', 'a@x.com'), entry('trap', 'x.com'), entry('trap', 'a@x.com')])).toBe(2);
      expect(await policy().hasAny()).toBe(true);
      expect(await policy().add([entry('optout', 'a@x.com'), entry('trap', 'x.com')])).toBe(1);
      expect(await policy().count('trap')).toBe(2);
      expect(await policy().count('optout')).toBe(1);
      expect(await policy().count('bouncer')).toBe(0);
    });

    it('matches the address, then its whole domain, in kind order', async () => {
      await policy().add([entry('bouncer', 'x.com'), entry('optout', 'a@x.com'), entry('trap', 'a@x.com'), entry('complainer', 'b@y.com')]);
      expect(await policy().match('a@x.com', 'x.com')).toEqual([
        entry('trap', 'a@x.com'),
        entry('optout', 'a@x.com'),
        entry('bouncer', 'x.com'),
      ]);
      expect(await policy().match('c@x.com', 'x.com')).toEqual([entry('bouncer', 'x.com')]);
      expect(await policy().match('c@mail.x.com', 'mail.x.com')).toEqual([]);
      expect(await policy().match('b@y.com', 'y.com')).toEqual([entry('complainer', 'b@y.com')]);
    });

    it('loads a large file in one call', async () => {
      const entries = Array.from({ length: 5_432 }, (_, i) => entry('do_not_email', `p${i}@dne.example`));
      expect(await policy().add(entries)).toBe(5_432);
      expect(await policy().add(entries.slice(0, 100))).toBe(0);
      expect(await policy().count('do_not_email')).toBe(5_432);
    });
  });
}
