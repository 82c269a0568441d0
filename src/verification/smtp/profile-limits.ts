/**
 * The SMTP session limits an MX host gets from its provider profile (providers/profiles.ts):
 * sessions open at once to the host, and RCPTs one session sends before it QUITs. Both probers'
 * limiter and the batching prober's sessions read them here, so a profile's row is obeyed on
 * every path (real-time, lists, and through Redis in scale-out).
 */
import { profileForHost } from '../providers/index.js';
import type { SessionLimits } from './batch-prober.js';

export function profileSessionLimits(host: string): Pick<SessionLimits, 'maxSessionsPerHost' | 'rcptsPerSession'> {
  const { limits } = profileForHost(host);
  return { maxSessionsPerHost: limits.sessionsPerHost, rcptsPerSession: limits.rcptsPerSession };
}

export function profileSessionsPerHost(host: string): number {
  return profileForHost(host).limits.sessionsPerHost;
}
