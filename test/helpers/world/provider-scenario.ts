/**
 * A world of simulated large providers (provider-sims.ts): one SMTP server per profiled provider,
 * reached through MX host names shaped like the provider's own (`aspmx.l.google.com`,
 * `<tenant>.mail.protection.outlook.com`, `mx0a-….pphosted.com`…), so the product picks each
 * provider's profile exactly as it would outside. Business domains only: no provider username rule
 * (code 125) gets in the way. Each gateway fronts two tenants: one with recipient validation
 * (`-checked`) and one that accepts every recipient (`-open`).
 *
 *   const world = await startTestWorld(providerScenario);
 *   world.setProviderMode('google', 'throttled');
 */
import type { Zone } from './dns-zone.js';
import type { ProviderSimName } from './provider-sims.js';
import type { WorldSpec } from './scenario.js';
import type { SmtpServerSpec } from './smtp-behaviour.js';

const ip = (last: number) => `127.0.0.${last}`;

interface SimulatedProvider {
  server: string;
  /** MX host names, in preference order. */
  mx: string[];
  /** Domains whose recipients are validated (mailboxes: alice@ each). */
  domains: string[];
  /** Gateway tenants that accept every recipient. */
  openDomains?: string[];
}

export const PROVIDERS: Record<ProviderSimName, SimulatedProvider> = {
  google: { server: ip(30), mx: ['aspmx.l.google.com', 'alt1.aspmx.l.google.com'], domains: ['workspace-firm.com'] },
  'microsoft-365': { server: ip(31), mx: ['tenant-firm-com.mail.protection.outlook.com'], domains: ['tenant-firm.com'] },
  'outlook-com': { server: ip(32), mx: ['consumer-hosted-com.olc.protection.outlook.com'], domains: ['consumer-hosted.com'] },
  yahoo: { server: ip(33), mx: ['mta5.am0.yahoodns.net', 'mta6.am0.yahoodns.net'], domains: ['yahoo-small-biz.com'] },
  icloud: { server: ip(34), mx: ['mx01.mail.icloud.com', 'mx02.mail.icloud.com'], domains: ['icloud-custom.com'] },
  mimecast: {
    server: ip(35),
    mx: ['eu-smtp-inbound-1.mimecast.com'],
    domains: ['mimecast-checked.com'],
    openDomains: ['mimecast-open.com'],
  },
  proofpoint: {
    server: ip(36),
    mx: ['mx0a-00123401.pphosted.com'],
    domains: ['proofpoint-checked.com'],
    openDomains: ['proofpoint-open.com'],
  },
  barracuda: {
    server: ip(37),
    mx: ['d1234567a.ess.barracudanetworks.com'],
    domains: ['barracuda-checked.com'],
    openDomains: ['barracuda-open.com'],
  },
};

const CANARY = { domain: 'canary-provider.com', server: ip(39) };

const simulator = (name: ProviderSimName): SmtpServerSpec => {
  const p = PROVIDERS[name];
  return {
    address: p.server,
    behaviour: 'provider',
    provider: name,
    mailboxes: p.domains.map((d) => `alice@${d}`),
    acceptAllDomains: p.openDomains ?? [],
  };
};

const smtp: Record<ProviderSimName | 'canary', SmtpServerSpec> = {
  google: simulator('google'),
  'microsoft-365': simulator('microsoft-365'),
  'outlook-com': simulator('outlook-com'),
  yahoo: simulator('yahoo'),
  icloud: simulator('icloud'),
  mimecast: simulator('mimecast'),
  proofpoint: simulator('proofpoint'),
  barracuda: simulator('barracuda'),
  /** Its own server, so the health checks' connections never show in a provider's log. */
  canary: { address: CANARY.server, behaviour: 'mailboxes' },
};

const zone: Zone = {
  [CANARY.domain]: { mx: [{ priority: 10, exchange: `mx.${CANARY.domain}` }] },
  [`mx.${CANARY.domain}`]: { a: [CANARY.server] },
};
for (const p of Object.values(PROVIDERS)) {
  for (const domain of [...p.domains, ...(p.openDomains ?? [])]) {
    zone[domain] = { mx: p.mx.map((exchange, i) => ({ priority: (i + 1) * 10, exchange })), ns: [`ns1.${domain}`] };
  }
  for (const host of p.mx) zone[host] = { a: [p.server] };
}

const domains = { canary: CANARY.domain } as const;

export const providerScenario = { zone, smtp, domains, addresses: {} } satisfies WorldSpec;
export type ProviderScenario = typeof providerScenario;
