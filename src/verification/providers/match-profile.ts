/**
 * Which provider profile answers for a domain: by the address domain first, else by the first MX
 * host (in preference order) under a profiled provider's MX names, else the default profile.
 */
import { parse } from 'tldts';
import { normalizeName, selfOrParentIn } from '../domain-facts/domain-name.js';
import type { ProviderProfile } from './profile.js';
import { DEFAULT_PROFILE, PROFILES } from './profiles.js';

const BY_DOMAIN = new Map<string, ProviderProfile>();
const BY_MX_SUFFIX = new Map<string, ProviderProfile>();
for (const profile of PROFILES) {
  for (const domain of profile.domains) BY_DOMAIN.set(domain, profile);
  for (const suffix of profile.mxSuffixes) BY_MX_SUFFIX.set(suffix, profile);
}
const MX_SUFFIXES: ReadonlySet<string> = new Set(BY_MX_SUFFIX.keys());
const YAHOO = PROFILES.find((p) => p.id === 'yahoo')!;

/** The profile of the provider receiving mail for `domain` whose MX hosts are `mxHosts`. */
export function profileFor(domain: string, mxHosts: readonly string[]): ProviderProfile {
  const name = normalizeName(domain);
  const byDomain = BY_DOMAIN.get(name);
  if (byDomain !== undefined) return byDomain;
  if (name.startsWith('yahoo.')) {
    // yahoo.co.uk, yahoo.com.br, …: Yahoo holds its name under the public suffixes it serves.
    const parsed = parse(name, { extractHostname: false });
    if (parsed.isIcann === true && parsed.domain === name && parsed.domainWithoutSuffix === 'yahoo') return YAHOO;
  }
  for (const host of mxHosts) {
    const profile = profileForHost(host);
    if (profile !== DEFAULT_PROFILE) return profile;
  }
  return DEFAULT_PROFILE;
}

/** The profile of one MX host by its name alone (the default when no provider owns it). */
export function profileForHost(host: string): ProviderProfile {
  const suffix = selfOrParentIn(normalizeName(host), MX_SUFFIXES);
  return suffix === undefined ? DEFAULT_PROFILE : BY_MX_SUFFIX.get(suffix)!;
}
