/**
 * DNS answers cached so a list of addresses at one domain asks once. Address answers live for
 * their own TTL (bounded); MX answers for a fixed five minutes, because c-ares does not report
 * MX TTLs; negative answers (NXDOMAIN, no mail) for one minute, so a domain that is being set up
 * is not condemned for long; no answer at all (SERVFAIL, timeout) is never cached.
 */
import type { FactCache } from '../fact-cache.js';
import type { AddressAnswer, DnsClient, MailRoute } from './mail-route.js';

export const MX_TTL_MS = 300_000;
export const NEGATIVE_TTL_MS = 60_000;
const MIN_ADDRESS_TTL_MS = 30_000;
const MAX_ADDRESS_TTL_MS = 3_600_000;

export interface DnsCaches {
  routes: FactCache<MailRoute>;
  addresses: FactCache<AddressAnswer>;
  nameServers: FactCache<string[]>;
}

export function createCachedDnsClient(inner: DnsClient, caches: DnsCaches): DnsClient {
  return {
    async mailRoute(domain, deadline) {
      const hit = await caches.routes.get(domain);
      if (hit) return hit;
      const route = await inner.mailRoute(domain, deadline);
      if (route.kind !== 'unavailable') {
        await caches.routes.set(domain, route, route.kind === 'mx' || route.kind === 'implicit' ? MX_TTL_MS : NEGATIVE_TTL_MS);
      }
      return route;
    },
    async addresses(host, deadline) {
      const hit = await caches.addresses.get(host);
      if (hit) return hit;
      const answer = await inner.addresses(host, deadline);
      if (answer.kind === 'addresses') {
        const ttl = Math.min(MAX_ADDRESS_TTL_MS, Math.max(MIN_ADDRESS_TTL_MS, answer.ttlSeconds * 1000));
        await caches.addresses.set(host, answer, ttl);
      } else if (answer.kind !== 'unavailable') {
        await caches.addresses.set(host, answer, NEGATIVE_TTL_MS);
      }
      return answer;
    },
    async nameServers(domain, deadline) {
      const hit = await caches.nameServers.get(domain);
      if (hit) return hit;
      const servers = await inner.nameServers(domain, deadline);
      if (servers !== null) await caches.nameServers.set(domain, servers, servers.length > 0 ? MX_TTL_MS : NEGATIVE_TTL_MS);
      return servers;
    },
  };
}
