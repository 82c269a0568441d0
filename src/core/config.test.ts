import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    const config = loadConfig({}, '/srv');
    expect(config).toMatchObject({
      port: 8443,
      host: '0.0.0.0',
      dataDir: '/srv/data',
      tls: null,
      trustProxy: false,
      databaseUrl: null,
      redisUrl: null,
      dnsServers: [],
      smtpPort: 25,
      verifyDepth: 'mailbox',
      smtpThrottle: true,
      allowPrivateTargets: false,
      demo: null,
      listMaxBytes: 1024 * 1024 * 1024,
      retentionDays: 30,
      listWorkers: 2,
      canaryDomains: ['gmail.com', 'outlook.com', 'yahoo.com'],
      smtpEgressIp: null,
      dnsblZones: ['zen.spamhaus.org', 'bl.spamcop.net', 'b.barracudacentral.org'],
      secretKey: null,
      logFormat: 'auto',
      metrics: null,
      listStore: null,
      adminToken: null,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads MAILSURE_ADMIN_TOKEN (off by default), refusing a short or spaced one', () => {
    const token = 'a'.repeat(24) + '0123456789';
    expect(loadConfig({ MAILSURE_ADMIN_TOKEN: ` ${token} ` }).adminToken).toBe(token);
    expect(loadConfig({ MAILSURE_ADMIN_TOKEN: '' }).adminToken).toBeNull();
    for (const bad of ['too-short', `${token} ${token}`]) {
      expect(() => loadConfig({ MAILSURE_ADMIN_TOKEN: bad })).toThrow(
        `MAILSURE_ADMIN_TOKEN=${JSON.stringify(bad)}: must be 32 to 512 characters without spaces (e.g. the output of \`openssl rand -hex 32\`)`,
      );
    }
  });

  it('reads an object store for list files with its settings, and refuses bad ones by name', () => {
    expect(loadConfig({ MAILSURE_LIST_STORE: 's3://lists.example-1' }).listStore).toEqual({
      bucket: 'lists.example-1',
      prefix: '',
      endpoint: null,
      region: null,
      pathStyle: false,
      redirect: false,
    });
    expect(
      loadConfig({
        MAILSURE_LIST_STORE: 's3://mailsure/prod/eu/',
        MAILSURE_LIST_STORE_ENDPOINT: 'http://minio.internal:9000',
        MAILSURE_LIST_STORE_REGION: 'eu-west-1',
        MAILSURE_LIST_STORE_PATH_STYLE: 'on',
        MAILSURE_LIST_STORE_REDIRECT: '1',
      }).listStore,
    ).toEqual({
      bucket: 'mailsure',
      prefix: 'prod/eu',
      endpoint: 'http://minio.internal:9000',
      region: 'eu-west-1',
      pathStyle: true,
      redirect: true,
    });
    const bucketRule = 'must be s3://bucket or s3://bucket/prefix (a bucket name: 3 to 63 lower-case letters, digits, dots and dashes)';
    for (const [env, message] of [
      [{ MAILSURE_LIST_STORE: '/mnt/lists' }, `MAILSURE_LIST_STORE="/mnt/lists": ${bucketRule}`],
      [{ MAILSURE_LIST_STORE: 's3://My_Bucket/x' }, `MAILSURE_LIST_STORE="s3://My_Bucket/x": ${bucketRule}`],
      [{ MAILSURE_LIST_STORE: 's3://ab' }, `MAILSURE_LIST_STORE="s3://ab": ${bucketRule}`],
      [
        { MAILSURE_LIST_STORE: 's3://b-1', MAILSURE_LIST_STORE_ENDPOINT: 'minio:9000' },
        'MAILSURE_LIST_STORE_ENDPOINT="minio:9000": must be a URL starting with http:// or https://',
      ],
      [
        { MAILSURE_LIST_STORE: 's3://b-1', MAILSURE_LIST_STORE_REGION: 'EU West' },
        'MAILSURE_LIST_STORE_REGION="EU West": must be a region name such as us-east-1',
      ],
      [
        { MAILSURE_LIST_STORE: 's3://b-1', MAILSURE_LIST_STORE_REDIRECT: 'maybe' },
        'MAILSURE_LIST_STORE_REDIRECT="maybe": must be one of 1/0, true/false, yes/no, on/off',
      ],
      [{ MAILSURE_LIST_STORE_REDIRECT: '1' }, 'MAILSURE_LIST_STORE_REDIRECT="1": is a setting of MAILSURE_LIST_STORE, which is not set'],
      [
        { MAILSURE_LIST_STORE_ENDPOINT: 'http://127.0.0.1:9000' },
        'MAILSURE_LIST_STORE_ENDPOINT="http://127.0.0.1:9000": is a setting of MAILSURE_LIST_STORE, which is not set',
      ],
    ] as const) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      try {
        loadConfig(env);
      } catch (error) {
        expect((error as ConfigError).problems).toEqual([message]);
      }
    }
  });

  it('refuses a data directory inside /proc or /sys with one line naming the setting', () => {
    const why = (root: string) =>
      `is inside ${root}, the kernel's view of processes and devices, which cannot hold data: choose a directory on disk`;
    for (const [value, cwd, root] of [
      ['/proc', '/srv', '/proc'],
      ['/proc/self/mailsure', '/srv', '/proc'],
      ['data', '/proc/1', '/proc'],
      ['/sys/kernel/data/', '/srv', '/sys'],
    ] as const) {
      let thrown: unknown;
      try {
        loadConfig({ MAILSURE_DATA_DIR: value }, cwd);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigError);
      expect((thrown as ConfigError).problems).toEqual([`MAILSURE_DATA_DIR=${JSON.stringify(value)}: ${why(root)}`]);
    }
    // Only those trees: names that merely begin alike, or climb out of /proc, are ordinary directories.
    expect(loadConfig({ MAILSURE_DATA_DIR: '/procurement/data' }).dataDir).toBe('/procurement/data');
    expect(loadConfig({ MAILSURE_DATA_DIR: '/proc/../srv/data' }).dataDir).toBe('/srv/data');
    expect(loadConfig({ MAILSURE_DATA_DIR: '/system' }).dataDir).toBe('/system');
  });

  it('reads where metrics are served and the log format, and refuses bad ones by name', () => {
    expect(loadConfig({ MAILSURE_METRICS: '9464' }).metrics).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(loadConfig({ MAILSURE_METRICS: '0.0.0.0:9100' }).metrics).toEqual({ host: '0.0.0.0', port: 9100 });
    expect(loadConfig({ MAILSURE_METRICS: '[::1]:9100' }).metrics).toEqual({ host: '::1', port: 9100 });
    expect(loadConfig({ MAILSURE_METRICS: 'off' }).metrics).toBeNull();
    expect(loadConfig({ MAILSURE_LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    for (const [name, value, message] of [
      ['MAILSURE_METRICS', 'on', 'must be off, a port, or host:port (IPv6 as [addr]:port)'],
      ['MAILSURE_METRICS', '70000', 'must be off, a port, or host:port (IPv6 as [addr]:port)'],
      ['MAILSURE_METRICS', 'http://x:9', 'must be off, a port, or host:port (IPv6 as [addr]:port)'],
      ['MAILSURE_LOG_FORMAT', 'xml', 'must be one of auto, json, pretty'],
    ] as const) {
      expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
      try {
        loadConfig({ [name]: value });
      } catch (error) {
        expect((error as ConfigError).problems).toEqual([`${name}=${JSON.stringify(value)}: ${message}`]);
      }
    }
  });

  it('probes with the null sender by default, takes <> or an address, and refuses a sender that would break the MAIL FROM line', () => {
    expect(loadConfig({}).smtpFrom).toBe('');
    expect(loadConfig({ MAILSURE_SMTP_FROM: '<>' }).smtpFrom).toBe('');
    expect(loadConfig({ MAILSURE_SMTP_FROM: 'verify@probe.example.com' }).smtpFrom).toBe('verify@probe.example.com');
    const message = 'must be <> (the null sender) or an address such as verify@example.com (ASCII, no spaces or brackets)';
    for (const bad of [
      'verify',
      'verify@',
      '@example.com',
      'a b@example.com',
      'v>@example.com',
      'verify@example.com>\r\nRCPT TO:<x@y.com',
      'vérify@example.com',
      'verify@exa mple.com',
    ]) {
      try {
        loadConfig({ MAILSURE_SMTP_FROM: bad });
        expect.unreachable(`accepted ${bad}`);
      } catch (error) {
        expect((error as ConfigError).problems).toEqual([`MAILSURE_SMTP_FROM=${JSON.stringify(bad)}: ${message}`]);
      }
    }
  });

  it('reads every variable', () => {
    const config = loadConfig(
      {
        MAILSURE_PORT: '9443',
        MAILSURE_HOST: '127.0.0.1',
        MAILSURE_DATA_DIR: 'var/ms',
        MAILSURE_TLS_CERT: 'c.pem',
        MAILSURE_TLS_KEY: 'k.pem',
        MAILSURE_TRUST_PROXY: 'on',
        MAILSURE_DATABASE_URL: 'postgres://u@db/x',
        MAILSURE_REDIS_URL: 'redis://cache:6379',
        MAILSURE_DNS_SERVERS: '127.0.0.2:5353, [::1]:53,ns.example.com',
        MAILSURE_SMTP_PORT: '2525',
        MAILSURE_SMTP_HELO: 'probe.example.com',
        MAILSURE_SMTP_FROM: 'bounce@example.com',
        MAILSURE_VERIFY_DEPTH: 'domain',
        MAILSURE_ALLOW_PRIVATE_TARGETS: 'true',
        MAILSURE_SMTP_THROTTLE: 'off',
        MAILSURE_DEMO: '0',
        MAILSURE_LIST_MAX_MB: '5',
        MAILSURE_RETENTION_DAYS: '7',
        MAILSURE_LIST_WORKERS: '4',
        MAILSURE_LIST_POLL_SECONDS: '2',
      },
      '/srv',
    );
    expect(config).toMatchObject({
      port: 9443,
      host: '127.0.0.1',
      dataDir: '/srv/var/ms',
      tls: { certFile: '/srv/c.pem', keyFile: '/srv/k.pem' },
      trustProxy: true,
      databaseUrl: 'postgres://u@db/x',
      redisUrl: 'redis://cache:6379',
      dnsServers: ['127.0.0.2:5353', '[::1]:53', 'ns.example.com'],
      smtpPort: 2525,
      smtpHelo: 'probe.example.com',
      smtpFrom: 'bounce@example.com',
      verifyDepth: 'domain',
      smtpThrottle: false,
      allowPrivateTargets: true,
      demo: false,
      listMaxBytes: 5 * 1024 * 1024,
      retentionDays: 7,
      listPollSeconds: 2,
      listWorkers: 4,
    });
  });

  it('lists every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({
        MAILSURE_PORT: '70000',
        MAILSURE_SMTP_PORT: 'twenty-five',
        MAILSURE_TRUST_PROXY: 'maybe',
        MAILSURE_DATABASE_URL: 'mysql://x',
        MAILSURE_VERIFY_DEPTH: 'deep',
        MAILSURE_TLS_CERT: 'only-cert.pem',
        MAILSURE_DNS_SERVERS: '1.1.1.1:99999',
        MAILSURE_RETENTION_DAYS: '0',
        MAILSURE_LIST_WORKERS: 'many',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(9);
    expect(problems.join('\n')).toMatch(/MAILSURE_PORT="70000": must be a port number/);
    expect(problems.join('\n')).toMatch(/MAILSURE_SMTP_PORT/);
    expect(problems.join('\n')).toMatch(/MAILSURE_TRUST_PROXY="maybe"/);
    expect(problems.join('\n')).toMatch(/MAILSURE_DATABASE_URL="mysql:\/\/x": must be a URL starting with postgres:/);
    expect(problems.join('\n')).toMatch(/MAILSURE_VERIFY_DEPTH="deep": must be one of syntax, domain, mailbox/);
    expect(problems.join('\n')).toMatch(/MAILSURE_TLS_CERT and MAILSURE_TLS_KEY must be set together/);
    expect(problems.join('\n')).toMatch(/1\.1\.1\.1:99999/);
    expect(problems.join('\n')).toMatch(/MAILSURE_RETENTION_DAYS="0": must be a whole number from 1 to 36500/);
    expect(problems.join('\n')).toMatch(/MAILSURE_LIST_WORKERS="many"/);
  });

  it('reads the prober-health and secret settings, and refuses bad ones by name', () => {
    const key = 'A'.repeat(43) + '=';
    expect(
      loadConfig({
        MAILSURE_CANARY_DOMAINS: ' Gmail.com., outlook.com ',
        MAILSURE_SMTP_EGRESS_IP: '2001:db8::25',
        MAILSURE_DNSBL_ZONES: 'zen.spamhaus.org',
        MAILSURE_SECRET_KEY: key,
      }),
    ).toMatchObject({
      canaryDomains: ['gmail.com', 'outlook.com'],
      smtpEgressIp: '2001:db8::25',
      dnsblZones: ['zen.spamhaus.org'],
      secretKey: key,
    });
    expect(() =>
      loadConfig({
        MAILSURE_CANARY_DOMAINS: 'gmail.com,-bad-.com',
        MAILSURE_SMTP_EGRESS_IP: '300.1.1.1',
        MAILSURE_DNSBL_ZONES: 'a..b',
        MAILSURE_SECRET_KEY: 'short',
      }),
    ).toThrow(
      new ConfigError([
        'MAILSURE_CANARY_DOMAINS="gmail.com,-bad-.com": "-bad-.com" is not a domain name',
        'MAILSURE_DNSBL_ZONES="a..b": "a..b" is not a domain name',
        'MAILSURE_SMTP_EGRESS_IP="300.1.1.1": must be an IPv4 or IPv6 address',
        'MAILSURE_SECRET_KEY="short": must be 32 bytes as base64 (44 characters) or hex (64)',
      ]),
    );
  });

  it('refuses an empty domain list and out-of-range limits by name', () => {
    expect(() =>
      loadConfig({
        MAILSURE_CANARY_DOMAINS: ' , ',
        MAILSURE_REQUEST_TIMEOUT_SECONDS: '0',
        MAILSURE_LIST_POLL_SECONDS: '0',
        MAILSURE_LIST_UPLOADS_PER_KEY: 'many',
        MAILSURE_LIST_MAX_STORED_GB: '99999999999',
        MAILSURE_REDIS_START_WAIT_SECONDS: '-1',
        MAILSURE_LIST_THROTTLE_HOLD_MINUTES: '10081',
      }),
    ).toThrow(
      new ConfigError([
        'MAILSURE_CANARY_DOMAINS=" , ": must name at least one domain',
        'MAILSURE_LIST_POLL_SECONDS="0": must be a whole number from 1 to 3600',
        'MAILSURE_REQUEST_TIMEOUT_SECONDS="0": must be a whole number from 1 to 86400',
        'MAILSURE_REDIS_START_WAIT_SECONDS="-1": must be a whole number from 0 to 86400',
        'MAILSURE_LIST_THROTTLE_HOLD_MINUTES="10081": must be a whole number from 0 to 10080',
        'MAILSURE_LIST_UPLOADS_PER_KEY="many": must be a whole number from 1 to 1000',
        'MAILSURE_LIST_MAX_STORED_GB="99999999999": must be a whole number from 1 to 1000000',
      ]),
    );
    expect(loadConfig({})).toMatchObject({
      requestTimeoutSeconds: 1800,
      listPollSeconds: 5,
      listUploadsPerKey: 4,
      listMaxStoredBytes: 20 * 1024 ** 3,
      redisStartWaitSeconds: 60,
      listThrottleHoldMinutes: 120,
      listStoreWaitMinutes: 240,
    });
    expect(loadConfig({ MAILSURE_LIST_THROTTLE_HOLD_MINUTES: '0' }).listThrottleHoldMinutes).toBe(0);
    expect(loadConfig({ MAILSURE_REDIS_START_WAIT_SECONDS: '0' }).redisStartWaitSeconds).toBe(0);
  });

  it('reads the bulk calls a key may have in progress (4 by default) and refuses a bad figure by name', () => {
    expect(loadConfig({}).bulkCallsPerKey).toBe(4);
    expect(loadConfig({ MAILSURE_BULK_CALLS_PER_KEY: '16' }).bulkCallsPerKey).toBe(16);
    expect(() => loadConfig({ MAILSURE_BULK_CALLS_PER_KEY: '0' })).toThrow(
      new ConfigError(['MAILSURE_BULK_CALLS_PER_KEY="0": must be a whole number from 1 to 1000']),
    );
  });

  it('reads the fairness and body settings of issue 31 with their defaults, and refuses a bad figure by name', () => {
    const defaults = loadConfig({});
    expect([defaults.listWaitingPerKey, defaults.listChunksPerKey, defaults.bodyTimeoutSeconds, defaults.bodiesPerAddress]).toEqual([
      20, 6, 60, 64,
    ]);
    const set = loadConfig({
      MAILSURE_LIST_WAITING_PER_KEY: '300',
      MAILSURE_LIST_CHUNKS_PER_KEY: '8',
      MAILSURE_BODY_TIMEOUT_SECONDS: '2',
      MAILSURE_BODIES_PER_ADDRESS: '5000',
    });
    expect([set.listWaitingPerKey, set.listChunksPerKey, set.bodyTimeoutSeconds, set.bodiesPerAddress]).toEqual([300, 8, 2, 5000]);
    expect(() => loadConfig({ MAILSURE_LIST_CHUNKS_PER_KEY: '0', MAILSURE_BODY_TIMEOUT_SECONDS: 'soon' })).toThrow(
      new ConfigError([
        'MAILSURE_BODY_TIMEOUT_SECONDS="soon": must be a whole number from 1 to 86400',
        'MAILSURE_LIST_CHUNKS_PER_KEY="0": must be a whole number from 1 to 1000',
      ]),
    );
  });

  it('reads the SMTP proxy, and refuses a malformed one by name without showing its password', () => {
    expect(loadConfig({}).smtpProxy).toBeNull();
    expect(loadConfig({ MAILSURE_SMTP_PROXY: 'socks5://127.0.0.1:1080' }).smtpProxy).toEqual({ host: '127.0.0.1', port: 1080 });
    expect(loadConfig({ MAILSURE_SMTP_PROXY: 'socks5://probe:s%3Acret@proxy.internal:1080' }).smtpProxy).toEqual({
      host: 'proxy.internal',
      port: 1080,
      username: 'probe',
      password: 's:cret',
    });
    for (const [value, problem] of [
      [
        'socks5h://proxy:1080',
        'MAILSURE_SMTP_PROXY="socks5h://proxy:1080": must be socks5://, not socks5h://: the prober resolves and checks MX addresses itself and gives the proxy IP addresses',
      ],
      [
        'http://proxy:3128',
        'MAILSURE_SMTP_PROXY="http://proxy:3128": must be socks5://[user:pass@]host:port (http:// proxies are not supported)',
      ],
      [
        'socks5://probe:hunter2@proxy',
        'MAILSURE_SMTP_PROXY="socks5://probe:***@proxy": must be socks5://[user:pass@]host:port: the port is missing',
      ],
      ['probe:hunter2@proxy:1080', 'MAILSURE_SMTP_PROXY="probe:***@proxy:1080": must be socks5://[user:pass@]host:port'],
      [
        'socks5://proxy:1080/x',
        'MAILSURE_SMTP_PROXY="socks5://proxy:1080/x": must be socks5://[user:pass@]host:port, with nothing after the port',
      ],
    ] as const) {
      let thrown: unknown;
      try {
        loadConfig({ MAILSURE_SMTP_PROXY: value, MAILSURE_PORT: 'x' });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigError);
      expect((thrown as ConfigError).problems).toEqual([problem, 'MAILSURE_PORT="x": must be a port number from 1 to 65535']);
      expect((thrown as ConfigError).message).not.toContain('hunter2');
    }
  });

  it('reads the verdict memory (on by default, per key), and refuses a bad setting with one line naming it', () => {
    expect(loadConfig({}).verdictMemory).toEqual({ validHours: 168, invalidHours: 48, fullHours: 12, scope: 'key', maxEntries: 250_000 });
    expect(loadConfig({ MAILSURE_VERDICT_MEMORY: 'off' }).verdictMemory).toBeNull();
    expect(
      loadConfig({
        MAILSURE_VERDICT_MEMORY: 'on',
        MAILSURE_VERDICT_MEMORY_VALID_HOURS: '720',
        MAILSURE_VERDICT_MEMORY_INVALID_HOURS: '0',
        MAILSURE_VERDICT_MEMORY_FULL_HOURS: '1',
        MAILSURE_VERDICT_MEMORY_SCOPE: 'shared',
        MAILSURE_VERDICT_MEMORY_MAX_ENTRIES: '1000',
      }).verdictMemory,
    ).toEqual({ validHours: 720, invalidHours: 0, fullHours: 1, scope: 'shared', maxEntries: 1000 });
    for (const [name, value, message] of [
      ['MAILSURE_VERDICT_MEMORY', 'sometimes', 'must be one of 1/0, true/false, yes/no, on/off'],
      ['MAILSURE_VERDICT_MEMORY_VALID_HOURS', '721', 'must be a whole number from 0 to 720'],
      ['MAILSURE_VERDICT_MEMORY_INVALID_HOURS', '-1', 'must be a whole number from 0 to 720'],
      ['MAILSURE_VERDICT_MEMORY_FULL_HOURS', '1.5', 'must be a whole number from 0 to 720'],
      ['MAILSURE_VERDICT_MEMORY_SCOPE', 'global', 'must be one of key, shared'],
      ['MAILSURE_VERDICT_MEMORY_MAX_ENTRIES', '999', 'must be a whole number from 1000 to 100000000'],
    ] as const) {
      // A class's setting is refused even while the memory is off: a typo shows before it is turned on.
      const envs =
        name === 'MAILSURE_VERDICT_MEMORY' ? [{ [name]: value }] : [{ [name]: value }, { MAILSURE_VERDICT_MEMORY: 'off', [name]: value }];
      for (const env of envs) {
        let thrown: unknown;
        try {
          loadConfig(env);
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(ConfigError);
        expect((thrown as ConfigError).problems).toEqual([`${name}=${JSON.stringify(value)}: ${message}`]);
      }
    }
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ MAILSURE_PORT: '', MAILSURE_DEMO: ' ' }).port).toBe(8443);
  });
});
