/**
 * The operator contract of decisions §2: every MAILSURE_* variable, parsed and validated once at
 * start-up. Nothing reads process.env elsewhere; the frozen Config is passed in.
 */
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { parseEgressSettings, PROVIDER_IDS, type EgressSetting } from './egress-settings.js';
import { objectStore, type ObjectStoreConfig } from './object-store-config.js';
import type { SocksProxy } from './socks-proxy-url.js';

export type { ObjectStoreConfig };

export const VERIFY_DEPTHS = ['syntax', 'domain', 'mailbox'] as const;
export type VerifyDepth = (typeof VERIFY_DEPTHS)[number];

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  tls: { certFile: string; keyFile: string } | null;
  trustProxy: boolean;
  databaseUrl: string | null;
  redisUrl: string | null;
  dnsServers: string[];
  smtpPort: number;
  smtpHelo: string;
  /** MAIL FROM of probes; `''` is the null sender `<>` (the default: docs/verification.md, "Our sender"). */
  smtpFrom: string;
  /** The SOCKS5 proxy of the first egress (MAILSURE_SMTP_PROXY's first); null: direct. See `smtpEgresses`. */
  smtpProxy: SocksProxy | null;
  /**
   * The egress pool (egress-settings.ts): every SOCKS5 proxy of MAILSURE_SMTP_PROXY, then every
   * address of MAILSURE_SMTP_SOURCE_ADDRESSES, each under its label; one direct egress when neither is set.
   */
  smtpEgresses: EgressSetting[];
  /** Provider profile id → the egress labels its probes may take (MAILSURE_SMTP_EGRESS_ROUTES). */
  smtpEgressRoutes: Record<string, string[]>;
  /** Domains that must have MX records: the prober-health resolver and egress checks (MAILSURE_CANARY_DOMAINS). */
  canaryDomains: string[];
  /** The first public address of an egress that has one (MAILSURE_SMTP_EGRESS_IP): PTR and block-list checks. See `smtpEgresses`. */
  smtpEgressIp: string | null;
  /** DNS block-list zones the egress address is looked up in (MAILSURE_DNSBL_ZONES). */
  dnsblZones: string[];
  verifyDepth: VerifyDepth;
  /** New SMTP connections per provider and egress address held to the profile's connections per minute (MAILSURE_SMTP_THROTTLE, default on). */
  smtpThrottle: boolean;
  allowPrivateTargets: boolean;
  /** null: decide at start (on for an empty database). */
  demo: boolean | null;
  logLevel: string;
  /** Log lines as JSON, or pretty for a person; `auto`: pretty when stdout is a terminal (MAILSURE_LOG_FORMAT). */
  logFormat: LogFormat;
  /** Where Prometheus metrics are served, off the API port (MAILSURE_METRICS); null: no metrics. */
  metrics: { host: string; port: number } | null;
  /** Largest list upload accepted, in bytes (MAILSURE_LIST_MAX_MB, default 1024). */
  listMaxBytes: number;
  /** Days a list's upload and results are kept (MAILSURE_RETENTION_DAYS, default 30). */
  retentionDays: number;
  /** Lists one process works on at once (MAILSURE_LIST_WORKERS, default 2). */
  listWorkers: number;
  /** The `Retry-After` of a list's status while it is not finished, in seconds (MAILSURE_LIST_POLL_SECONDS, default 5). */
  listPollSeconds: number;
  /** Longest time to receive one whole request, body included (MAILSURE_REQUEST_TIMEOUT_SECONDS, default 1800): a list upload's deadline. */
  requestTimeoutSeconds: number;
  /** Longest time for any other request body (a bulk call's JSON) to arrive whole (MAILSURE_BODY_TIMEOUT_SECONDS, default 60). */
  bodyTimeoutSeconds: number;
  /** Request bodies one client address may have arriving at once (MAILSURE_BODIES_PER_ADDRESS, default 64; 429 beyond). */
  bodiesPerAddress: number;
  /** How long a list holds back rows a throttling provider did not answer, asking again (MAILSURE_LIST_THROTTLE_HOLD_MINUTES, default 120; 0: not at all). */
  listThrottleHoldMinutes: number;
  /** How long a list waits for an object store that does not answer before it ends in Error (MAILSURE_LIST_STORE_WAIT_MINUTES, default 240). */
  listStoreWaitMinutes: number;
  /** How long a starting process waits for Redis to answer before it stops (MAILSURE_REDIS_START_WAIT_SECONDS, default 60). */
  redisStartWaitSeconds: number;
  /** Uploads one key may send at once to one process (MAILSURE_LIST_UPLOADS_PER_KEY, default 4). */
  listUploadsPerKey: number;
  /** Lists one key may have waiting or running at once, across processes (MAILSURE_LIST_WAITING_PER_KEY, default 20; 429 beyond). */
  listWaitingPerKey: number;
  /** Chunks one key may have in flight in one process, of the MAILSURE_LIST_WORKERS × 4 it has (MAILSURE_LIST_CHUNKS_PER_KEY, default 6). */
  listChunksPerKey: number;
  /** Bulk calls (/v5/ei/bulk, /v5/eppend/bulk) one key may have in progress at once (MAILSURE_BULK_CALLS_PER_KEY, default 4; across processes with Redis). */
  bulkCallsPerKey: number;
  /** Bytes of uploads one key may keep stored within the retention (MAILSURE_LIST_MAX_STORED_GB, default 20). */
  listMaxStoredBytes: number;
  /** Key sealing webhook secrets in the database (MAILSURE_SECRET_KEY); null: the data dir's secret.key. */
  secretKey: string | null;
  /** Where lists' uploads and results live (MAILSURE_LIST_STORE=s3://bucket/prefix); null: the data directory. */
  listStore: ObjectStoreConfig | null;
  /** The operator's credential for the admin API and the dashboard's operator view (MAILSURE_ADMIN_TOKEN); null: both off. */
  adminToken: string | null;
  /** Definitive mailbox verdicts remembered per address (MAILSURE_VERDICT_MEMORY, default on); null: off. */
  verdictMemory: VerdictMemoryConfig | null;
}

