/**
 * Migration 0005's own copy of identity's `personBlockingColumns` (identity/match/blocking.ts)
 * and of the normalisers it calls (the street parser of identity/address/, the name normaliser
 * and phonetic code of identity/name/), copied into 0005-blocking/ as they stood when the
 * migrations stopped importing live domain code (issue 29): what 0005 writes for an existing
 * person must not change when the live matcher does. A later change to the blocking keys comes
 * with a migration of its own that rewrites the columns. Frozen: never edit this file or the
 * folder beside it; 0005-blocking.test.ts holds them to fixed values.
 */
import { parseStreet } from './0005-blocking/address/parse-street.js';
import { lastNamePhonetic } from './0005-blocking/name/phonetic.js';
import { normalizePersonName } from './0005-blocking/name/normalize-person-name.js';

export function personBlockingColumns0005(p: { firstName: string; lastName: string; address: string }): {
  houseNumber: string;
  lastPhonetic: string;
} {
  const name = normalizePersonName({ first: p.firstName, last: p.lastName });
  return { houseNumber: parseStreet(p.address).number ?? '', lastPhonetic: lastNamePhonetic(name.last) };
}
