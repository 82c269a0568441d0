/**
 * The `Duplicate` column: `true` on every record whose address appears elsewhere in the list
 * (all occurrences, the first included). One pass over the addresses builds the index; it keeps
 * 53-bit hashes, not strings, so a million addresses cost tens of megabytes, not hundreds. Two
 * different addresses share a hash with odds of about 1 in 10,000 per million-record list; the
 * price of a collision is one wrong `Duplicate` flag, never a lost record.
 */

/** Addresses compare trimmed and case-insensitively. */
export function duplicateKey(email: string): string {
  return email.trim().toLowerCase();
}

// cyrb53 (public domain, bryc): a fast 53-bit string hash.
export function hash53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

export class DuplicateIndex {
  private readonly seen = new Set<number>();
  private readonly repeated = new Set<number>();

  add(email: string): void {
    const key = duplicateKey(email);
    if (key === '') return;
    const h = hash53(key);
    if (this.seen.has(h)) this.repeated.add(h);
    else this.seen.add(h);
  }

  isDuplicate(email: string): boolean {
    const key = duplicateKey(email);
    return key !== '' && this.repeated.has(hash53(key));
  }

  static async build(emails: AsyncIterable<string> | Iterable<string>): Promise<DuplicateIndex> {
    const index = new DuplicateIndex();
    for await (const email of emails) index.add(email);
    return index;
  }
}
