/** The parsed request shape of /v5/td and /v5/eppend, as the matcher's raw query. */
import type { EnrichQuery } from '../../enrichment/enrich-query.js';
import type { IdentityQuery } from '../match/types.js';

export function identityQueryOf(q: EnrichQuery): IdentityQuery | undefined {
  if (!q.name || !q.postal) return undefined;
  const out: IdentityQuery = { first: q.name.first, last: q.name.last };
  if (q.name.middle) out.middle = q.name.middle;
  if (q.postal.street) out.street = q.postal.street;
  if (q.postal.city) out.city = q.postal.city;
  if (q.postal.state) out.state = q.postal.state;
  if (q.postal.zip5) out.zip = q.postal.plus4 ? `${q.postal.zip5}-${q.postal.plus4}` : q.postal.zip5;
  if (q.email) out.email = q.email;
  return out;
}