export const VERDICT_MEMORY_SCOPES = ['key', 'shared'] as const;
export type VerdictMemoryScope = (typeof VERDICT_MEMORY_SCOPES)[number];

/** The verdict memory's settings (verification/verdict-memory.ts); a class's hours 0: not remembered. */
export interface VerdictMemoryConfig {
  /** Hours a 50 (mailbox accepted) is remembered (MAILSURE_VERDICT_MEMORY_VALID_HOURS, default 168). */
  validHours: number;
  /** Hours a 400 (no such mailbox) is remembered (MAILSURE_VERDICT_MEMORY_INVALID_HOURS, default 48). */
  invalidHours: number;
  /** Hours a 410 (mailbox full) is remembered (MAILSURE_VERDICT_MEMORY_FULL_HOURS, default 12). */
  fullHours: number;
  /** `key`: each API key has its own memory; `shared`: one for all keys (MAILSURE_VERDICT_MEMORY_SCOPE). */
  scope: VerdictMemoryScope;
  /** Most verdicts held, in this process or in Redis (MAILSURE_VERDICT_MEMORY_MAX_ENTRIES, default 250,000). */
  maxEntries: number;
}

export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;
/** Very large mail providers whose MX records and port 25 are always there. */
const DEFAULT_CANARY_DOMAINS = ['gmail.com', 'outlook.com', 'yahoo.com'];
/** Widely used DNS block lists of sending addresses (RFC 5782 style). */
const DEFAULT_DNSBL_ZONES = ['zen.spamhaus.org', 'bl.spamcop.net', 'b.barracudacentral.org'];
const DOMAIN_NAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** Kernel pseudo-filesystems (Linux): nothing there is a place for a database or uploads. */
const PSEUDO_FILESYSTEMS = ['/proc', '/sys'];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env, cwd = process.cwd()): Config {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
  const fail = <T>(name: string, why: string, fallback: T): T => {
    problems.push(`${name}=${JSON.stringify(env[name])}: ${why}`);
    return fallback;
  };
  // The null sender unless told otherwise: what MTAs' own callouts send, and a sender no receiver
  // can fail to verify (a host name's `verify@` rarely resolves, and Exim then refuses every RCPT).
  // An address is one line with no spaces or brackets: it goes into `MAIL FROM:<…>` as it is.
  const sender = (name: string): string => {
    const value = read(name);
    if (value === undefined || value === '<>') return '';
    if (
      !/^[!-~]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/.test(value) ||
      /[<>()[\\\],;:"\s]/.test(value.slice(0, value.lastIndexOf('@')))
    ) {
      return fail(name, 'must be <> (the null sender) or an address such as verify@example.com (ASCII, no spaces or brackets)', '');
    }
    return value;
  };
  const port = (name: string, fallback: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    return /^\d+$/.test(raw) && n >= 1 && n <= 65535 ? n : fail(name, 'must be a port number from 1 to 65535', fallback);
  };
  const flag = (name: string): boolean | null => {
    const raw = read(name)?.toLowerCase();
    if (raw === undefined) return null;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    return fail(name, 'must be one of 1/0, true/false, yes/no, on/off', null);
  };
  const count = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    return /^\d+$/.test(raw) && n >= min && n <= max ? n : fail(name, `must be a whole number from ${min} to ${max}`, fallback);
  };
  const url = (name: string, schemes: string[]): string | null => {
    const raw = read(name);
    if (raw === undefined) return null;
    try {
      const parsed = new URL(raw);
      if (schemes.includes(parsed.protocol)) return raw;
    } catch {
      // reported below
    }
    return fail(name, `must be a URL starting with ${schemes.map((s) => `${s}//`).join(' or ')}`, null);
  };

  const dataDir = resolve(cwd, read('MAILSURE_DATA_DIR') ?? './data');
  const pseudo = PSEUDO_FILESYSTEMS.find((root) => dataDir === root || dataDir.startsWith(`${root}/`));
  // The kernel's own files, not storage: SQLite and the first start would hang or fail there in ways that name nothing.
  if (pseudo)
    fail(
      'MAILSURE_DATA_DIR',
      `is inside ${pseudo}, the kernel's view of processes and devices, which cannot hold data: choose a directory on disk`,
      null,
    );
  const certFile = read('MAILSURE_TLS_CERT');
  const keyFile = read('MAILSURE_TLS_KEY');
  let tls: Config['tls'] = null;
  if (certFile && keyFile) tls = { certFile: resolve(cwd, certFile), keyFile: resolve(cwd, keyFile) };
  else if (certFile || keyFile) {
    problems.push('MAILSURE_TLS_CERT and MAILSURE_TLS_KEY must be set together');
  }

  const dnsServers = (read('MAILSURE_DNS_SERVERS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const server of dnsServers) {
    if (!isHostPort(server)) fail('MAILSURE_DNS_SERVERS', `"${server}" is not host[:port] (IPv6 as [addr]:port)`, null);
  }

  const names = (name: string, fallback: string[]): string[] => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const list = raw
      .split(',')
      .map((s) => s.trim().toLowerCase().replace(/\.$/, ''))
      .filter(Boolean);
    for (const item of list) if (!DOMAIN_NAME.test(item)) fail(name, `"${item}" is not a domain name`, null);
    if (list.length === 0) fail(name, 'must name at least one domain', null);
    return list;
  };
  const canaryDomains = names('MAILSURE_CANARY_DOMAINS', DEFAULT_CANARY_DOMAINS);
  const dnsblZones = names('MAILSURE_DNSBL_ZONES', DEFAULT_DNSBL_ZONES);
  // Not through fail(): MAILSURE_SMTP_PROXY may hold the proxies' passwords.
  const egressSettings = parseEgressSettings(read, PROVIDER_IDS);
  problems.push(...egressSettings.problems);
  const firstEgress = egressSettings.settings.egresses[0];

  const secretKey = read('MAILSURE_SECRET_KEY') ?? null;
  if (secretKey !== null && !/^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/.test(secretKey)) {
    fail('MAILSURE_SECRET_KEY', 'must be 32 bytes as base64 (44 characters) or hex (64)', null);
  }

  const depth = read('MAILSURE_VERIFY_DEPTH') ?? 'mailbox';
  const verifyDepth = (VERIFY_DEPTHS as readonly string[]).includes(depth)
    ? (depth as VerifyDepth)
    : fail('MAILSURE_VERIFY_DEPTH', `must be one of ${VERIFY_DEPTHS.join(', ')}`, 'mailbox' as const);

  const logLevel = read('MAILSURE_LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) fail('MAILSURE_LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`, null);

  const logFormat = read('MAILSURE_LOG_FORMAT') ?? 'auto';
  if (!(LOG_FORMATS as readonly string[]).includes(logFormat))
    fail('MAILSURE_LOG_FORMAT', `must be one of ${LOG_FORMATS.join(', ')}`, null);

  const metricsSetting = read('MAILSURE_METRICS');
  const metrics = metricsSetting === undefined || metricsSetting === 'off' ? null : metricsListen(metricsSetting);
  if (metrics === undefined) fail('MAILSURE_METRICS', 'must be off, a port, or host:port (IPv6 as [addr]:port)', null);

  const listStore = objectStore(read, fail, flag, url);

  const host = hostname();
  const config: Config = {
    port: port('MAILSURE_PORT', 8443),
    host: read('MAILSURE_HOST') ?? '0.0.0.0',
    dataDir,
    tls,
    trustProxy: flag('MAILSURE_TRUST_PROXY') ?? false,
    databaseUrl: url('MAILSURE_DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url('MAILSURE_REDIS_URL', ['redis:', 'rediss:']),
    dnsServers,
    smtpPort: port('MAILSURE_SMTP_PORT', 25),
    smtpHelo: read('MAILSURE_SMTP_HELO') ?? host,
    smtpFrom: sender('MAILSURE_SMTP_FROM'),
    smtpProxy: firstEgress?.proxy ?? null,
    smtpEgresses: egressSettings.settings.egresses,
    smtpEgressRoutes: egressSettings.settings.routes,
    canaryDomains,
    smtpEgressIp: egressSettings.settings.egresses.find((egress) => egress.egressIp)?.egressIp ?? null,
    dnsblZones,
    verifyDepth,
    smtpThrottle: flag('MAILSURE_SMTP_THROTTLE') ?? true,
    allowPrivateTargets: flag('MAILSURE_ALLOW_PRIVATE_TARGETS') ?? false,
    demo: flag('MAILSURE_DEMO'),
    logLevel,
    logFormat: logFormat as LogFormat,
    metrics: metrics ?? null,
    listMaxBytes: count('MAILSURE_LIST_MAX_MB', 1024, 1, 1_048_576) * 1024 * 1024,
    retentionDays: count('MAILSURE_RETENTION_DAYS', 30, 1, 36_500),
    listWorkers: count('MAILSURE_LIST_WORKERS', 2, 1, 64),
    listPollSeconds: count('MAILSURE_LIST_POLL_SECONDS', 5, 1, 3600),
    requestTimeoutSeconds: count('MAILSURE_REQUEST_TIMEOUT_SECONDS', 1800, 1, 86_400),
    bodyTimeoutSeconds: count('MAILSURE_BODY_TIMEOUT_SECONDS', 60, 1, 86_400),
    bodiesPerAddress: count('MAILSURE_BODIES_PER_ADDRESS', 64, 1, 1_000_000),
    redisStartWaitSeconds: count('MAILSURE_REDIS_START_WAIT_SECONDS', 60, 0, 86_400),
    listThrottleHoldMinutes: count('MAILSURE_LIST_THROTTLE_HOLD_MINUTES', 120, 0, 10_080),
    listStoreWaitMinutes: count('MAILSURE_LIST_STORE_WAIT_MINUTES', 240, 1, 10_080),
    listUploadsPerKey: count('MAILSURE_LIST_UPLOADS_PER_KEY', 4, 1, 1000),
    listMaxStoredBytes: count('MAILSURE_LIST_MAX_STORED_GB', 20, 1, 1_000_000) * 1024 ** 3,
    bulkCallsPerKey: count('MAILSURE_BULK_CALLS_PER_KEY', 4, 1, 1000),
    listWaitingPerKey: count('MAILSURE_LIST_WAITING_PER_KEY', 20, 1, 100_000),
    listChunksPerKey: count('MAILSURE_LIST_CHUNKS_PER_KEY', 6, 1, 1000),
    secretKey,
    listStore,
    adminToken: adminToken(read, fail),
    verdictMemory: verdictMemory(read, fail, flag, count),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

/** MAILSURE_ADMIN_TOKEN: long enough that guessing it is hopeless, one token without spaces. */
function adminToken(read: (name: string) => string | undefined, fail: <T>(name: string, why: string, fallback: T) => T): string | null {
  const raw = read('MAILSURE_ADMIN_TOKEN');
  if (raw === undefined) return null;
  if (raw.length < 32 || raw.length > 512 || /\s/.test(raw))
    return fail('MAILSURE_ADMIN_TOKEN', 'must be 32 to 512 characters without spaces (e.g. the output of `openssl rand -hex 32`)', null);
  return raw;
}

/** The verdict memory's settings, each checked even while it is off (a typo shows before it is turned on). */
function verdictMemory(
  read: (name: string) => string | undefined,
  fail: <T>(name: string, why: string, fallback: T) => T,
  flag: (name: string) => boolean | null,
  count: (name: string, fallback: number, min: number, max: number) => number,
): VerdictMemoryConfig | null {
  const on = flag('MAILSURE_VERDICT_MEMORY') ?? true;
  const scope = read('MAILSURE_VERDICT_MEMORY_SCOPE') ?? 'key';
  const settings: VerdictMemoryConfig = {
    validHours: count('MAILSURE_VERDICT_MEMORY_VALID_HOURS', 168, 0, MAX_MEMORY_HOURS),
    invalidHours: count('MAILSURE_VERDICT_MEMORY_INVALID_HOURS', 48, 0, MAX_MEMORY_HOURS),
    fullHours: count('MAILSURE_VERDICT_MEMORY_FULL_HOURS', 12, 0, MAX_MEMORY_HOURS),
    scope: (VERDICT_MEMORY_SCOPES as readonly string[]).includes(scope)
      ? (scope as VerdictMemoryScope)
      : fail('MAILSURE_VERDICT_MEMORY_SCOPE', `must be one of ${VERDICT_MEMORY_SCOPES.join(', ')}`, 'key'),
    maxEntries: count('MAILSURE_VERDICT_MEMORY_MAX_ENTRIES', 250_000, 1_000, 100_000_000),
  };
  return on ? settings : null;
}

/** 30 days: past that a mailbox's state is news, not memory. */
const MAX_MEMORY_HOURS = 720;

/** `9464` (on 127.0.0.1) or `host:port` (port 0: any free port, named at start); undefined when it is neither. */
function metricsListen(value: string): { host: string; port: number } | undefined {
  const m = /^(?:(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(value);
  const port = Number(m?.[2]);
  if (!m || port > 65535) return undefined;
  return { host: m[1]?.replace(/^\[|\]$/g, '') ?? '127.0.0.1', port };
}

function isHostPort(value: string): boolean {
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(value);
  if (!m) return false;
  return m[2] === undefined || (Number(m[2]) >= 1 && Number(m[2]) <= 65535);
}
