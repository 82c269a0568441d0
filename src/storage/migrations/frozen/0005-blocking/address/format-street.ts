// Migration 0005's frozen copy of identity/address/format-street.ts as it stood at the freeze (frozen/0005-blocking.ts): never edit.
/**
 * Canonical strings from a ParsedStreet: `streetKey` for matching (no unit: a person keeps the
 * street when the apartment is missing from one side), `formatStreetLine` for the full
 * Publication 28 line. Parsing `formatStreetLine(p)` gives `p` back.
 */
import type { ParsedStreet } from './parse-street.js';

const BOX_NAME = /^(PO BOX|(RR|HC|PSC|CMR) \S+ BOX)$/;

function join(parts: readonly (string | undefined)[]): string {
  return parts
    .filter((part): part is string => part !== undefined && part !== '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** `123 N MAIN ST`; boxes read `PO BOX 123`, `RR 2 BOX 152`. */
export function streetKey(p: ParsedStreet): string {
  const plainBox = p.preDirectional === undefined && p.suffix === undefined && p.postDirectional === undefined;
  if (BOX_NAME.test(p.name) && p.number !== undefined && plainBox) return join([p.name, p.number]);
  return join([p.number, p.preDirectional, p.name, p.suffix, p.postDirectional]);
}

/** `123 N MAIN ST APT 4`. */
export function formatStreetLine(p: ParsedStreet): string {
  return join([streetKey(p), p.unitType, p.unitId]);
}
