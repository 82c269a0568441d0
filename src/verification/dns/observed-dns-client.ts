/**
 * A DnsClient that shows each real MX answer to a watcher before handing it on: placed under the
 * caches, so the prober-health NXDOMAIN watch sees lookups, not cache hits.
 */
import type { DnsClient, MailRoute } from './mail-route.js';

export function observeMailRoutes(inner: DnsClient, watch: (route: MailRoute) => void): DnsClient {
  return {
    addresses: (host, deadline) => inner.addresses(host, deadline),
    nameServers: (domain, deadline) => inner.nameServers(domain, deadline),
    async mailRoute(domain, deadline) {
      const route = await inner.mailRoute(domain, deadline);
      watch(route);
      return route;
    },
  };
}
