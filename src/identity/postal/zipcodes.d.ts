// zipcodes 8.x ships CommonJS without type declarations; only what zip-reference.ts reads.
declare module 'zipcodes' {
  export interface ZipcodesPlace {
    /** Five digits for US entries; a three-character forward sortation area for Canadian ones. */
    zip: string;
    city: string;
    /** Two-letter code for US entries; the province name for Canadian ones. */
    state: string;
    country: 'US' | 'Canada' | string;
    latitude: number;
    longitude: number;
  }
  /** Keyed by `zip`: US and Canadian entries together. */
  export const codes: Readonly<Record<string, ZipcodesPlace>>;
}
