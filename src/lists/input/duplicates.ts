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

/** A record without an address: never a duplicate. */
export const NO_HASH = -1;

/** The hash the index keeps for an address; `NO_HASH` when it is empty. */
export function duplicateHash(email: string): number {
  const key = duplicateKey(email);
  return key === '' ? NO_HASH : hash53(key);
}

/**
 * Hashes gather in a growing Float64Array (8 bytes an address, no per-entry objects for the
 * garbage collector to trace); the first lookup sorts them once and keeps only the repeated
 * ones. A million addresses peak at about 16 MB, where two Sets of numbers held over 60 MB.
 */
export class DuplicateIndex {
  private hashes = new Float64Array(1024);
  private count = 0;
  private repeated: Set<number> | undefined;

  add(email: string): void {
    this.addHash(duplicateHash(email));
  }

  /** `duplicateHash` of an address, computed elsewhere (chunks store theirs). */
  addHash(hash: number): void {
    if (hash === NO_HASH) return;
    if (this.count === this.hashes.length) {
      const grown = new Float64Array(this.hashes.length * 2);
      grown.set(this.hashes);
      this.hashes = grown;
    }
    this.hashes[this.count++] = hash;
    this.repeated = undefined;
  }

  isDuplicate(email: string): boolean {
    return this.isDuplicateHash(duplicateHash(email));
  }

  isDuplicateHash(hash: number): boolean {
    return hash !== NO_HASH && this.sealed().has(hash);
  }

  private sealed(): Set<number> {
    if (this.repeated) return this.repeated;
    const sorted = this.hashes.subarray(0, this.count).sort();
    const repeated = new Set<number>();
    for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) repeated.add(sorted[i]!);
    this.repeated = repeated;
    return repeated;
  }

  static async build(emails: AsyncIterable<string> | Iterable<string>): Promise<DuplicateIndex> {
    const index = new DuplicateIndex();
    for await (const email of emails) index.add(email);
    return index;
  }
}
