/**
 * Where an MX host's SMTP sessions are counted and shared, and the limits they get, from its
 * provider profile (providers/profiles.ts): sessions open at once, and RCPTs one session sends
 * before it QUITs. Both probers' limiter and the batching prober's sessions read them here, so a
 * profile's row is obeyed on every path (real-time, lists, and through Redis in scale-out).
 *
 * A profiled provider serves every customer at each of its addresses and routes by the
 * recipient's domain (SMTP has no host name to route by): customers' own MX names
 * (`<tenant>.mail.protection.outlook.com`, `mx0a-<id>.pphosted.com`) that resolve to the same
 * addresses are one place, so a list's rows at a thousand tenants share sessions, and the
 * provider's session limit bounds the connections to those addresses, not to each name. Any
 * other host is a place by its name.
 */
import { profileForHost } from '../providers/index.js';
import type { ProbeTarget } from './prober.js';

export interface SessionPlace {
  /** The per-host limiter's key, and what sessions are shared by. */
  key: string;
  limits: { maxSessionsPerHost: number; rcptsPerSession: number };
}

export function profileSessionPlace(target: ProbeTarget): SessionPlace {
  const profile = profileForHost(target.host);
  const limits = { maxSessionsPerHost: profile.limits.sessionsPerHost, rcptsPerSession: profile.limits.rcptsPerSession };
  if (profile.kind === 'default') return { key: target.host.toLowerCase(), limits };
  return { key: `${profile.id}@${[...target.addresses].sort().join(',')}`, limits };
}
