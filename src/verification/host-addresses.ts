/**
 * Resolves MX hosts to the addresses we may connect to (SSRF rule in dns/target-policy.ts),
 * keeping preference order. At most five hosts: more are redundancy we will not reach in time.
 */
import type { HostAddressSummary } from './decide-domain.js';
import type { DnsClient, MxHost } from './dns/mail-route.js';
import { allowedTargets } from './dns/target-policy.js';

const MAX_HOSTS = 5;

export async function resolveHosts(dns: DnsClient, hosts: MxHost[], allowPrivate: boolean, deadline: number): Promise<HostAddressSummary> {
  const answers = await Promise.all(
    hosts.slice(0, MAX_HOSTS).map(async (h) => ({ host: h.name, answer: await dns.addresses(h.name, deadline) })),
  );
  const summary: HostAddressSummary = { reachable: [], onlyPrivate: false, unanswered: false };
  for (const { host, answer } of answers) {
    if (answer.kind === 'unavailable') summary.unanswered = true;
    if (answer.kind !== 'addresses') continue;
    const permitted = allowedTargets(answer.addresses, allowPrivate);
    if (permitted.length > 0) summary.reachable.push({ host, addresses: permitted });
    else summary.onlyPrivate = true;
  }
  return summary;
}
