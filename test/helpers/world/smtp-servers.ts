/**
 * The world's SMTP servers: one per loopback address, all on one port (the product has a single
 * MAILSURE_SMTP_PORT), so the port is chosen to be free on every address at once.
 */
import { generate } from 'selfsigned';
import type { ProviderMode } from './provider-sims.js';
import type { SmtpServerSpec } from './smtp-behaviour.js';
import { createSmtpListener, type SmtpListener, type TlsPair } from './smtp-listener.js';
import type { SmtpServerLog } from './smtp-log.js';
import { addressInUse, isRefused, withFreePort } from './ports.js';

export interface TestSmtpServers {
  port: number;
  /** Per server name: what it saw. */
  logs: Record<string, SmtpServerLog>;
  specs: Record<string, SmtpServerSpec>;
  reset(): void;
  /** A `provider` server: block, throttle (after `after` more connections) or serve the prober normally. */
  setProviderMode(name: string, mode: ProviderMode, after?: number): void;
  close(): Promise<void>;
}

export async function startSmtpServers(specs: Record<string, SmtpServerSpec>): Promise<TestSmtpServers> {
  assertDistinctLoopback(specs);
  const tls = Object.values(specs).some((spec) => spec.starttls) ? await testCertificate() : undefined;
  return withFreePort(async (port) => {
    const listeners: SmtpListener[] = [];
    try {
      for (const [name, spec] of Object.entries(specs)) {
        if (spec.behaviour === 'refuse') {
          if (!(await isRefused(spec.address, port))) throw addressInUse(`${spec.address}:${port} is not refusing`);
          continue;
        }
        const listener = createSmtpListener(name, spec, tls);
        listeners.push(listener);
        await listener.listen(port);
      }
    } catch (error) {
      await Promise.all(listeners.map((listener) => listener.close()));
      throw error;
    }
    const logs = Object.fromEntries(
      Object.entries(specs).map(([name, spec]) => [
        name,
        listeners.find((listener) => listener.name === name)?.log ?? refusingLog(name, spec),
      ]),
    );
    return {
      port,
      logs,
      specs,
      reset: () => listeners.forEach((listener) => listener.reset()),
      setProviderMode(name, mode, after) {
        const listener = listeners.find((l) => l.name === name);
        if (!listener) throw new Error(`no SMTP server named ${name}`);
        listener.setProviderMode(mode, after);
      },
      close: async () => {
        await Promise.all(listeners.map((listener) => listener.close()));
      },
    };
  });
}

function refusingLog(name: string, spec: SmtpServerSpec): SmtpServerLog {
  return { name, address: spec.address, behaviour: spec.behaviour, connections: 0, active: 0, maxActive: 0, sessions: [] };
}

function assertDistinctLoopback(specs: Record<string, SmtpServerSpec>): void {
  const seen = new Set<string>();
  for (const [name, spec] of Object.entries(specs)) {
    // The world must never reach past loopback.
    if (!/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(spec.address))
      throw new Error(`SMTP server ${name}: ${spec.address} is not a loopback IPv4 address`);
    if (seen.has(spec.address)) throw new Error(`SMTP server ${name}: address ${spec.address} is used twice`);
    seen.add(spec.address);
  }
}

let certificate: Promise<TlsPair> | undefined;

/** One self-signed pair per process: EC keys generate fast, and every STARTTLS server can share it. */
function testCertificate(): Promise<TlsPair> {
  certificate ??= generate([{ name: 'commonName', value: 'mx.world' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
  }).then((pems) => ({ key: pems.private, cert: pems.cert }));
  return certificate;
}
