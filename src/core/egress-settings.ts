/**
 * The SMTP egress pool's settings (docs/verification.md, "Several egresses"): the ways out mailbox
 * probes may take, each under an opaque label that is all the operator view, `/metrics`, the
 * doctor and the evidence ever show of it.
 *
 * - MAILSURE_SMTP_PROXY: `[name=]socks5://[user:pass@]host:port`, comma-separated (a comma inside
 *   a user name or password is written %2C, as any other reserved character).
 * - MAILSURE_SMTP_SOURCE_ADDRESSES: `[name=]ip`, comma-separated: direct connections bound to that
 *   local address (it must be one of this host's).
 * - MAILSURE_SMTP_EGRESS_IP: one address (one egress only), or `label=ip,…` per egress: what the
 *   reverse-DNS and block-list checks look at. A source address is its own egress IP unless told.
 * - MAILSURE_SMTP_EGRESS_HELO: `label=name,…`: an egress's own EHLO name (default MAILSURE_SMTP_HELO).
 * - MAILSURE_SMTP_EGRESS_ROUTES: `provider=label+label,…`: that provider's probes go only through
 *   those egresses (provider profile ids: google, outlook-com, microsoft-365, yahoo…).
 *
 * Labels: the operator's name, or `egress-N` by position (proxies first, then source addresses).
 * With neither setting there is one egress, `egress-1`: direct, from whatever address the host picks.
 */
import { isIP } from 'node:net';
import { describeProxy, parseSocksProxyUrl, redactProxyUrl, type SocksProxy } from './socks-proxy-url.js';

export interface EgressSetting {
  /** Opaque: the operator's name or `egress-N`; never an address or a credential. */
  label: string;
  /** Absent with `sourceAddress` absent too: direct, from the host's own choice of address. */
  proxy?: SocksProxy;
  /** The local address a direct connection is bound to. */
  sourceAddress?: string;
  /** Its own EHLO name (MAILSURE_SMTP_EGRESS_HELO); default MAILSURE_SMTP_HELO. */
  helo?: string;
  /** The public address it leaves from, for the PTR and block-list checks. */
  egressIp?: string;
}

export interface EgressSettings {
  egresses: EgressSetting[];
  /** Provider profile id → the labels its probes may take; providers not named take any. */
  routes: Record<string, string[]>;
}

/**
 * The provider profiles' ids a route may name (verification/providers/profiles.ts, checked equal
 * by egress-settings.test.ts): a copy, so reading the configuration loads no verification code.
 */
export const PROVIDER_IDS: readonly string[] = [
  'yahoo',
  'google',
  'outlook-com',
  'microsoft-365',
  'icloud',
  'mimecast',
  'proofpoint',
  'barracuda',
  'proton',
  'zoho',
  'gmx',
  'fastmail',
  'mail-ru',
  'yandex',
  'qq',
  'broadcom',
  'cisco',
  'sophos',
  'trend-micro',
  'forcepoint',
];

const NAME = /^[a-z][a-z0-9-]{0,31}$/i;
const PROVIDER = /^[a-z0-9-]{1,40}$/;

/**
 * Every problem is one line naming its setting; a proxy's password never appears in one.
 * `providers`: the profile ids a route may name.
 */
