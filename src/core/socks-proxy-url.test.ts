import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeProxy, parseSocksProxyUrl, redactProxyUrl } from './socks-proxy-url.js';

describe('parseSocksProxyUrl', () => {
  it('reads host, port and credentials (percent-decoded); IPv6 literals lose their brackets', () => {
    expect(parseSocksProxyUrl('socks5://127.0.0.1:1080')).toEqual({ ok: true, proxy: { host: '127.0.0.1', port: 1080 } });
    expect(parseSocksProxyUrl('socks5://proxy.example.com:1080/')).toEqual({ ok: true, proxy: { host: 'proxy.example.com', port: 1080 } });
    expect(parseSocksProxyUrl('SOCKS5://[::1]:9050')).toEqual({ ok: true, proxy: { host: '::1', port: 9050 } });
    expect(parseSocksProxyUrl('socks5://probe:p%40ss%3Aw0rd@10.0.0.5:1080')).toEqual({
      ok: true,
      proxy: { host: '10.0.0.5', port: 1080, username: 'probe', password: 'p@ss:w0rd' },
    });
  });

  it('refuses every other shape with a reason that says what to write', () => {
    const cases: [string, string][] = [
      ['127.0.0.1:1080', 'must be socks5://[user:pass@]host:port'],
      ['socks5:/127.0.0.1:1080', 'must be socks5://[user:pass@]host:port'],
      [
        'socks5h://127.0.0.1:1080',
        'must be socks5://, not socks5h://: the prober resolves and checks MX addresses itself and gives the proxy IP addresses',
      ],
      ['socks4://127.0.0.1:1080', 'must be socks5://[user:pass@]host:port (socks4:// proxies are not supported)'],
      ['http://127.0.0.1:3128', 'must be socks5://[user:pass@]host:port (http:// proxies are not supported)'],
      ['socks5://127.0.0.1', 'must be socks5://[user:pass@]host:port: the port is missing'],
      ['socks5://:1080', 'must be socks5://[user:pass@]host:port'],
      ['socks5://127.0.0.1:0', 'must be socks5://[user:pass@]host:port: the port must be from 1 to 65535'],
      ['socks5://127.0.0.1:65536', 'must be socks5://[user:pass@]host:port'],
      ['socks5://127.0.0.1:1080/path', 'must be socks5://[user:pass@]host:port, with nothing after the port'],
      ['socks5://127.0.0.1:1080?x=1', 'must be socks5://[user:pass@]host:port, with nothing after the port'],
      [
        'socks5://user@127.0.0.1:1080',
        'must be socks5://[user:pass@]host:port: a user name needs a password and a password needs a user name',
      ],
      [
        'socks5://:secret@127.0.0.1:1080',
        'must be socks5://[user:pass@]host:port: a user name needs a password and a password needs a user name',
      ],
      [
        'socks5://u:%E0%A4%A@127.0.0.1:1080',
        'must be socks5://[user:pass@]host:port: the user name or password is not valid percent-encoding',
      ],
      [
        `socks5://${'u'.repeat(256)}:p@127.0.0.1:1080`,
        'must be socks5://[user:pass@]host:port: the user name and the password may each be at most 255 bytes (RFC 1929)',
      ],
    ];
    for (const [raw, reason] of cases) expect([raw, parseSocksProxyUrl(raw)]).toEqual([raw, { ok: false, reason }]);
  });

  it('round-trips any host, port and credentials written as a URL', () => {
    const credential = fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' });
    const host = fc.oneof(fc.ipV4(), fc.domain());
    fc.assert(
      fc.property(
        host,
        fc.integer({ min: 1, max: 65535 }),
        fc.option(fc.tuple(credential, credential), { nil: undefined }),
        (h, port, creds) => {
          const auth = creds ? `${encodeURIComponent(creds[0])}:${encodeURIComponent(creds[1])}@` : '';
          const parsed = parseSocksProxyUrl(`socks5://${auth}${h}:${port}`);
          expect(parsed).toEqual({
            ok: true,
            proxy: { host: h.toLowerCase(), port, ...(creds ? { username: creds[0], password: creds[1] } : {}) },
          });
        },
      ),
    );
  });

  it('never puts the password in a reason, a description or a redacted setting', () => {
    // Long enough and marked so that it cannot occur in the fixed text of a reason by chance.
    const password = fc.string({ minLength: 1, maxLength: 30 }).map((s) => `PW${s}PW`);
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), password, fc.string({ maxLength: 20 }), (before, pw, after) => {
        const raw = `${before}socks5://user:${pw}@${after}`;
        expect(redactProxyUrl(raw)).not.toContain(pw);
        const parsed = parseSocksProxyUrl(raw);
        if (!parsed.ok) expect(parsed.reason).not.toContain(pw);
        else expect(describeProxy(parsed.proxy)).not.toContain(encodeURIComponent(parsed.proxy.password ?? 'x'));
      }),
    );
    expect(redactProxyUrl('socks5://probe:s3cret@proxy:1080')).toBe('socks5://probe:***@proxy:1080');
    expect(redactProxyUrl('probe:s3cret@proxy:1080')).toBe('probe:***@proxy:1080');
    expect(redactProxyUrl('socks5://proxy:1080')).toBe('socks5://proxy:1080');
  });
});

describe('describeProxy', () => {
  it('names the proxy and its user, never the password', () => {
    expect(describeProxy({ host: '127.0.0.1', port: 1080 })).toBe('socks5://127.0.0.1:1080');
    expect(describeProxy({ host: '::1', port: 1080, username: 'probe', password: 's3cret' })).toBe('socks5://probe@[::1]:1080');
  });
});
