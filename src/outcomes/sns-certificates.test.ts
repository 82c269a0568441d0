import { generate } from 'selfsigned';
import { beforeAll, describe, expect, it } from 'vitest';
import { CERT_URL } from '../../test/fixtures/outcomes/sns-signing.js';
import { snsCertificateSource } from './sns-certificates.js';

let snsPem: string;
let otherPem: string;

beforeAll(async () => {
  snsPem = (await generate([{ name: 'commonName', value: 'sns.amazonaws.com' }], { keySize: 2048 })).cert;
  otherPem = (await generate([{ name: 'commonName', value: 'attacker.example' }], { keySize: 2048 })).cert;
});

/** A fetch that answers from a table and records what it was asked, with which options. */
function fakeFetch(answers: Record<string, { status?: number; body: string }>) {
  const asked: { url: string; init: RequestInit | undefined }[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    asked.push({ url, init });
    const answer = answers[url];
    if (!answer) throw new Error('network unreachable');
    return new Response(answer.body, { status: answer.status ?? 200 });
  }) as typeof globalThis.fetch;
  return { fetch, asked };
}

describe('snsCertificateSource', () => {
  it('fetches a certificate issued to SNS, refusing redirects, and keeps it for its time', async () => {
    const { fetch, asked } = fakeFetch({ [CERT_URL]: { body: snsPem } });
    let time = Date.now();
    const source = snsCertificateSource({ fetch, ttlMs: 60_000, now: () => time });
    expect(await source.fetchCertificate(CERT_URL)).toBe(snsPem);
    expect(await source.fetchCertificate(CERT_URL)).toBe(snsPem);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.init).toMatchObject({ redirect: 'error' });
    time += 60_001;
    await source.fetchCertificate(CERT_URL);
    expect(asked).toHaveLength(2);
  });

  it('fetches once for messages that arrive together', async () => {
    const { fetch, asked } = fakeFetch({ [CERT_URL]: { body: snsPem } });
    const source = snsCertificateSource({ fetch });
    await Promise.all([source.fetchCertificate(CERT_URL), source.fetchCertificate(CERT_URL), source.fetchCertificate(CERT_URL)]);
    expect(asked).toHaveLength(1);
  });

  it('never fetches a URL off the SNS hosts', async () => {
    const url = 'https://attacker.example/SimpleNotificationService-1.pem';
    const { fetch, asked } = fakeFetch({ [url]: { body: snsPem } });
    await expect(snsCertificateSource({ fetch }).fetchCertificate(url)).rejects.toThrow(/not an Amazon SNS certificate URL/);
    expect(asked).toEqual([]);
  });

  it.each([
    ['an error status', () => ({ status: 404, body: 'not found' }), /answered 404/],
    ['a certificate issued to someone else', () => ({ body: otherPem }), /not issued to Amazon SNS/],
    ['something that is not a certificate', () => ({ body: 'hello' }), /./],
    ['an answer too large', () => ({ body: `${snsPem}${' '.repeat(70_000)}` }), /larger than/],
  ])('refuses %s, and asks again next time', async (_name, answer, message) => {
    const { fetch, asked } = fakeFetch({ [CERT_URL]: answer() });
    const source = snsCertificateSource({ fetch });
    await expect(source.fetchCertificate(CERT_URL)).rejects.toThrow(message);
    await expect(source.fetchCertificate(CERT_URL)).rejects.toThrow(message);
    expect(asked).toHaveLength(2);
  });

  it('refuses a certificate outside its validity', async () => {
    const { fetch } = fakeFetch({ [CERT_URL]: { body: snsPem } });
    const source = snsCertificateSource({ fetch, now: () => Date.parse('2199-01-01T00:00:00Z') });
    await expect(source.fetchCertificate(CERT_URL)).rejects.toThrow(/not valid now/);
  });
});
