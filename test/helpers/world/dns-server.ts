/**
 * A loopback DNS server over dns2 (UDP and TCP on one port) answering from a `Zone`.
 * Node's `Resolver` (c-ares) only takes `host:port`, and uses that port for both transports.
 */
import type { Socket } from 'node:net';
import { Packet, TCPServer, UDPServer, type Resource } from 'dns2';
import {
  lookupWithMode,
  normaliseName,
  NEGATIVE_TTL,
  RCODE,
  TYPE_NUMBER,
  type RecordData,
  type ResolverMode,
  type Zone,
} from './dns-zone.js';
import { withFreePort } from './ports.js';

export interface DnsQuery {
  name: string;
  type: number;
  transport: 'udp' | 'tcp';
}

export interface TestDnsServer {
  address: string;
  port: number;
  /** `address:port`, the form MAILSURE_DNS_SERVERS and `Resolver.setServers` take. */
  server: string;
  /** Every question received, in order: lets tests assert what a cache saved. */
  queries: DnsQuery[];
  queryCount(name: string, type?: keyof typeof TYPE_NUMBER): number;
  /** Replace the zone in place (tests that change DNS between two lookups). */
  setZone(zone: Zone): void;
  /** Make the whole server lie (or be honest again): dns-zone.ts `ResolverMode`. */
  setMode(mode: ResolverMode): void;
  close(): Promise<void>;
}

type Send = (response: Packet) => Promise<unknown>;

/** `port`: a fixed port (53 for a resolver named in a resolv.conf, as real MTAs read it); default: a free one. */
export async function startDnsServer(initialZone: Zone, address = '127.0.0.2', port?: number): Promise<TestDnsServer> {
  let zone = initialZone;
  let mode: ResolverMode = { kind: 'honest' };
  const queries: DnsQuery[] = [];

  const handle = (transport: DnsQuery['transport']) => (request: Packet, send: Send) => {
    const [question] = request.questions;
    if (!question) return;
    queries.push({ name: normaliseName(question.name), type: question.type, transport });
    const answer = lookupWithMode(zone, mode, question.name, question.type);
    if (answer.kind === 'drop') return;
    const response = Packet.createResponseFromRequest(request);
    response.header.aa = 1;
    response.header.ra = 1;
    if (answer.kind === 'rcode') {
      response.header.rcode = answer.rcode;
      if (answer.rcode === RCODE.NXDOMAIN) response.authorities.push(soa(question.name));
    } else {
      for (const record of answer.records) {
        response.answers.push(resource(question.name, record.ttl, record.data));
      }
      if (answer.records.length === 0) response.authorities.push(soa(question.name));
    }
    send(response).catch(() => undefined);
  };

  const bind = async (port: number) => {
    const udp = new UDPServer();
    const tcp = new TCPServer();
    try {
      await bindUdp(udp, port, address);
      await listenTcp(tcp, port, address);
      return { udp, tcp, port };
    } catch (error) {
      await closeQuietly(udp, tcp);
      throw error;
    }
  };
  const { udp, tcp, port: bound } = await (port === undefined ? withFreePort(bind) : bind(port));
  // dns2 keeps idle TCP connections for 10 s; close() must not wait for them.
  const sockets = new Set<Socket>();
  tcp.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  udp.on('request', handle('udp'));
  tcp.on('request', handle('tcp'));
  // A malformed packet must not crash the test run.
  udp.on('requestError', () => undefined);
  tcp.on('requestError', () => undefined);

  return {
    address,
    port: bound,
    server: `${address}:${bound}`,
    queries,
    queryCount: (name, type) =>
      queries.filter((q) => q.name === normaliseName(name) && (type === undefined || q.type === TYPE_NUMBER[type])).length,
    setZone(next) {
      zone = next;
    },
    setMode(next) {
      mode = next;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return closeQuietly(udp, tcp);
    },
  };
}

function resource(name: string, ttl: number, record: RecordData): Resource {
  const base = { name, ttl, class: Packet.CLASS.IN, type: TYPE_NUMBER[record.type] };
  switch (record.type) {
    case 'mx':
      return new Packet.Resource({ ...base, priority: record.priority, exchange: record.exchange });
    case 'a':
    case 'aaaa':
      return new Packet.Resource({ ...base, address: record.address });
    case 'ns':
      return new Packet.Resource({ ...base, ns: record.ns });
    case 'txt':
      return new Packet.Resource({ ...base, data: record.data });
    case 'ptr':
      return new Packet.Resource({ ...base, domain: record.domain });
  }
}

/** Negative answers carry the zone's SOA so resolvers can cache them (RFC 2308). */
function soa(name: string): Resource {
  return new Packet.Resource({
    name,
    type: Packet.TYPE.SOA,
    class: Packet.CLASS.IN,
    ttl: NEGATIVE_TTL,
    primary: 'ns.world.invalid',
    admin: 'hostmaster.world.invalid',
    serial: 1,
    refresh: 3600,
    retry: 600,
    expiration: 86400,
    minimum: NEGATIVE_TTL,
  });
}

// dns2's own listen() never settles on EADDRINUSE, so bind through the socket APIs directly.
function bindUdp(udp: UDPServer, port: number, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(port, address, () => {
      udp.off('error', reject);
      resolve();
    });
  });
}

function listenTcp(tcp: TCPServer, port: number, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(port, address, () => {
      tcp.off('error', reject);
      resolve();
    });
  });
}

async function closeQuietly(udp: UDPServer, tcp: TCPServer): Promise<void> {
  await new Promise<void>((resolve) => {
    try {
      udp.close(() => resolve());
    } catch {
      resolve(); // never bound
    }
  });
  await new Promise<void>((resolve) => {
    if (!tcp.listening) return resolve();
    tcp.close(() => resolve());
  });
}
