// parse-address 1.x (ISC) ships CommonJS without type declarations; this covers what we call.
declare module 'parse-address' {
  /** Fields `parseLocation` may return; every value is a string as matched (PO Box forms land in `sec_unit_type`). */
  export interface ParsedLocation {
    number?: string;
    prefix?: string;
    street?: string;
    type?: string;
    suffix?: string;
    sec_unit_type?: string;
    sec_unit_num?: string;
    city?: string;
    state?: string;
    zip?: string;
    plus4?: string;
    street1?: string;
    street2?: string;
    type1?: string;
    type2?: string;
  }
  /** `null` when nothing matched. */
  export function parseLocation(address: string): ParsedLocation | null;
  const parser: { parseLocation: typeof parseLocation };
  export default parser;
}
