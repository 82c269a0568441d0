import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let key: string;

beforeEach(async () => {
  t = await makeTestApp();
  // Verification alone: corrections (tested with the test world) would add suggestions here.
  key = (await t.key('acme', { services: 'verification' })).key;
});
afterEach(() => t.close());

const ev = (query: string) => t.app.inject({ method: 'GET', url: `/v5/ev?${query}` });

describe('GET /v5/ev at depth syntax', () => {
  it('answers the acceptance example: john..doe@gmail.com is invalid 120', async () => {
    const res = await ev(`email=john..doe@gmail.com&api_key=${key}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ safe_to_send: { address: 'john..doe@gmail.com', status: 'invalid', status_code: 120 } });
  });

  it('gives 10 (valid; legacy unknown) for a well-formed address, standardized', async () => {
    const res = await ev(`email=Jane.Doe%40Example.COM&api_key=${key}`);
    expect(res.json()).toEqual({ safe_to_send: { address: 'jane.doe@example.com', status: 'valid', status_code: 10 } });
  });

  it('renders the legacy variant for a legacy key', async () => {
    const legacy = (await t.key('old', { variant: 'email_validation', services: 'verification' })).key;
    expect((await ev(`email=jane@example.com&api_key=${legacy}`)).json()).toEqual({
      email_validation: { address: 'jane@example.com', status: 'unknown', status_code: 10 },
    });
    expect((await ev(`email=john..doe@gmail.com&api_key=${legacy}`)).json()).toEqual({
      email_validation: { address: 'john..doe@gmail.com', status: 'invalid', status_code: 120 },
    });
  });

  it('flags role accounts', async () => {
    expect((await ev(`email=info@example.com&api_key=${key}`)).json()).toEqual({
      safe_to_send: { address: 'info@example.com', status: 'valid', status_code: 10, role_account: true },
    });
  });

  it('keeps a literal plus sign in the address', async () => {
    expect((await ev(`email=jane+news@example.com&api_key=${key}`)).json().safe_to_send.address).toBe('jane+news@example.com');
  });

  it.each([
    ['', 100],
    ['plainaddress', 150],
    ['a@b@example.com', 155],
    ['@example.com', 140],
    ['jane@', 145],
    ['%20jane@example.com', 210],
    ['jane@example.com.', 210],
    ['jane%20doe@example.com', 215],
    ['jane@exa_mple.com', 110],
    ['jane@-example.com', 115],
    ['jane@example.notatld', 200],
    ['ab@gmail.com', 125],
    ['jo(comment)hn@example.com', 110],
    [`${'a'.repeat(65)}@example.com`, 130],
  ])('echoes the invalid input %j as given with code %i, in both variants', async (email, code) => {
    const res = await ev(`email=${email}&api_key=${key}`);
    expect(res.statusCode).toBe(200);
    const body = res.json().safe_to_send;
    expect(body).toMatchObject({ address: decodeURIComponent(email), status: 'invalid', status_code: code });
    const legacy = (await t.key(`legacy-${code}-${email.length}`, { variant: 'email_validation' })).key;
    expect((await ev(`email=${email}&api_key=${legacy}`)).json().email_validation).toMatchObject({
      address: decodeURIComponent(email),
      status: 'invalid',
      status_code: code,
    });
  });

  it('classifies an oversized address as too long rather than failing', async () => {
    const res = await ev(`email=${'a'.repeat(5_000)}@example.com&api_key=${key}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().safe_to_send.status_code).toBe(130);
  });

  it('writes the JSON body on one line', async () => {
    const res = await ev(`email=info@example.com&api_key=${key}`);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).not.toContain('\n');
  });

  it('meters one verification per call', async () => {
    await ev(`email=jane@example.com&api_key=${key}`);
    await ev(`email=bad@@example.com&api_key=${key}`);
    await t.meter.flush();
    const record = await t.storage.keys.findByName('acme');
    expect(record?.callsUsed).toBe(2);
    expect((await t.storage.usage.totals(record!.id)).verification).toBe(2);
  });
});

describe('GET /v5/ev request errors', () => {
  it('requires the email parameter', async () => {
    const res = await ev(`api_key=${key}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error_code: 400, error_msg: 'Missing required parameter: email' });
  });

  it('refuses a repeated email parameter', async () => {
    const res = await ev(`email=a@example.com&email=b@example.com&api_key=${key}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error_code: 400, error_msg: 'Invalid parameter email: must be given once' });
  });

  it('refuses parameters that are not URL encoded', async () => {
    const res = await ev(`email=jane%ZZ@example.com&api_key=${key}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error_code: 400, error_msg: 'Parameters are not URL encoded' });
  });

  it.each(['0', '-1', 'abc', '', '1e3', 'NaN', 'Infinity', '10s', '0.0'])('refuses timeout=%j', async (timeout) => {
    const res = await ev(`email=jane@example.com&timeout=${timeout}&api_key=${key}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error_code: 400, error_msg: 'Invalid parameter timeout: must be a number of seconds greater than 0' });
  });

  it.each(['0.5', '10', '30', '45', '2.75'])('accepts timeout=%s (above 30 is capped)', async (timeout) => {
    expect((await ev(`email=jane@example.com&timeout=${timeout}&api_key=${key}`)).statusCode).toBe(200);
  });
});
