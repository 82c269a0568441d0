/** /v5/td's name + postal lookups answered by the identity matcher: its Individual match, if any. */
import type { PersonMatcher } from '../../enrichment/enrich-service.js';
import type { PersonRecord } from '../../people/person.js';
import type { IdentityMatch, IdentityMatcher } from '../match/types.js';
import { identityQueryOf } from './from-enrich-query.js';

export function individualMatcher(matcher: IdentityMatcher): PersonMatcher {
  return {
    async matchNameAddress(queries) {
      const identity = queries.map(identityQueryOf);
      const asked = identity.flatMap((q, i) => (q ? [{ q, i }] : []));
      const results = await matcher.matchMany(asked.map((a) => a.q));
      const out: (PersonRecord | undefined)[] = queries.map(() => undefined);
      asked.forEach(({ i }, k) => (out[i] = individualOf(results[k]!)));
      return out;
    },
  };
}

/** A Household match is somebody else at the address: enrichment is only for the person asked. */
function individualOf(matches: readonly IdentityMatch[]): PersonRecord | undefined {
  const best = matches[0];
  return best?.type === 'Individual' ? best.person : undefined;
}
