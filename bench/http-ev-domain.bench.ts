/**
 * /v5/ev at depth `domain` once the domains' DNS answers are cached (the common case in a burst
 * of traffic), against a bare Fastify route served the same way. DNS is the test world's real
 * server on loopback; after the warm-up every answer comes from the cache.
 */
import { compareWithBare, HEADERS_NOTE } from './http-ev.bench.js';
import type { BenchResult } from './types.js';

export default async function run(): Promise<BenchResult> {
  const best = await compareWithBare('domain', [
    'alice@mailbox-ok.com',
    'bob@mailbox-ok.com',
    'someone@accept-all.net',
    'x@no-such-domain.com',
    'info@a-only.com',
  ]);
  const ratio = best.ours / best.bare;
  return {
    title: '/v5/ev at depth domain, DNS answers cached, vs a bare Fastify route (HTTPS, same logger)',
    ours: { label: 'GET /v5/ev (domain, cached)', value: Math.round(best.ours), unit: 'req/s' },
    baseline: { label: 'bare Fastify GET route', value: Math.round(best.bare), unit: 'req/s' },
    ratio,
    goal: '≥ 0.6',
    met: ratio >= 0.6,
    notes:
      'autocannon, 32 connections, 3 alternating rounds of 5 s after a warm-up that fills the DNS cache; test-world DNS on loopback; ' +
      `best round of each. ${HEADERS_NOTE}`,
  };
}
