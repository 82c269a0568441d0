import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { PROFILES } from '../verification/providers/profiles.js';
import { parseEgressSettings, PROVIDER_IDS } from './egress-settings.js';

const PROVIDERS = ['google', 'microsoft-365', 'outlook-com', 'yahoo'];
const parse = (env: Record<string, string>) => parseEgressSettings((name) => env[name], PROVIDERS);

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('the egress pool settings', () => {
  it('routes may name exactly the provider profiles', () => {
    expect([...PROVIDER_IDS].sort()).toEqual(PROFILES.map((profile) => profile.id).sort());
  });

  it('one direct egress, egress-1, when neither proxies nor source addresses are set', () => {
    expect(loadConfig({}).smtpEgresses).toEqual([{ label: 'egress-1' }]);
    expect(loadConfig({ MAILSURE_SMTP_EGRESS_IP: '192.0.2.25' }).smtpEgresses).toEqual([{ label: 'egress-1', egressIp: '192.0.2.25' }]);
  });

  it('reads a list of proxies (a comma in a password percent-encoded) and source addresses, labelled by position or by name', () => {
    const config = loadConfig({
      MAILSURE_SMTP_PROXY: 'socks5://a:p%2Cw@proxy-a:1080, eu=socks5://proxy-b:1080',
      MAILSURE_SMTP_SOURCE_ADDRESSES: '192.0.2.10,backup=2001:db8::10',
      MAILSURE_SMTP_EGRESS_IP: 'egress-1=198.51.100.1,eu=198.51.100.2',
      MAILSURE_SMTP_EGRESS_HELO: 'eu=probe-eu.example.com',
      MAILSURE_SMTP_EGRESS_ROUTES: 'microsoft-365=eu+backup',
    });
    expect(config.smtpEgresses).toEqual([
      { label: 'egress-1', proxy: { host: 'proxy-a', port: 1080, username: 'a', password: 'p,w' }, egressIp: '198.51.100.1' },
      { label: 'eu', proxy: { host: 'proxy-b', port: 1080 }, egressIp: '198.51.100.2', helo: 'probe-eu.example.com' },
      { label: 'egress-3', sourceAddress: '192.0.2.10', egressIp: '192.0.2.10' },
      { label: 'backup', sourceAddress: '2001:db8::10', egressIp: '2001:db8::10' },
    ]);
    expect(config.smtpEgressRoutes).toEqual({ 'microsoft-365': ['eu', 'backup'] });
    // The first egress stays what the single-proxy settings were.
    expect(config.smtpProxy).toEqual({ host: 'proxy-a', port: 1080, username: 'a', password: 'p,w' });
    expect(config.smtpEgressIp).toBe('198.51.100.1');
    expect(
      loadConfig({ MAILSURE_SMTP_PROXY: 'socks5://p1:1,socks5://p2:1', MAILSURE_SMTP_EGRESS_IP: 'egress-2=192.0.2.2' }).smtpEgressIp,
    ).toBe('192.0.2.2');
  });

  it('refuses each bad setting at start with one line naming it, never showing a password', () => {
    const cases: [Record<string, string>, string | string[]][] = [
      [
        { MAILSURE_SMTP_PROXY: 'socks5://p1:1080,,socks5://p2:1080' },
        'MAILSURE_SMTP_PROXY: item 2 of 3 is empty (write a comma inside a user name or password as %2C)',
      ],
      [
        { MAILSURE_SMTP_PROXY: 'socks5://u:hunter,2@p1:1080,socks5://p2:1080' },
        [
          'MAILSURE_SMTP_PROXY: item 1 of 3 must be socks5://[user:pass@]host:port (a comma inside a user name or password is written %2C)',
          'MAILSURE_SMTP_PROXY: item 2 of 3 must be socks5://[user:pass@]host:port (a comma inside a user name or password is written %2C)',
        ],
      ],
      [
        { MAILSURE_SMTP_PROXY: 'socks5://p1:1080,socks5://u:x@P1:1080,socks5://u:y@p1:1080' },
        'MAILSURE_SMTP_PROXY: socks5://u@p1:1080 is listed twice (a duplicate egress)',
      ],
      [
        { MAILSURE_SMTP_SOURCE_ADDRESSES: '192.0.2.1,192.0.2.1' },
        'MAILSURE_SMTP_SOURCE_ADDRESSES: 192.0.2.1 is listed twice (a duplicate egress)',
      ],
      [
        { MAILSURE_SMTP_SOURCE_ADDRESSES: 'a=192.0.2.1,a=192.0.2.2' },
        'MAILSURE_SMTP_SOURCE_ADDRESSES: the name a is given to two egresses',
      ],
      [
        { MAILSURE_SMTP_SOURCE_ADDRESSES: '192.0.2.1,host.example' },
        'MAILSURE_SMTP_SOURCE_ADDRESSES="host.example": must be [name=]address, an IPv4 or IPv6 address of this host',
      ],
      [
        { MAILSURE_SMTP_SOURCE_ADDRESSES: '192.0.2.1,192.0.2.2', MAILSURE_SMTP_EGRESS_IP: '198.51.100.1' },
        'MAILSURE_SMTP_EGRESS_IP="198.51.100.1": with 2 egresses, give each its own as label=value,… (labels: egress-1, egress-2)',
      ],
      [
        { MAILSURE_SMTP_EGRESS_IP: 'egress-9=198.51.100.1' },
        'MAILSURE_SMTP_EGRESS_IP="egress-9=198.51.100.1": names an egress that is not configured (egress-1)',
      ],
      [{ MAILSURE_SMTP_EGRESS_IP: 'mail.example' }, 'MAILSURE_SMTP_EGRESS_IP="mail.example": must be an IPv4 or IPv6 address'],
      [{ MAILSURE_SMTP_EGRESS_HELO: 'egress-1=bad name' }, 'MAILSURE_SMTP_EGRESS_HELO="egress-1=bad name": must be a host name'],
      [
        { MAILSURE_SMTP_EGRESS_ROUTES: 'hotmail=egress-1' },
        'MAILSURE_SMTP_EGRESS_ROUTES="hotmail=egress-1": names no provider profile (one of google, microsoft-365, outlook-com, yahoo)',
      ],
      [
        { MAILSURE_SMTP_EGRESS_ROUTES: 'google=egress-2' },
        'MAILSURE_SMTP_EGRESS_ROUTES="google=egress-2": names an egress that is not configured (egress-1)',
      ],
      [
        { MAILSURE_SMTP_EGRESS_ROUTES: 'google' },
        'MAILSURE_SMTP_EGRESS_ROUTES="google": must be provider=label+label,… (e.g. microsoft-365=egress-1+egress-2)',
      ],
    ];
    for (const [env, problem] of cases) {
      expect(parse(env).problems).toEqual(typeof problem === 'string' ? [problem] : problem);
      expect(String(problem)).not.toContain('hunter');
    }
  });

  it('at start, a bad egress setting is one line of the configuration error', () => {
    expect(problemsOf({ MAILSURE_SMTP_PROXY: 'socks5://p1:1080,socks5://p1:1080', MAILSURE_PORT: 'x' })).toEqual([
      'MAILSURE_SMTP_PROXY: socks5://p1:1080 is listed twice (a duplicate egress)',
      'MAILSURE_PORT="x": must be a port number from 1 to 65535',
    ]);
  });

  it('any list of distinct proxies parses back to its proxies, in order, credentials decoded (property)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'Z', '9', ',', ':', '@', '%', ' ', 'é', '/'), minLength: 1, maxLength: 12 });
    const proxy = fc.record({
      host: fc.constantFrom('proxy-a', 'proxy-b', '10.0.0.1', 'p.example'),
      port: fc.integer({ min: 1, max: 65535 }),
      auth: fc.option(fc.tuple(text, text), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(proxy, { minLength: 1, maxLength: 5, selector: (p) => `${p.host}:${p.port}` }), (proxies) => {
        const raw = proxies
          .map((p) => `socks5://${p.auth ? `${encodeURIComponent(p.auth[0])}:${encodeURIComponent(p.auth[1])}@` : ''}${p.host}:${p.port}`)
          .join(',');
        const { settings, problems } = parse({ MAILSURE_SMTP_PROXY: raw });
        expect(problems).toEqual([]);
        expect(settings.egresses.map((e) => e.proxy)).toEqual(
          proxies.map((p) => ({ host: p.host, port: p.port, ...(p.auth ? { username: p.auth[0], password: p.auth[1] } : {}) })),
        );
        expect(settings.egresses.map((e) => e.label)).toEqual(proxies.map((_, i) => `egress-${i + 1}`));
      }),
    );
  });

  it('whatever surrounds it, a problem never shows any part of a password (property)', () => {
    const noise = fc.array(fc.constantFrom('socks5://', 'u', ':', '@', 'host', ':1080', ',', '=', 'x', '/'), { maxLength: 6 });
    fc.assert(
      fc.property(noise, fc.boolean(), noise, (before, cut, after) => {
        const raw = `${before.join('')}socks5://user:QQQ${cut ? ',' : ''}ZZZ@host:1080${after.join('')}`;
        for (const problem of parse({ MAILSURE_SMTP_PROXY: raw }).problems) {
          expect(problem).not.toContain('QQQ');
          expect(problem).not.toContain('ZZZ');
        }
      }),
    );
  });
});
