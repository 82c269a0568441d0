// A lower bound on the typo distance that needs no alignment, so that most candidates out of
// reach are turned down before any table is filled.
//
// In any alignment, the letters one string has more of than the other (as multisets) are not
// matched: each costs at least a drop, an extra character or its half of a substitution. Every
// one of those costs at least 0.5, and a substitution costs 0.5 only between neighbouring keys:
// an intended letter that no typed letter neighbours costs at least 0.5 on its own, on top of
// whatever its typed partner costs. So, in units of 0.05, the distance is at least
//   10 × max(missing, extra + far)
// where `missing` counts intended letters the typed string lacks, `extra` typed letters the
// intended one lacks, and `far` the missing letters not beside any typed key (dots count as far:
// a dot for a letter is never a neighbouring-key slip).

import { areAdjacentCodes } from './keyboard.js';

const DOT = 0x2e;
/** Units a single dropped, extra or substituted character costs at the least (0.5). */
const MIN_EDIT_UNITS = 10;

/** The letters of an intended string, each once, and how often each occurs. */
export interface Letters {
  readonly length: number;
  readonly letters: Int32Array;
  readonly counts: Int32Array;
}

export function lettersOf(text: string): Letters {
  const counts = new Map<number, number>();
  for (let i = 0; i < text.length; i++) {
    const c = bucket(text.charCodeAt(i));
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  return { length: text.length, letters: Int32Array.from(counts.keys()), counts: Int32Array.from(counts.values()) };
}

// Keys beside each ASCII key (never a dot), for marking what a typed letter may stand for.
const NEIGHBOURS: readonly Int32Array[] = Array.from({ length: 128 }, (_, c) => {
  const out: number[] = [];
  if (c !== DOT) for (let d = 0; d < 128; d++) if (d !== DOT && areAdjacentCodes(c, d)) out.push(d);
  return Int32Array.from(out);
});

/** The typed side: letter counts and which keys are beside some typed letter. Grows a letter at a time. */
export class TypedLetters {
  length = 0;
  readonly #counts = new Int32Array(128);
  readonly #near = new Uint8Array(128);

  add(code: number): void {
    this.length++;
    this.#counts[bucket(code)]!++;
    if (code < 128) for (const d of NEIGHBOURS[code]!) this.#near[d] = 1;
  }

  clear(): void {
    this.length = 0;
    this.#counts.fill(0);
    this.#near.fill(0);
  }

  /** A lower bound, in units of 0.05, on the typo cost of what was added standing for `intended`. */
  lowerBound(intended: Letters): number {
    let missing = 0;
    let far = 0;
    for (let j = 0; j < intended.letters.length; j++) {
      const c = intended.letters[j]!;
      const short = intended.counts[j]! - this.#counts[c]!;
      if (short <= 0) continue;
      missing += short;
      if (c === DOT || this.#near[c] === 0) far += short;
    }
    const extra = this.length - intended.length + missing;
    return MIN_EDIT_UNITS * Math.max(missing, extra + far);
  }
}

/** Letters share counters past ASCII; merging letters only weakens the bound, never breaks it. */
function bucket(code: number): number {
  return code & 127;
}
