/**
 * A compact set of strings by 53-bit fingerprint (open addressing in a Float64Array): keeps every
 * generated email unique across a million-person dataset in ~8 bytes a slot instead of a Set of
 * strings. A fingerprint collision only makes the generator try another address, so it costs
 * realism in one case in ~10^9, never correctness.
 */
export class SeenSet {
  private slots: Float64Array;
  private used = 0;

  constructor(expected = 1024) {
    let capacity = 1024;
    while (capacity < expected * 2) capacity *= 2;
    this.slots = new Float64Array(capacity);
  }

  get size(): number {
    return this.used;
  }

  /** Adds `text`; false when it (or its fingerprint) was already there. */
  add(text: string): boolean {
    const fp = fingerprint(text);
    if (!this.insert(fp)) return false;
    if (this.used * 2 > this.slots.length) this.grow();
    return true;
  }

  has(text: string): boolean {
    const fp = fingerprint(text);
    const mask = this.slots.length - 1;
    for (let i = fp % this.slots.length; ; i = (i + 1) & mask) {
      const v = this.slots[i]!;
      if (v === 0) return false;
      if (v === fp) return true;
    }
  }

  private insert(fp: number): boolean {
    const mask = this.slots.length - 1;
    for (let i = fp % this.slots.length; ; i = (i + 1) & mask) {
      const v = this.slots[i]!;
      if (v === fp) return false;
      if (v === 0) {
        this.slots[i] = fp;
        this.used++;
        return true;
      }
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Float64Array(old.length * 2);
    this.used = 0;
    for (const v of old) if (v !== 0) this.insert(v);
  }
}

/** Two FNV-1a variants combined into a non-zero 53-bit integer. */
function fingerprint(text: string): number {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  const fp = (h1 >>> 0) * 2097152 + ((h2 >>> 0) >>> 11);
  return fp === 0 ? 1 : fp;
}
