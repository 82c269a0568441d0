/**
 * MAILSURE_SMTP_PROXY: `socks5://[user:pass@]host:port`, the SOCKS5 proxy mailbox probes leave
 * through. Only `socks5://`: the prober resolves MX hosts itself, checks every address against
 * the target policy (dns/target-policy.ts) and hands the proxy an IP address, so a proxy that
 * resolves names (`socks5h://`) would have nothing to resolve, and SOCKS4 and HTTP proxies are
 * not offered. The password never appears in an error message or in `describeProxy`.
 */

export interface SocksProxy {
  /** Host name or IP address of the proxy (the operator's own: resolved by the system resolver). */
  host: string;
  port: number;
  /** RFC 1929 user name and password, both or neither. */
  username?: string;
  password?: string;
}

export type ParsedProxy = { ok: true; proxy: SocksProxy } | { ok: false; reason: string };

const SHAPE = 'must be socks5://[user:pass@]host:port';
/** RFC 1929 §2: one length byte each. */
const MAX_CREDENTIAL_BYTES = 255;

export function parseSocksProxyUrl(raw: string): ParsedProxy {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw)?.[1]?.toLowerCase();
  if (scheme === undefined) return fail(`${SHAPE}`);
  if (scheme === 'socks5h')
    return fail('must be socks5://, not socks5h://: the prober resolves and checks MX addresses itself and gives the proxy IP addresses');
  if (scheme !== 'socks5') return fail(`must be socks5://[user:pass@]host:port (${scheme}:// proxies are not supported)`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail(SHAPE);
  }
  if (url.hostname === '') return fail(`${SHAPE}: the host is missing`);
  if (url.port === '') return fail(`${SHAPE}: the port is missing`);
  if ((url.pathname !== '' && url.pathname !== '/') || url.search !== '' || url.hash !== '')
    return fail(`${SHAPE}, with nothing after the port`);
  const port = Number(url.port);
  if (port < 1) return fail(`${SHAPE}: the port must be from 1 to 65535`);
  let username: string;
  let password: string;
  try {
    username = decodeURIComponent(url.username);
    password = decodeURIComponent(url.password);
  } catch {
    return fail(`${SHAPE}: the user name or password is not valid percent-encoding`);
  }
  if ((username === '') !== (password === '')) return fail(`${SHAPE}: a user name needs a password and a password needs a user name`);
  if (Buffer.byteLength(username) > MAX_CREDENTIAL_BYTES || Buffer.byteLength(password) > MAX_CREDENTIAL_BYTES) {
    return fail(`${SHAPE}: the user name and the password may each be at most ${MAX_CREDENTIAL_BYTES} bytes (RFC 1929)`);
  }
  // WHATWG keeps IPv6 literals bracketed in `hostname`; sockets want them bare.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return { ok: true, proxy: { host, port, ...(username ? { username, password } : {}) } };
}

/** `socks5://host:port` (with `user@` when it authenticates): for logs, evidence and the doctor. */
export function describeProxy(proxy: SocksProxy): string {
  const host = proxy.host.includes(':') ? `[${proxy.host}]` : proxy.host;
  return `socks5://${proxy.username ? `${encodeURIComponent(proxy.username)}@` : ''}${host}:${proxy.port}`;
}

/**
 * The setting as an operator may see it in an error: whatever stands between `//` and the last
 * `@` keeps its user name and loses its password.
 */
export function redactProxyUrl(raw: string): string {
  const at = raw.lastIndexOf('@');
  if (at < 0) return raw;
  const slashes = raw.indexOf('//');
  const start = slashes >= 0 && slashes < at ? slashes + 2 : 0;
  const userinfo = raw.slice(start, at);
  const colon = userinfo.indexOf(':');
  return `${raw.slice(0, start)}${colon >= 0 ? `${userinfo.slice(0, colon)}:***` : userinfo}${raw.slice(at)}`;
}

function fail(reason: string): ParsedProxy {
  return { ok: false, reason };
}
