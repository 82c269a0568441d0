/**
 * The `Duplicate` column: `true` on every record whose address appears elsewhere in the list
 * (all occurrences, the first included). The index keeps 53-bit hashes, not strings, so a
 * million addresses cost tens of megabytes, not hundreds. Two different addresses share a hash
 * with odds of about 1 in 10,000 per million-record list; the price of a collision is one wrong
 * `Duplicate` flag, never a lost record.
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
 * An open-addressing table of hashes with a count each (capped at 2: "seen again" is all that
 * matters): 9 bytes a slot, no per-entry objects for the garbage collector to trace, and a lookup
 * is a few array reads. A million addresses take 18 MB (2²¹ slots, half full at most). A Set of
 * numbers held three times that, and its lookups of non-integer numbers were a tenth of the
 * results file's time.
 */
export class DuplicateIndex {
  private slots = new Float64Array(1024).fill(NO_HASH);
  private counts = new Uint8Array(1024);
  private size = 0;

  add(email: string): void {
    this.addHash(duplicateHash(email));
  }

  /** `duplicateHash` of an address, computed elsewhere (chunks store theirs). */
  addHash(hash: number): void {
    if (hash === NO_HASH) return;
    const at = this.find(hash);
    if (this.slots[at] === hash) {
      this.counts[at] = 2;
      return;
    }
    this.slots[at] = hash;
    this.counts[at] = 1;
    if (++this.size * 2 > this.slots.length) this.grow();
  }

  isDuplicate(email: string): boolean {
    return this.isDuplicateHash(duplicateHash(email));
  }

  isDuplicateHash(hash: number): boolean {
    if (hash === NO_HASH) return false;
    const at = this.find(hash);
    return this.slots[at] === hash && this.counts[at] === 2;
  }

  /** The slot holding `hash`, or the empty one where it would go (linear probing). */
  private find(hash: number): number {
    const mask = this.slots.length - 1;
    // The low 32 bits of a uniform 53-bit hash are uniform too.
    let at = (hash >>> 0) & mask;
    for (;;) {
      const slot = this.slots[at]!;
      if (slot === hash || slot === NO_HASH) return at;
      at = (at + 1) & mask;
    }
  }

  private grow(): void {
    const { slots, counts } = this;
    this.slots = new Float64Array(slots.length * 2).fill(NO_HASH);
    this.counts = new Uint8Array(slots.length * 2);
    for (let i = 0; i < slots.length; i++) {
      if (slots[i] === NO_HASH) continue;
      const at = this.find(slots[i]!);
      this.slots[at] = slots[i]!;
      this.counts[at] = counts[i]!;
    }
  }

  static async build(emails: AsyncIterable<string> | Iterable<string>): Promise<DuplicateIndex> {
    const index = new DuplicateIndex();
    for await (const email of emails) index.add(email);
    return index;
  }
}
