/**
 * The resolver check's decision, pure. Canary domains (very large mail providers) must have MX
 * records; a random name nobody registered must be NXDOMAIN. A resolver that calls the canaries
 * missing is lying or broken; one that answers the random name is hijacking NXDOMAIN. Either
 * way its negative answers prove nothing about anybody's domain.
 */
import type { MailRoute } from '../dns/mail-route.js';
import type { ConcernHealth } from './health-state.js';

export interface ResolverEvidence {
  canaries: { domain: string; route: MailRoute }[];
  /** The random never-registered name and what the resolver said of it. */
  random: { domain: string; route: MailRoute };
}

const FIX_RESOLVER =
  'fix the resolver: set MAILSURE_DNS_SERVERS to a recursive resolver that answers honestly (no NXDOMAIN rewriting, no filtering), such as one you run yourself';

export function decideResolver(evidence: ResolverEvidence, now: number): ConcernHealth {
  const lines: string[] = [];
  let answered = 0;
  let denied = 0;
  let silent = 0;
  for (const { domain, route } of evidence.canaries) {
    if (route.kind === 'mx') answered += 1;
    else if (route.kind === 'unavailable') silent += 1;
    else denied += 1;
    lines.push(`canary ${domain}: ${describe(route)}`);
  }
  const { domain: randomName, route: randomRoute } = evidence.random;
  const hijacks = randomRoute.kind === 'mx' || randomRoute.kind === 'implicit';
  lines.push(`random name ${randomName}: ${describe(randomRoute)}${hijacks ? ' (it must not exist)' : ''}`);

  const total = evidence.canaries.length;
  if (hijacks) {
    return {
      state: 'failed',
      evidence: lines,
      hint: `the resolver answers names that do not exist (NXDOMAIN hijacking); ${FIX_RESOLVER}`,
      checkedAt: now,
    };
  }
  if (total > 0 && silent === total) {
    return {
      state: 'failed',
      evidence: lines,
      hint: 'the resolver does not answer: check MAILSURE_DNS_SERVERS (or the system resolver) and that UDP/TCP port 53 to it is open',
      checkedAt: now,
    };
  }
  if (total > 0 && answered === 0) {
    return { state: 'failed', evidence: lines, hint: `the resolver denies domains that exist; ${FIX_RESOLVER}`, checkedAt: now };
  }
  if (denied > 0 || silent > 0 || randomRoute.kind === 'unavailable') {
    return {
      state: 'degraded',
      evidence: lines,
      hint: `some checks got no or wrong answers; negative DNS verdicts are held back until they pass; ${FIX_RESOLVER}`,
      checkedAt: now,
    };
  }
  if (total === 0)
    return { state: 'unknown', evidence: [...lines, 'no canary domains configured (MAILSURE_CANARY_DOMAINS)'], checkedAt: now };
  return { state: 'ok', evidence: lines, checkedAt: now };
}

function describe(route: MailRoute): string {
  switch (route.kind) {
    case 'mx':
      return `MX ${route.hosts
        .slice(0, 2)
        .map((h) => h.name)
        .join(', ')}`;
    case 'implicit':
      return 'no MX, but an address record';
    case 'nxdomain':
      return 'NXDOMAIN';
    case 'null-mx':
      return 'null MX';
    case 'no-mail':
      return 'no MX and no address';
    case 'unavailable':
      return `no answer (${route.reason})`;
  }
}
