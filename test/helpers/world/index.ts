/**
 * The test world: a DNS server and SMTP servers on loopback, started in-process by tests.
 *
 *   const world = await startTestWorld();
 *   const config = loadConfig({ ...process.env, ...world.env });
 *   …
 *   await world.close();
 *
 * Needs the whole of 127.0.0.0/8 routed to loopback (Linux does this; macOS needs aliases).
 */
import { startDnsServer, type TestDnsServer } from './dns-server.js';
import { defaultScenario, type DefaultScenario, type WorldSpec } from './scenario.js';
import type { ProviderMode } from './provider-sims.js';
import type { SmtpServerLog } from './smtp-log.js';
import { startSmtpServers } from './smtp-servers.js';

export interface TestWorld<W extends WorldSpec = DefaultScenario> {
  /** `127.0.0.2:PORT` */
  dnsServer: string;
  smtpPort: number;
  env: {
    MAILSURE_DNS_SERVERS: string;
    MAILSURE_SMTP_PORT: string;
    MAILSURE_ALLOW_PRIVATE_TARGETS: '1';
    MAILSURE_SMTP_THROTTLE: 'off';
    MAILSURE_VERDICT_MEMORY: 'off';
    MAILSURE_CANARY_DOMAINS: string;
  };
  domains: W['domains'];
  addresses: W['addresses'];
  /** Per SMTP server name: what it saw (connections, sessions, EHLO, MAIL FROM, RCPTs, TLS). */
  smtp: { [K in keyof W['smtp']]: SmtpServerLog };
  /** Loopback address of each SMTP server. */
  smtpAddress(name: keyof W['smtp']): string;
  /** The DNS server, with the queries it received. */
  dns: TestDnsServer;
  /** A simulated provider (provider-scenario.ts): block the prober, throttle it (after `after` more connections), or serve it normally. */
  setProviderMode(name: keyof W['smtp'], mode: ProviderMode, after?: number): void;
  /** Clears SMTP logs, greylisting memory, providers' modes and the DNS query log. */
  reset(): void;
  close(): Promise<void>;
}

export function startTestWorld(): Promise<TestWorld>;
export function startTestWorld<W extends WorldSpec>(spec: W): Promise<TestWorld<W>>;
export async function startTestWorld(spec: WorldSpec = defaultScenario): Promise<TestWorld<WorldSpec>> {
  const dns = await startDnsServer(spec.zone, spec.dnsAddress ?? '127.0.0.2');
  let smtp;
  try {
    smtp = await startSmtpServers(spec.smtp);
  } catch (error) {
    await dns.close();
    throw error;
  }
  return {
    dnsServer: dns.server,
    smtpPort: smtp.port,
    env: {
      MAILSURE_DNS_SERVERS: dns.server,
      MAILSURE_SMTP_PORT: String(smtp.port),
      MAILSURE_ALLOW_PRIVATE_TARGETS: '1',
      // The world's simulated providers are asked far faster than a real one allows; the
      // connection budget is tested on its own (src/verification/smtp/throttle.test.ts and
      // test/integration/throttle-scale-out.test.ts).
      MAILSURE_SMTP_THROTTLE: 'off',
      // Tests ask the same addresses again and expect a probe each time; the verdict memory is
      // tested on its own (test/http/verdict-memory.test.ts, test/integration/verification-redis.test.ts).
      MAILSURE_VERDICT_MEMORY: 'off',
      // The world's own canary when it has one; a world without one has no honest resolver check.
      MAILSURE_CANARY_DOMAINS: spec.canaryDomains?.join(',') ?? spec.domains.canary ?? 'canary-mail.com',
    },
    domains: spec.domains,
    addresses: spec.addresses,
    smtp: smtp.logs,
    smtpAddress(name) {
      const server = spec.smtp[name];
      if (!server) throw new Error(`no SMTP server named ${name}`);
      return server.address;
    },
    dns,
    setProviderMode(name, mode, after) {
      smtp.setProviderMode(name as string, mode, after);
    },
    reset() {
      smtp.reset();
      dns.queries.length = 0;
      dns.setMode({ kind: 'honest' });
    },
    async close() {
      await Promise.all([smtp.close(), dns.close()]);
    },
  };
}

export { defaultScenario, PROBER } from './scenario.js';
export type { DefaultScenario, WorldSpec } from './scenario.js';
export type { Zone, ZoneEntry, DnsBehaviour, MxRecord } from './dns-zone.js';
export type { SmtpBehaviour, SmtpServerSpec } from './smtp-behaviour.js';
export { REPLIES } from './smtp-behaviour.js';
export type { SmtpServerLog, SmtpSessionLog } from './smtp-log.js';
export type { ProviderMode, ProviderSimName } from './provider-sims.js';
export { providerScenario, type ProviderScenario } from './provider-scenario.js';
export type { TestDnsServer } from './dns-server.js';
