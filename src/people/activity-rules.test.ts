import { describe, expect, it } from 'vitest';
import { checkedWindows, prepareActivity } from './activity-rules.js';
import type { ActivityEvent } from './person.js';

const a: ActivityEvent = { email: 'a@example.com', source: 'news', seenOn: '2024-03-01', event: 'seen' };

describe('prepareActivity', () => {
  it('keeps each exact repeat once, in first-occurrence order, as copies', () => {
    const extra = { ...a, source: 'shop', note: 'not stored' } as ActivityEvent;
    const batch = prepareActivity([a, { ...a, event: 'open' }, { ...a }, extra, { ...a, seenOn: '2024-03-02' }, { ...a, event: 'open' }]);
    const m = { mailbox: null };
    expect(batch.events).toEqual([
      { ...a, ...m },
      { ...a, event: 'open', ...m },
      { email: 'a@example.com', source: 'shop', seenOn: '2024-03-01', event: 'seen', ...m },
      { ...a, seenOn: '2024-03-02', ...m },
    ]);
    expect(batch.events[0]).not.toBe(a);
    expect(prepareActivity([{ ...a, email: 'j.doe+x@gmail.com' }]).events[0]!.mailbox).toBe('jdoe@gmail.com');
    expect(prepareActivity([]).events).toEqual([]);
  });

  it('refuses a malformed event, saying what is wrong', () => {
    expect(() => prepareActivity([a, { ...a, email: '' }])).toThrow(new RangeError('activity email must be a non-empty string'));
    expect(() => prepareActivity([{ ...a, source: '' }])).toThrow(new RangeError('activity source must be a non-empty string'));
    expect(() => prepareActivity([{ ...a, seenOn: '2024-13-01' }])).toThrow(
      new RangeError('activity day must be YYYY-MM-DD, got "2024-13-01"'),
    );
    expect(() => prepareActivity([{ ...a, seenOn: '2024-3-01' }])).toThrow(RangeError);
    expect(() => prepareActivity([{ ...a, event: 'click' as never }])).toThrow(
      new RangeError('activity event must be seen or open, got "click"'),
    );
  });
});

describe('checkedWindows', () => {
  it('gives the windows back when each start is a day', () => {
    const windows = { since1m: '2024-02-01', since6m: '2023-09-01', since12m: '2023-03-01' };
    expect(checkedWindows(windows)).toBe(windows);
  });

  it('refuses a start that is not a day, naming it', () => {
    expect(() => checkedWindows({ since6m: 'yesterday', since12m: '2024-01-01' })).toThrow(
      new RangeError('since6m must be YYYY-MM-DD, got "yesterday"'),
    );
    expect(() => checkedWindows({ since6m: '2024-01-01', since12m: '2024-02-30x' })).toThrow(
      new RangeError('since12m must be YYYY-MM-DD, got "2024-02-30x"'),
    );
  });
});
