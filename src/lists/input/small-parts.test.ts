import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DuplicateIndex, duplicateKey, hash53 } from './duplicates.js';
import { feedableServices, planServices } from './service-inputs.js';
import { decodeWindows1252 } from './text-decoder.js';

describe('DuplicateIndex', () => {
  it('marks every occurrence of a repeated address, case and spaces aside', async () => {
    const index = await DuplicateIndex.build(['a@b.com', 'x@y.com', ' A@B.com ', '', '', 'z@y.com']);
    expect(['a@b.com', 'A@B.COM', 'x@y.com', 'z@y.com', '', 'new@x.com'].map((e) => index.isDuplicate(e))).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(duplicateKey(' A@B.com ')).toBe('a@b.com');
  });

  it('counts right while its table grows', () => {
    const index = new DuplicateIndex();
    const seen = new Map<number, number>();
    for (let i = 0; i < 20_000; i++) {
      const hash = (i * 7919) % 15_000;
      index.addHash(hash);
      seen.set(hash, (seen.get(hash) ?? 0) + 1);
    }
    for (let hash = 0; hash < 16_000; hash++) expect(index.isDuplicateHash(hash)).toBe((seen.get(hash) ?? 0) > 1);
    expect(index.isDuplicateHash(-1)).toBe(false);
  });

  it('agrees with an exact set on random lists', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a@x.com', 'b@x.com', 'c@x.com', 'd@y.org', 'E@y.org', 'e@y.org'), { maxLength: 30 }),
        (emails) => {
          const index = new DuplicateIndex();
          emails.forEach((e) => index.add(e));
          for (const e of emails) {
            const occurrences = emails.filter((o) => duplicateKey(o) === duplicateKey(e)).length;
            expect(index.isDuplicate(e)).toBe(occurrences > 1);
          }
        },
      ),
    );
  });

  it('hashes to safe integers', () => {
    fc.assert(fc.property(fc.string(), (s) => Number.isSafeInteger(hash53(s)) && hash53(s) >= 0));
  });
});

describe('services a file can feed', () => {
  it('decides from the columns', () => {
    expect(feedableServices({ email: 0 })).toEqual(['email_validation', 'email_intelligence']);
    expect(feedableServices({ md5: 0 })).toEqual(['email_intelligence']);
    expect(feedableServices({ first: 0, last: 1, street: 2, city: 3, state: 4 })).toEqual(['email_intelligence', 'email_append']);
    expect(feedableServices({ first: 0, last: 1, zip: 2 })).toEqual(['email_intelligence']);
    expect(feedableServices({ first: 0, last: 1, street: 2, zip: 3 })).toEqual(['email_intelligence', 'email_append']);
    expect(feedableServices({ first: 0, city: 1 })).toEqual([]);
  });

  it("plans the key's services the file can feed", () => {
    expect(planServices(['email_validation', 'email_append'], { email: 0 })).toEqual({ ok: true, value: ['email_validation'] });
    expect(planServices(['email_validation'], { first: 0, last: 1, zip: 2 })).toEqual({ ok: false, reason: 'No email column found' });
    expect(planServices(['email_append'], { email: 0 })).toEqual({
      ok: false,
      reason: "The file's columns cannot feed any service of this key (email_append)",
    });
  });

  it('refuses an email_column without addresses only when a planned service reads it', () => {
    const mismatch = 'email_column 2 (phone) holds no email addresses; column 1 (mail) does';
    const postal = { email: 1, first: 2, last: 3, street: 4, city: 5, state: 6 };
    expect(planServices(['email_validation', 'email_append'], postal, mismatch)).toEqual({ ok: false, reason: mismatch });
    expect(planServices(['email_intelligence'], postal, mismatch)).toEqual({ ok: false, reason: mismatch });
    expect(planServices(['email_append'], postal, mismatch)).toEqual({ ok: true, value: ['email_append'] });
  });
});

describe('decodeWindows1252', () => {
  it('maps the C1 range as Windows does', () => {
    expect(decodeWindows1252(Buffer.from([0x80, 0x93, 0x94, 0x96, 0x9f, 0xe9, 0x41]))).toBe('€“”–Ÿé' + 'A');
  });
});