export function parseEgressSettings(
  read: (name: string) => string | undefined,
  providers: readonly string[],
): { settings: EgressSettings; problems: string[] } {
  const problems: string[] = [];
  const egresses: EgressSetting[] = [];

  const proxies = read('MAILSURE_SMTP_PROXY');
  if (proxies !== undefined) {
    const items = proxies.split(',').map((item) => item.trim());
    items.forEach((item, index) => {
      if (item === '') {
        problems.push(
          `MAILSURE_SMTP_PROXY: item ${index + 1} of ${items.length} is empty (write a comma inside a user name or password as %2C)`,
        );
        return;
      }
      const { name, value } = named(item, /^[a-z][a-z0-9+.-]*:\/\//i);
      const parsed = parseSocksProxyUrl(value);
      // In a list, an item is named by its place only: a password with a raw comma in it would
      // be cut in two, and neither half can be told apart from a password to hide.
      if (!parsed.ok && items.length === 1) problems.push(`MAILSURE_SMTP_PROXY=${JSON.stringify(redactProxyUrl(item))}: ${parsed.reason}`);
      else if (!parsed.ok)
        problems.push(
          `MAILSURE_SMTP_PROXY: item ${index + 1} of ${items.length} ${parsed.reason} (a comma inside a user name or password is written %2C)`,
        );
      else egresses.push({ label: name ?? '', proxy: parsed.proxy });
    });
  }
  const sources = read('MAILSURE_SMTP_SOURCE_ADDRESSES');
  if (sources !== undefined) {
    const items = sources.split(',').map((item) => item.trim());
    items.forEach((item, index) => {
      const { name, value } = named(item, /^[0-9a-f:.[\]]+$/i);
      const address = value.replace(/^\[(.*)\]$/, '$1');
      if (item === '') problems.push(`MAILSURE_SMTP_SOURCE_ADDRESSES: item ${index + 1} of ${items.length} is empty`);
      else if (isIP(address) === 0)
        problems.push(
          `MAILSURE_SMTP_SOURCE_ADDRESSES=${JSON.stringify(item)}: must be [name=]address, an IPv4 or IPv6 address of this host`,
        );
      else egresses.push({ label: name ?? '', sourceAddress: address, egressIp: address });
    });
  }
  // Labels by position where the operator gave no name; a name that collides is refused.
  egresses.forEach((egress, index) => {
    if (egress.label === '') egress.label = `egress-${index + 1}`;
  });
  duplicates(egresses, problems);
  if (egresses.length === 0 && problems.length === 0) egresses.push({ label: 'egress-1' });
  const byLabel = new Map(egresses.map((egress) => [egress.label, egress]));

  perEgress(
    read,
    'MAILSURE_SMTP_EGRESS_IP',
    byLabel,
    problems,
    (value) => (isIP(value) === 0 ? 'must be an IPv4 or IPv6 address' : undefined),
    (egress, value) => (egress.egressIp = value),
  );
  perEgress(
    read,
    'MAILSURE_SMTP_EGRESS_HELO',
    byLabel,
    problems,
    (value) => (HOST_NAME.test(value) ? undefined : 'must be a host name'),
    (egress, value) => (egress.helo = value),
    false,
  );

  const routes: Record<string, string[]> = {};
  const routeSetting = read('MAILSURE_SMTP_EGRESS_ROUTES');
  if (routeSetting !== undefined) {
    for (const item of routeSetting.split(',').map((part) => part.trim())) {
      const at = item.indexOf('=');
      const provider = item.slice(0, at).trim().toLowerCase();
      const labels = item
        .slice(at + 1)
        .split('+')
        .map((label) => label.trim());
      const bad = (why: string) => problems.push(`MAILSURE_SMTP_EGRESS_ROUTES=${JSON.stringify(item)}: ${why}`);
      if (at < 1 || !PROVIDER.test(provider) || labels.some((label) => label === ''))
        bad('must be provider=label+label,… (e.g. microsoft-365=egress-1+egress-2)');
      else if (!providers.includes(provider)) bad(`names no provider profile (one of ${providers.join(', ')})`);
      else if (routes[provider]) bad(`routes ${provider} a second time`);
      else if (labels.some((label) => !byLabel.has(label)))
        bad(`names an egress that is not configured (${[...byLabel.keys()].join(', ')})`);
      else routes[provider] = [...new Set(labels)];
    }
  }
  return { settings: { egresses, routes }, problems };
}

const HOST_NAME = /^(?=.{1,253}$)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** `name=value` where the part before `=` is a name and the rest looks like a value of the list. */
function named(item: string, looksLikeValue: RegExp): { name?: string; value: string } {
  const at = item.indexOf('=');
  if (at > 0 && NAME.test(item.slice(0, at)) && looksLikeValue.test(item.slice(at + 1)))
    return { name: item.slice(0, at), value: item.slice(at + 1) };
  return { value: item };
}

/** Each egress once: one name per egress, one egress per proxy endpoint (and user) or source address. */
function duplicates(egresses: readonly EgressSetting[], problems: string[]): void {
  const labels = new Set<string>();
  const ways = new Set<string>();
  for (const egress of egresses) {
    const setting = egress.proxy ? 'MAILSURE_SMTP_PROXY' : 'MAILSURE_SMTP_SOURCE_ADDRESSES';
    if (labels.has(egress.label)) problems.push(`${setting}: the name ${egress.label} is given to two egresses`);
    labels.add(egress.label);
    const way = egress.proxy ? describeProxy({ ...egress.proxy, host: egress.proxy.host.toLowerCase() }) : `source ${egress.sourceAddress}`;
    if (ways.has(way)) problems.push(`${setting}: ${egress.proxy ? way : egress.sourceAddress} is listed twice (a duplicate egress)`);
    ways.add(way);
  }
}

/**
 * `label=value,…`, or a bare value when `bareForOne` and there is one egress. Unknown labels and a
 * label given twice are refused.
 */
function perEgress(
  read: (name: string) => string | undefined,
  setting: string,
  byLabel: ReadonlyMap<string, EgressSetting>,
  problems: string[],
  invalid: (value: string) => string | undefined,
  apply: (egress: EgressSetting, value: string) => void,
  bareForOne = true,
): void {
  const raw = read(setting);
  if (raw === undefined || byLabel.size === 0) return;
  const only = byLabel.size === 1 ? [...byLabel.values()][0]! : undefined;
  if (bareForOne && !raw.includes('=')) {
    const why = invalid(raw);
    if (why) problems.push(`${setting}=${JSON.stringify(raw)}: ${why}`);
    else if (!only)
      problems.push(
        `${setting}=${JSON.stringify(raw)}: with ${byLabel.size} egresses, give each its own as label=value,… (labels: ${[...byLabel.keys()].join(', ')})`,
      );
    else apply(only, raw);
    return;
  }
  const seen = new Set<string>();
  for (const item of raw.split(',').map((part) => part.trim())) {
    const at = item.indexOf('=');
    const label = item.slice(0, at).trim();
    const value = item.slice(at + 1).trim();
    const bad = (why: string) => problems.push(`${setting}=${JSON.stringify(item)}: ${why}`);
    if (at < 1 || value === '') bad('must be label=value,… (labels: ' + [...byLabel.keys()].join(', ') + ')');
    else if (!byLabel.has(label)) bad(`names an egress that is not configured (${[...byLabel.keys()].join(', ')})`);
    else if (seen.has(label)) bad(`gives ${label} a second value`);
    else {
      const why = invalid(value);
      if (why) bad(why);
      else apply(byLabel.get(label)!, value);
    }
    seen.add(label);
  }
}
