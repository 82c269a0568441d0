/**
 * The certificate port of sns.ts, over HTTPS: the one outbound call outcome ingestion makes.
 * Only an https URL on an Amazon SNS host is ever fetched (checked here again, whatever the
 * caller checked), redirects are refused (a redirect could lead anywhere), the answer is bounded
 * in size and time, and it must be a certificate issued to SNS. Certificates are few and long
 * lived, so each is kept for a day and fetched once however many messages arrive at once.
 */
import { X509Certificate } from 'node:crypto';
import { isSnsUrl, type SnsCertificates } from './sns.js';

export interface SnsCertificateSourceOptions {
  fetch?: typeof globalThis.fetch;
  /** How long a fetched certificate is used (a day). */
  ttlMs?: number;
  /** How long one fetch may take (5 s). */
  timeoutMs?: number;
  /** The largest answer read (64 KiB; a certificate is about 2). */
  maxBytes?: number;
  /** The clock the cache reads (Date.now). */
  now?: () => number;
}

/** The names Amazon SNS signing certificates are issued to. */
const SNS_NAMES = ['sns.amazonaws.com', 'sns.amazonaws.com.cn'];
const MAX_CACHED = 64;

export function snsCertificateSource(options: SnsCertificateSourceOptions = {}): SnsCertificates {
  const fetchUrl = options.fetch ?? globalThis.fetch;
  const ttlMs = options.ttlMs ?? 24 * 3600 * 1000;
  const timeoutMs = options.timeoutMs ?? 5000;
  const maxBytes = options.maxBytes ?? 64 * 1024;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { pem: Promise<string>; expires: number }>();

  async function load(url: string): Promise<string> {
    const response = await fetchUrl(url, { redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    if (response.status !== 200) throw new Error(`the SNS certificate URL answered ${response.status}`);
    const body = Buffer.from(await response.arrayBuffer());
    if (body.length > maxBytes) throw new Error(`the SNS certificate is larger than ${maxBytes} bytes`);
    const pem = body.toString('utf8');
    const certificate = new X509Certificate(pem);
    if (!SNS_NAMES.some((name) => certificate.checkHost(name) !== undefined))
      throw new Error('the certificate is not issued to Amazon SNS');
    const time = now();
    if (Date.parse(certificate.validFrom) > time || Date.parse(certificate.validTo) < time)
      throw new Error('the SNS certificate is not valid now');
    return pem;
  }

  return {
    fetchCertificate(url: string): Promise<string> {
      if (!isSnsUrl(url)) return Promise.reject(new Error('not an Amazon SNS certificate URL'));
      const time = now();
      const cached = cache.get(url);
      if (cached && cached.expires > time) return cached.pem;
      if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
      const pem = load(url);
      cache.set(url, { pem, expires: time + ttlMs });
      // A failed fetch is not kept: the next message asks again.
      pem.catch(() => cache.delete(url));
      return pem;
    },
  };
}
