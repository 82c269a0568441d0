import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkCallbackTarget, validateCallbackUrl, type LookupAll } from './callback-url.js';
import { CALLBACK_TIMEOUT_MS, isDelivered, MAX_ATTEMPTS, nextAttemptDelayMs, nextCallbackTry } from './retry-schedule.js';
import { signBody, verifySignature } from './sign-body.js';

describe('signBody', () => {
  it('is sha256= and the hex HMAC of the exact body', () => {
    const body = JSON.stringify({ list_id: 1, status: 'Results' });
    const expected = createHmac('sha256', 'secret').update(body).digest('hex');
    expect(signBody('secret', body)).toBe(`sha256=${expected}`);
    expect(signBody('secret', Buffer.from(body))).toBe(`sha256=${expected}`);
    expect(verifySignature('secret', body, `sha256=${expected}`)).toBe(true);
    expect(verifySignature('other', body, `sha256=${expected}`)).toBe(false);
    expect(verifySignature('secret', `${body} `, `sha256=${expected}`)).toBe(false);
    expect(verifySignature('secret', body, undefined)).toBe(false);
    expect(verifySignature('secret', body, 'sha256=abc')).toBe(false);
  });
});

describe('validateCallbackUrl', () => {
  it('accepts https and http URLs', () => {
    expect(validateCallbackUrl('https://hooks.example.com/lists?x=1')).toMatchObject({ ok: true });
    expect(validateCallbackUrl('http://example.com:8080/cb')).toMatchObject({ ok: true });
  });

  it.each([
    [`https://example.com/${'a'.repeat(500)}`, 'Invalid parameter callback_url: must be at most 512 characters'],
    ['not a url', 'Invalid parameter callback_url: is not a URL'],
    ['/relative/path', 'Invalid parameter callback_url: is not a URL'],
    ['ftp://example.com/x', 'Invalid parameter callback_url: must be an https or http URL'],
    ['javascript:alert(1)', 'Invalid parameter callback_url: must be an https or http URL'],
    ['file:///etc/passwd', 'Invalid parameter callback_url: must be an https or http URL'],
    ['https://user:pass@example.com/', 'Invalid parameter callback_url: must not contain credentials'],
    ['https://user@example.com/', 'Invalid parameter callback_url: must not contain credentials'],
  ])('refuses %s', (url, reason) => {
    expect(validateCallbackUrl(url)).toEqual({ ok: false, reason });
  });

  it('counts 512 characters as allowed', () => {
    const url = `https://example.com/${'a'.repeat(512 - 'https://example.com/'.length)}`;
    expect(url).toHaveLength(512);
    expect(validateCallbackUrl(url).ok).toBe(true);
  });
});

describe('checkCallbackTarget', () => {
  const lookup =
    (table: Record<string, string[]>): LookupAll =>
    async (host) => {
      const addresses = table[host];
      if (!addresses) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
      return addresses.map((address) => ({ address }));
    };
  const url = (s: string) => new URL(s);
  const dns = lookup({
    'public.example': ['93.184.216.34', '2606:2800:220:1::1'],
    'mixed.example': ['93.184.216.34', '10.0.0.5'],
    'internal.example': ['192.168.1.10'],
    localhost: ['127.0.0.1', '::1'],
  });

  it('returns the addresses of a public host', async () => {
    expect(await checkCallbackTarget(url('https://public.example/cb'), { allowPrivate: false, lookup: dns })).toEqual({
      ok: true,
      value: ['93.184.216.34', '2606:2800:220:1::1'],
    });
  });

  it.each([
    ['https://internal.example/', 'The callback host internal.example resolves to a private or reserved address'],
    ['https://mixed.example/', 'The callback host mixed.example resolves to a private or reserved address'],
    ['http://localhost:3000/', 'The callback host localhost resolves to a private or reserved address'],
    ['http://127.0.0.1/', 'The callback host 127.0.0.1 resolves to a private or reserved address'],
    ['http://[::1]:8080/', 'The callback host ::1 resolves to a private or reserved address'],
    ['http://[::ffff:10.0.0.1]/', 'The callback host ::ffff:a00:1 resolves to a private or reserved address'],
    ['http://[::ffff:0:7f00:1]/', 'The callback host ::ffff:0:7f00:1 resolves to a private or reserved address'],
    ['http://169.254.169.254/latest/meta-data', 'The callback host 169.254.169.254 resolves to a private or reserved address'],
    ['http://0x7f000001/', 'The callback host 127.0.0.1 resolves to a private or reserved address'],
    ['https://nowhere.example/', 'The callback host nowhere.example does not resolve'],
  ])('refuses %s', async (target, reason) => {
    expect(await checkCallbackTarget(url(target), { allowPrivate: false, lookup: dns })).toEqual({ ok: false, reason });
  });

  it('allows private targets when the operator does', async () => {
    expect(await checkCallbackTarget(url('http://localhost:3000/'), { allowPrivate: true, lookup: dns })).toEqual({
      ok: true,
      value: ['127.0.0.1', '::1'],
    });
  });
});

describe('retry schedule', () => {
  it('backs off exponentially over about an hour, then stops', () => {
    const delays: number[] = [];
    for (let attempt = 1; ; attempt++) {
      const delay = nextAttemptDelayMs(attempt);
      if (delay === undefined) break;
      delays.push(delay / 60_000);
    }
    expect(delays).toEqual([1, 2, 4, 8, 16, 32]);
    expect(delays.length + 1).toBe(MAX_ATTEMPTS);
    expect(MAX_ATTEMPTS).toBeGreaterThanOrEqual(5);
    expect(delays.reduce((a, b) => a + b, 0)).toBe(63);
    expect(nextAttemptDelayMs(0)).toBeUndefined();
    expect(nextAttemptDelayMs(1.5)).toBeUndefined();
    expect(CALLBACK_TIMEOUT_MS).toBeLessThan(60_000);
  });

  it('resumes from the recorded attempts: first at once, then the back-off after the last, none once delivered or used up', () => {
    const failed = (minute: number) => ({ at: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(), error: 'answered HTTP 503' });
    const at = (minute: number) => Date.UTC(2026, 0, 1, 0, minute);
    expect(nextCallbackTry([])).toEqual({ number: 1, dueAt: 0 });
    expect(nextCallbackTry([failed(0)])).toEqual({ number: 2, dueAt: at(1) });
    expect(nextCallbackTry([failed(0), failed(1), failed(3)])).toEqual({ number: 4, dueAt: at(7) });
    expect(nextCallbackTry([failed(0)], 0.5)).toEqual({ number: 2, dueAt: at(0) + 30_000 });
    expect(nextCallbackTry([failed(0), { at: failed(1).at, error: null }])).toBeUndefined();
    expect(nextCallbackTry([0, 1, 3, 7, 15, 31].map(failed))).toEqual({ number: 7, dueAt: at(63) });
    expect(nextCallbackTry([0, 1, 3, 7, 15, 31, 63].map(failed))).toBeUndefined();
  });

  it('counts only 2xx as delivered', () => {
    expect([199, 200, 204, 299, 301, 404, 500].map(isDelivered)).toEqual([false, true, true, true, false, false, false]);
  });
});
