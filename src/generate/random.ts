/**
 * A small seeded PRNG (sfc32, Chris Doty-Humphrey's Small Fast Counting generator: 128-bit state,
 * passes PractRand to 2^40+) with the draws the generator needs. Never Math.random: the same seed
 * string gives the same sequence on every platform, which is what makes datasets reproducible.
 */

/** cyrb128: a fast 128-bit string hash, used only to expand a seed string into sfc32 state. */
function hash128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** `seed` names the stream: `${datasetSeed}/people` and `${datasetSeed}/activity` never overlap. */
  constructor(seed: string) {
    [this.a, this.b, this.c, this.d] = hash128(seed);
    for (let i = 0; i < 15; i++) this.next();
  }

  /** Uniform 32-bit unsigned integer. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)]!;
  }

  /** Standard normal (Box-Muller; one value per call keeps the stream simple to reason about). */
  normal(): number {
    const u = 1 - this.float();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.float());
  }

  /** Index drawn with the given (unnormalised, non-negative) weights; -1 when all are zero. */
  weightedIndex(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    if (total <= 0) return -1;
    let x = this.float() * total;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i]!;
      if (x < 0) return i;
    }
    return weights.length - 1;
  }
}

/**
 * Many draws from one fixed distribution (names, ZIP Codes, sources): cumulative weights and a
 * binary search, O(log n) a draw.
 */
export class WeightedTable<T> {
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(
    readonly items: readonly T[],
    weights: readonly number[],
  ) {
    if (items.length === 0 || items.length !== weights.length) throw new Error('WeightedTable needs one weight per item');
    this.cumulative = new Float64Array(items.length);
    let sum = 0;
    for (let i = 0; i < items.length; i++) {
      sum += weights[i]!;
      this.cumulative[i] = sum;
    }
    this.total = sum;
  }

  draw(rng: Rng): T {
    const x = rng.float() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo]!;
  }
}

/** A fixed small distribution (a handful of options): cumulative weights, linear scan. */
export class Choice<T> {
  private readonly cumulative: number[];

  constructor(
    readonly items: readonly T[],
    weights: readonly number[],
  ) {
    let sum = 0;
    this.cumulative = weights.map((w) => (sum += w));
    if (items.length !== weights.length || sum <= 0) throw new Error('Choice needs one positive-sum weight per item');
  }

  draw(rng: Rng): T {
    const x = rng.float() * this.cumulative[this.cumulative.length - 1]!;
    let i = 0;
    while (this.cumulative[i]! <= x && i < this.cumulative.length - 1) i++;
    return this.items[i]!;
  }
}

/** Weights by frequency rank (1/(rank+8)): close to the shape of US name-frequency tables. */
export function rankWeights(n: number): number[] {
  return Array.from({ length: n }, (_, i) => 1 / (i + 9));
}
