/**
 * Decorators that count what verification does without touching it: verdicts from the service,
 * sessions and replies from the prober, hits and misses from the fact caches, outcomes from DNS.
 * Only bounded labels (codes, kinds, classes, provider profile ids): never an address or a domain.
 */
import type { FactCache } from '../verification/fact-cache.js';
import type { MailRoute } from '../verification/dns/mail-route.js';
import { statusesFor } from '../verification/render.js';
import { profileForHost } from '../verification/providers/index.js';
import type { SmtpProber } from '../verification/smtp/prober.js';
import type { VerifyService } from '../verification/verify-service.js';
import type { Metrics } from './metrics.js';

export function observeVerdicts(inner: VerifyService, metrics: Metrics, depth: string): VerifyService {
  return {
    async verify(input, options) {
      const verdict = await inner.verify(input, options);
      metrics.verdicts.inc({ code: String(verdict.code), status: statusesFor(verdict.code)[0], depth });
      if (verdict.limit) metrics.verdictLimits.inc({ limit: verdict.limit });
      return verdict;
    },
  };
}

export function observeProbes(inner: SmtpProber, metrics: Metrics): SmtpProber {
  return {
    async probe(target, recipients, deadline, decisive) {
      const outcome = await inner.probe(target, recipients, deadline, decisive);
      // The provider profile the MX host belongs to: a bounded set of ids, never a host name.
      const provider = profileForHost(target.host).id;
      metrics.smtpProbes.inc({ provider, outcome: outcome.kind });
      const replies = outcome.kind === 'replies' ? outcome.replies : outcome.partial;
      for (const reply of replies?.values() ?? []) metrics.smtpReplies.inc({ provider, class: reply.class });
      return outcome;
    },
  };
}

export function observeCache<V>(inner: FactCache<V>, metrics: Metrics, cache: string): FactCache<V> {
  const hit = metrics.cacheLookups.labels({ cache, result: 'hit' });
  const miss = metrics.cacheLookups.labels({ cache, result: 'miss' });
  return {
    async get(key) {
      const value = await inner.get(key);
      (value === undefined ? miss : hit).inc();
      return value;
    },
    set: (key, value, ttlMs) => inner.set(key, value, ttlMs),
  };
}

export function countMailRoute(metrics: Metrics): (route: MailRoute) => void {
  return (route) => metrics.dnsMailRoutes.inc({ outcome: route.kind });
}
