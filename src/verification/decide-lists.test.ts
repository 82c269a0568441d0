import { describe, expect, it } from 'vitest';
import { decideClientLists, decidePolicy } from './decide-lists.js';

describe('decideClientLists', () => {
  it('lets the first (most specific) entry decide', () => {
    expect(decideClientLists([])).toBeUndefined();
    expect(
      decideClientLists([
        { kind: 'exception', value: 'a@x.com' },
        { kind: 'suppression', value: 'x.com' },
      ]),
    ).toEqual({ rule: 'list.client-exception', code: 55 });
    expect(decideClientLists([{ kind: 'suppression', value: 'a@x.com' }])).toEqual({ rule: 'list.client-suppression', code: 255 });
  });
});

describe('decidePolicy', () => {
  it('maps each list to its code', () => {
    expect(decidePolicy([{ kind: 'trap', value: 'x' }], false)).toEqual({ rule: 'list.trap', code: 525 });
    expect(decidePolicy([{ kind: 'complainer', value: 'x' }], false)).toEqual({ rule: 'list.complainer', code: 525 });
    expect(decidePolicy([{ kind: 'optout', value: 'x' }], false)).toEqual({ rule: 'list.optout', code: 530 });
    expect(decidePolicy([{ kind: 'do_not_email', value: 'x' }], false)).toEqual({ rule: 'list.do-not-email', code: 535 });
    expect(decidePolicy([{ kind: 'bouncer', value: 'x' }], true)).toEqual({ rule: 'list.bouncer', code: 520 });
  });

  it('reports bouncers only for keys with the feature', () => {
    expect(decidePolicy([{ kind: 'bouncer', value: 'x' }], false)).toBeUndefined();
  });

  it('lets the most serious listing decide', () => {
    expect(
      decidePolicy(
        [
          { kind: 'bouncer', value: 'x' },
          { kind: 'optout', value: 'x' },
          { kind: 'trap', value: 'd' },
        ],
        true,
      ),
    ).toEqual({ rule: 'list.trap', code: 525 });
  });
});
