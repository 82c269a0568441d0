import { describe, expect, it } from 'vitest';
import { prepareActivity } from '../../people/activity-rules.js';
import { activityByEmail } from '../../people/mailbox-lookup.js';
import type { ActivityEvent } from '../../people/person.js';
import type { CurrentStorage } from './fixtures.js';

const ev = (email: string, source: string, seenOn: string, event: ActivityEvent['event'] = 'seen'): ActivityEvent => ({
  email,
  source,
  seenOn,
  event,
});
const windows = { since6m: '2024-01-01', since12m: '2023-07-01' };

export function activityStoreContract(storage: CurrentStorage): void {
  const activity = () => storage().activity;
  const add = (events: ActivityEvent[]) => activity().add(prepareActivity(events));

  describe('ActivityStore', () => {
    it('adds events once, ignoring those already stored', async () => {
      expect(await add([])).toBe(0);
      expect(await activity().hasAny()).toBe(false);
      const a = ev('a@example.com', 'news', '2024-03-01');
      expect(await add([a, a, { ...a, event: 'open' }])).toBe(2);
      expect(await activity().hasAny()).toBe(true);
      expect(await add([a, { ...a, source: 'shop' }, { ...a, seenOn: '2024-03-02' }])).toBe(2);
      expect(await add([{ ...a, event: 'open' }, a])).toBe(0);
    });

    it('computes first seen, 6-month events, 12-month sources and last open', async () => {
      await add([
        ev('a@example.com', 'old', '2019-05-05', 'open'),
        ev('a@example.com', 'news', '2023-06-30', 'open'), // a day before the 12-month window
        ev('a@example.com', 'news', '2023-07-01'),
        ev('a@example.com', 'shop', '2023-12-31', 'open'),
        ev('a@example.com', 'shop', '2024-01-01'),
        ev('a@example.com', 'news', '2024-02-10'),
        ev('a@example.com', 'blog', '2024-02-10', 'open'),
        ev('b@example.com', 'news', '2020-01-01', 'open'),
      ]);
      const stats = await activity().statsFor(['a@example.com', 'b@example.com', 'c@example.com', 'a@example.com'], windows);
      expect(stats.get('a@example.com')).toEqual({ firstSeen: '2019-05-05', events6m: 3, sources12m: 3, lastOpen12m: '2024-02-10' });
      expect(stats.get('b@example.com')).toEqual({ firstSeen: '2020-01-01', events6m: 0, sources12m: 0, lastOpen12m: null });
      expect(stats.get('c@example.com')).toEqual({ firstSeen: null, events6m: 0, sources12m: 0, lastOpen12m: null });
      expect(stats.size).toBe(3);
    });

    it('counts the events of every spelling of a mailbox for an address with none of its own', async () => {
      await add([
        ev('johnsmith@gmail.com', 'news', '2024-02-01', 'open'),
        ev('john.smith+shop@googlemail.com', 'shop', '2023-08-01'),
        ev('john.smith@yahoo.com', 'news', '2024-02-01'),
        ev('j.o.h.n.smith@gmail.com', 'blog', '2022-01-01'),
      ]);
      const stats = await activityByEmail(activity(), ['j.ohn.smith@gmail.com', 'j.o.h.n.smith@gmail.com', 'johnsmith@yahoo.com'], windows);
      expect(stats.get('j.ohn.smith@gmail.com')).toEqual({
        firstSeen: '2022-01-01',
        events6m: 1,
        sources12m: 2,
        lastOpen12m: '2024-02-01',
      });
      // As written first: this spelling has events of its own.
      expect(stats.get('j.o.h.n.smith@gmail.com')).toEqual({ firstSeen: '2022-01-01', events6m: 0, sources12m: 0, lastOpen12m: null });
      // Yahoo: dots make another mailbox.
      expect(stats.get('johnsmith@yahoo.com')).toEqual({ firstSeen: null, events6m: 0, sources12m: 0, lastOpen12m: null });
    });

    it('answers 1,200 addresses in one call', async () => {
      const emails = Array.from({ length: 1_200 }, (_, i) => `u${i}@example.com`);
      expect(await add(emails.flatMap((e, i) => [ev(e, 's1', '2024-02-01'), ev(e, `s${i % 3}`, '2024-02-02', 'open')]))).toBe(2_400);
      const stats = await activity().statsFor(emails, windows);
      expect(stats.size).toBe(1_200);
      expect(stats.get('u1@example.com')).toEqual({ firstSeen: '2024-02-01', events6m: 2, sources12m: 1, lastOpen12m: '2024-02-02' });
      expect(stats.get('u2@example.com')).toEqual({ firstSeen: '2024-02-01', events6m: 2, sources12m: 2, lastOpen12m: '2024-02-02' });
    });
  });
}
