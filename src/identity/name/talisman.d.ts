// talisman 1.x ships CommonJS without type declarations. Each module below assigns its main
// function to `module.exports`, so it is the default import; functions attached to it are typed
// as properties.

declare module 'talisman/phonetics/double-metaphone.js' {
  /** `[primary, secondary]`, each at most four characters of `A-Z` and `0` (for "th"). */
  const doubleMetaphone: (word: string) => [string, string];
  export default doubleMetaphone;
}

declare module 'talisman/metrics/jaro-winkler.js' {
  interface JaroWinkler {
    /** Similarity in [0, 1]: 1 for equal sequences. */
    (a: string, b: string): number;
    similarity(a: string, b: string): number;
    /** 1 − similarity. */
    distance(a: string, b: string): number;
  }
  const jaroWinkler: JaroWinkler;
  export default jaroWinkler;
}

declare module 'talisman/metrics/damerau-levenshtein.js' {
  /** The optimal-string-alignment distance, or Infinity once it exceeds `max`. */
  export function limited(max: number, a: string, b: string): number;
}
