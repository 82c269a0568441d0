/**
 * Issue 16 (operator view): the admin API behind MAILSURE_ADMIN_TOKEN — absent without it, 401 for
 * a wrong token, keys with usage and quotas (never their hashes or secrets), create and revoke,
 * prober health, and the recent lists of every key.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SERVICES } from '../../src/accounts/key-config.js';
import { createAdminThrottle } from '../../src/http/admin-throttle.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { multipart } from '../helpers/multipart.js';

const TOKEN = 'operator-token-0123456789abcdef-0123456789';
const apps: TestApp[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
});
async function app(env: Record<string, string> = { MAILSURE_ADMIN_TOKEN: TOKEN }) {
  const t = await makeTestApp({ env });
  apps.push(t);
  return t;
}
const admin = (t: TestApp, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, token = TOKEN) =>
  t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

describe('the admin API', () => {
  it('does not exist without MAILSURE_ADMIN_TOKEN', async () => {
    const t = await app({});
    const res = await admin(t, 'GET', '/v5/admin/keys');
    expect(res.statusCode).toBe(404);
  });

  it('refuses a missing or wrong token with 401', async () => {
    const t = await app();
    for (const headers of [
      {},
      { authorization: 'Bearer nope' },
      { authorization: `Basic ${TOKEN}` },
      { authorization: `Bearer ${TOKEN}x` },
    ]) {
      const res = await t.app.inject({ url: '/v5/admin/keys', headers });
      expect(res.statusCode).toBe(401);
      expect(res.body).toBe('{"error_code":401,"error_msg":"Invalid admin token"}');
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    }
  });

  it('slows wrong tokens from one address (429 with Retry-After, even for the right token during the wait), not other addresses, and logs it once (issue 31)', async () => {
    let now = Date.parse('2026-11-28T00:00:00Z');
    const t = await makeTestApp({
      env: { MAILSURE_ADMIN_TOKEN: TOKEN },
      adminThrottle: (logger) => createAdminThrottle({ clock: { now: () => now }, logger }),
    });
    apps.push(t);
    const from = (remoteAddress: string, token: string) =>
      t.app.inject({ url: '/v5/admin/keys', remoteAddress, headers: { authorization: `Bearer ${token}` } });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await from('203.0.113.7', `guess-${i}`)).statusCode);
    // Five answered at once; the sixth starts a wait (1 s): within it, tries are not looked at.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
    // No token is no guess: plain 401, never counted nor slowed (the dashboard asks so whether the
    // operator view exists).
    const bare = () => t.app.inject({ url: '/v5/admin/health', remoteAddress: '203.0.113.7' });
    for (let i = 0; i < 3; i++) expect((await bare()).statusCode).toBe(401);
    const fresh = () => t.app.inject({ url: '/v5/admin/health', remoteAddress: '192.0.2.44' });
    for (let i = 0; i < 10; i++) expect((await fresh()).statusCode).toBe(401);
    expect((await from('192.0.2.44', TOKEN)).statusCode).toBe(200);
    const slowed = await from('203.0.113.7', TOKEN);
    expect(slowed.statusCode).toBe(429);
    expect(slowed.headers['retry-after']).toBe('1');
    expect(slowed.json()).toEqual({ error_code: 429, error_msg: 'Too many wrong admin tokens from this address: try again in 1 s' });
    expect((await from('198.51.100.1', TOKEN)).statusCode).toBe(200);
    // Slowed, not locked out: once the wait is over the right token gets in.
    now += 1_000;
    expect((await from('203.0.113.7', `guess-again`)).statusCode).toBe(401);
    expect((await from('203.0.113.7', TOKEN)).headers['retry-after']).toBe('2');
    now += 2_000;
    expect((await from('203.0.113.7', TOKEN)).statusCode).toBe(200);
    expect(t.logs.filter((line) => line.includes('admin token refused'))).toHaveLength(1);
  });

  it('lists keys with usage and quota, creates one, and revokes it', async () => {
    const t = await app();
    await t.key('acme', { services: 'verification,lists', quota: '1000' });
    const created = await admin(t, 'POST', '/v5/admin/keys', { name: 'new-client', services: 'verification', quota: '50' });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({ name: 'new-client', services: ['verification'], quota: 50, calls_used: 0, revoked_at: null });
    expect(typeof body.key).toBe('string');
    // The new key works at once.
    expect((await t.app.inject({ url: `/v5/ev?email=ann@example.com&api_key=${body.key}` })).statusCode).toBe(200);
    // Usage is what the meter has written (it writes every few seconds; here, now).
    await t.meter.flush();

    const listed = (await admin(t, 'GET', '/v5/admin/keys')).json() as { keys: Record<string, unknown>[] };
    expect(listed.keys.map((k) => k.name)).toEqual(['acme', 'new-client']);
    expect(listed.keys[0]).toMatchObject({ quota: 1000, rate: 500, record_rate: null, usage: { verification: 0 } });
    expect(listed.keys[1]).toMatchObject({ calls_used: 1, usage: { verification: 1 } });
    expect(JSON.stringify(listed)).not.toMatch(/keyHash|key_hash|webhook|"key":/);

    const duplicate = await admin(t, 'POST', '/v5/admin/keys', { name: 'new-client' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.body).toBe('{"error_code":409,"error_msg":"A key named new-client already exists"}');
    expect((await admin(t, 'POST', '/v5/admin/keys', { name: 'x', services: 'telepathy' })).json()).toMatchObject({
      error_code: 400,
      error_msg: expect.stringMatching(/^Invalid key: unknown service telepathy/),
    });
    expect((await admin(t, 'POST', '/v5/admin/keys', {})).json()).toEqual({ error_code: 400, error_msg: 'Invalid key: name is required' });
    expect((await admin(t, 'POST', '/v5/admin/keys', { name: 'y', record_rate: 0 })).json()).toEqual({
      error_code: 400,
      error_msg: 'Invalid key: record rate must be a whole number of records per second, at least 1, or none',
    });
    expect((await admin(t, 'POST', '/v5/admin/keys', { name: 'z', record_rate: [5] })).json()).toEqual({
      error_code: 400,
      error_msg: 'Invalid key: record_rate must be a string',
    });
    const capped = await admin(t, 'POST', '/v5/admin/keys', { name: 'capped', services: 'enrichment', record_rate: 2000 });
    expect(capped.json()).toMatchObject({ name: 'capped', rate: 500, record_rate: 2000, evidence: false });
    // The evidence permission: off unless asked for, and only a boolean.
    expect(
      (await admin(t, 'POST', '/v5/admin/keys', { name: 'explained', services: 'verification', evidence: true })).json(),
    ).toMatchObject({ name: 'explained', evidence: true });
    expect((await admin(t, 'POST', '/v5/admin/keys', { name: 'w', evidence: 'yes' })).json()).toEqual({
      error_code: 400,
      error_msg: 'Invalid key: evidence must be true or false',
    });

    const revoked = await admin(t, 'DELETE', '/v5/admin/keys/new-client');
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().revoked_at).toMatch(/^\d{4}-/);
    const nobody = await admin(t, 'DELETE', '/v5/admin/keys/nobody');
    expect(nobody.statusCode).toBe(404);
    expect(nobody.body).toBe('{"error_code":404,"error_msg":"No key has that name"}');
  });

  it('takes services as the array it answers with, or as a string, and names what is wrong with a bad one (issue 26)', async () => {
    const t = await app();
    const created = await admin(t, 'POST', '/v5/admin/keys', { name: 'from-array', services: ['verification', 'lists'] });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'from-array', services: ['verification', 'lists'] });
    // What the key resource answers can be sent back as it is.
    const again = await admin(t, 'POST', '/v5/admin/keys', { name: 'same-again', services: created.json().services });
    expect(again.json().services).toEqual(['verification', 'lists']);
    expect((await admin(t, 'POST', '/v5/admin/keys', { name: 'from-string', services: 'verification, lists' })).json().services).toEqual([
      'verification',
      'lists',
    ]);

    const refused = async (services: unknown) => {
      const res = await admin(t, 'POST', '/v5/admin/keys', { name: 'refused', services });
      return [res.statusCode, res.json()];
    };
    const known = `(known: ${SERVICES.join(', ')}, all)`;
    expect(await refused(['verification', 'telepathy'])).toEqual([
      400,
      { error_code: 400, error_msg: `Invalid key: unknown service telepathy ${known}` },
    ]);
    expect(await refused(['verification,lists'])).toEqual([
      400,
      { error_code: 400, error_msg: 'Invalid key: unknown service "verification,lists"' },
    ]);
    expect(await refused(['verification', ' '])).toEqual([400, { error_code: 400, error_msg: 'Invalid key: unknown service " "' }]);
    expect(await refused([])).toEqual([400, { error_code: 400, error_msg: 'Invalid key: services must name at least one service' }]);
    for (const wrong of [['verification', 1], [null], { verification: true }, true, 5]) {
      expect(await refused(wrong), JSON.stringify(wrong)).toEqual([
        400,
        { error_code: 400, error_msg: 'Invalid key: services must be an array of service names or a comma-separated string' },
      ]);
    }
    expect(await t.storage.keys.findByName('refused')).toBeUndefined();
  });

  it('takes fields as the array it answers with, or as a string', async () => {
    const t = await app();
    const created = await admin(t, 'POST', '/v5/admin/keys', { name: 'fields-array', services: ['enrichment'], fields: ['age', 'gender'] });
    expect([created.statusCode, created.json().fields]).toEqual([201, ['age', 'gender']]);
    const again = await admin(t, 'POST', '/v5/admin/keys', {
      name: 'fields-again',
      services: ['enrichment'],
      fields: created.json().fields,
    });
    expect(again.json().fields).toEqual(['age', 'gender']);
    const refused = async (fields: unknown) => {
      const res = await admin(t, 'POST', '/v5/admin/keys', { name: 'fields-refused', services: ['enrichment'], fields });
      return [res.statusCode, res.json()];
    };
    expect(await refused([])).toEqual([400, { error_code: 400, error_msg: 'Invalid key: fields must name at least one field' }]);
    expect(await refused(['age', 2])).toEqual([
      400,
      { error_code: 400, error_msg: 'Invalid key: fields must be an array of field names or a comma-separated string' },
    ]);
    expect(await refused(['age,gender'])).toEqual([400, { error_code: 400, error_msg: 'Invalid key: unknown field "age,gender"' }]);
    expect((await refused(['age', 'shoe_size']))[0]).toBe(400);
    expect(await t.storage.keys.findByName('fields-refused')).toBeUndefined();
  });

  it('shows prober health and the recent lists of every key, newest first', async () => {
    const t = await app();
    const a = (await t.key('a', { services: 'verification,lists' })).key;
    const b = (await t.key('b', { services: 'verification,lists' })).key;
    for (const k of [a, b]) {
      const { payload, headers } = multipart([{ name: 'file', filename: 'x.csv', content: 'email\nann@example.com\n' }]);
      expect(
        (await t.app.inject({ method: 'POST', url: '/v5/list?header=true', headers: { ...headers, api_key: k }, payload })).statusCode,
      ).toBe(202);
    }
    await t.lists.idle();
    const lists = (await admin(t, 'GET', '/v5/admin/lists')).json() as { lists: { key_name: string; status: string }[] };
    expect(lists.lists.map((l) => [l.key_name, l.status])).toEqual([
      ['b', 'Results'],
      ['a', 'Results'],
    ]);
    const health = (await admin(t, 'GET', '/v5/admin/health')).json();
    expect(health).toHaveProperty('mailbox_verification');
    expect(health).toHaveProperty('resolver.state');
    // Each egress by label and kind, nothing of its address.
    expect(health.smtp_egress_pool).toEqual([{ label: 'egress-1', way: 'direct', healthy: true }]);
  });
});
