/**
 * Every metric a process exposes, in one prom-client registry of its own (a test makes many apps
 * in one process; the global registry would mix them). Labels are bounded sets only: routes as
 * patterns, status codes, verdict codes, outcome kinds. Never an address, a key, a domain or a
 * list id: those would leak personal data and grow without bound.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route'>;
  verdicts: Counter<'code' | 'status' | 'depth'>;
  verdictLimits: Counter<'limit'>;
  dnsMailRoutes: Counter<'outcome'>;
  smtpProbes: Counter<'provider' | 'outcome'>;
  smtpThrottled: Counter<'provider'>;
  /** Connection-budget tokens taken, by provider profile and egress label (the budget used). */
  smtpBudgetTokens: Counter<'provider' | 'egress'>;
  /** 1 while an egress is in rotation, 0 while it is out, by egress label. */
  smtpEgressHealthy: Gauge<'egress'>;
  smtpReplies: Counter<'provider' | 'class'>;
  cacheLookups: Counter<'cache' | 'result'>;
  listRecords: Counter;
  listStateChanges: Counter<'status'>;
  listDuration: Histogram<'status'>;
  listCallbacks: Counter<'outcome'>;
  /** Scrape-time gauges; their sources are attached after the container is built. */
  lists: Gauge<'status'>;
  proberHealth: Gauge<'concern' | 'state'>;
  listQueueJobs: Gauge<'state'>;
  /** Outcome events received from ESPs, by source, kind and what classification does with them. */
  outcomeEvents: Counter<'source' | 'kind' | 'effect'>;
  /** Outcome webhooks refused, by source and status. */
  outcomeRefusals: Counter<'source' | 'status'>;
  /** The accuracy table (every key, the rolling window): outcomes after our verdicts, by verdict class and kind (read at scrape time). */
  outcomeAccuracy: Gauge<'class' | 'kind'>;
  /** Runs before every scrape: reads the scrape-time gauges' sources. */
  onScrape(refresh: () => Promise<void> | void): void;
  /** The exposition text, after every refresh (each refresh reports its own failure; the gauge keeps its last value). */
  render(): Promise<string>;
}

/** Seconds: an answer from cache (~1 ms) up to a mailbox probe against a slow server (30 s). */
const HTTP_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds from submission to a list's end: a small list in seconds, a million rows in hours. */
const LIST_BUCKETS = [1, 5, 15, 60, 300, 900, 3600, 4 * 3600, 12 * 3600, 24 * 3600];

export function createMetrics(): Metrics {
  const registry = new Registry();
  // prom-client's standard names (`process_*`, `nodejs_*`), not ours: stock Node.js dashboards
  // and alerts look for exactly these.
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const refreshers: (() => Promise<void> | void)[] = [];
  return {
    onScrape: (refresh) => void refreshers.push(refresh),
    async render() {
      await Promise.allSettled(refreshers.map(async (refresh) => refresh()));
      return registry.metrics();
    },
    registry,
    httpRequests: new Counter({
      name: 'mailsure_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code.',
      labelNames: ['method', 'route', 'status'],
      registers,
    }),
    httpDuration: new Histogram({
      name: 'mailsure_http_request_duration_seconds',
      help: 'Time from the request to the end of its answer, by method and route pattern.',
      labelNames: ['method', 'route'],
      buckets: HTTP_BUCKETS,
      registers,
    }),
    verdicts: new Counter({
      name: 'mailsure_verdicts_total',
      help: 'Verification verdicts (real-time and lists), by code, its status word and the configured depth.',
      labelNames: ['code', 'status', 'depth'],
      registers,
    }),
    verdictLimits: new Counter({
      name: 'mailsure_verdicts_limited_total',
      help: 'Verdicts held back by a fault of ours (resolver, smtp-egress, reputation).',
      labelNames: ['limit'],
      registers,
    }),
    dnsMailRoutes: new Counter({
      name: 'mailsure_dns_mail_routes_total',
      help: 'Mail-route lookups that reached the resolver, by outcome (mx, implicit, null-mx, nxdomain, no-mail, unavailable).',
      labelNames: ['outcome'],
      registers,
    }),
    smtpProbes: new Counter({
      name: 'mailsure_smtp_probes_total',
      help: 'SMTP probe sessions, by outcome (replies, refused, timeout, banner-reject, protocol-error, egress-failed, throttled).',
      labelNames: ['provider', 'outcome'],
      registers,
    }),
    smtpThrottled: new Counter({
      name: 'mailsure_smtp_throttled_total',
      help: 'SMTP probes ended unknown because the provider connection budget (per egress address) was spent past their deadline, by provider profile.',
      labelNames: ['provider'],
      registers,
    }),
    smtpBudgetTokens: new Counter({
      name: 'mailsure_smtp_budget_tokens_total',
      help: 'New SMTP connections the connection budget let through (one token each), by provider profile and egress label: the budget used per egress.',
      labelNames: ['provider', 'egress'],
      registers,
    }),
    smtpEgressHealthy: new Gauge({
      name: 'mailsure_smtp_egress_healthy',
      help: '1 while an SMTP egress is in rotation, 0 while it is out (its proxy or source address failed), by egress label.',
      labelNames: ['egress'],
      registers,
    }),
    smtpReplies: new Counter({
      name: 'mailsure_smtp_recipient_replies_total',
      help: 'Replies to RCPT TO, by class (accepted, no-mailbox, mailbox-full, policy, rejected-other, temporary).',
      labelNames: ['provider', 'class'],
      registers,
    }),
    cacheLookups: new Counter({
      name: 'mailsure_cache_lookups_total',
      help: 'Verification fact cache lookups, by cache (mx, address, ns, catch-all) and result (hit, miss).',
      labelNames: ['cache', 'result'],
      registers,
    }),
    listRecords: new Counter({
      name: 'mailsure_list_records_processed_total',
      help: 'List records processed by this process (committed chunks).',
      registers,
    }),
    listStateChanges: new Counter({
      name: 'mailsure_list_state_changes_total',
      help: 'Lists entering a status, by that status.',
      labelNames: ['status'],
      registers,
    }),
    listDuration: new Histogram({
      name: 'mailsure_list_duration_seconds',
      help: "Time from a list's submission to its end (Processed, Results, Cancelled, Invalid, Error), by end status.",
      labelNames: ['status'],
      buckets: LIST_BUCKETS,
      registers,
    }),
    listCallbacks: new Counter({
      name: 'mailsure_list_callbacks_total',
      help: 'List callback attempts, by outcome (delivered, failed).',
      labelNames: ['outcome'],
      registers,
    }),
    lists: new Gauge({
      name: 'mailsure_lists',
      help: 'Lists of every key in the database, by status (read at scrape time).',
      labelNames: ['status'],
      registers,
    }),
    listQueueJobs: new Gauge({
      name: 'mailsure_list_queue_jobs',
      help: "List jobs waiting and active: the shared queue with Redis, else this process's own (read at scrape time).",
      labelNames: ['state'],
      registers,
    }),
    outcomeEvents: new Counter({
      name: 'mailsure_outcome_events_total',
      help: 'Outcome events received from ESPs (repeats included), by source, kind and effect (add-bouncer, add-complainer, remove-outcome-entries, count-only).',
      labelNames: ['source', 'kind', 'effect'],
      registers,
    }),
    outcomeRefusals: new Counter({
      name: 'mailsure_outcome_refusals_total',
      help: 'Outcome webhooks refused (nothing stored), by source and status (400, 401, 413, 415, 422).',
      labelNames: ['source', 'status'],
      registers,
    }),
    outcomeAccuracy: new Gauge({
      name: 'mailsure_outcome_accuracy_events',
      help: 'Outcomes ESPs reported after our verdicts over the last 30 days, every key, by verdict class (50, 45, 20, 5, invalid, other) and outcome kind: the accuracy table (read at scrape time).',
      labelNames: ['class', 'kind'],
      registers,
    }),
    proberHealth: new Gauge({
      name: 'mailsure_prober_health',
      help: '1 for the current state of each prober-health concern (resolver, smtp_egress, identity), 0 for the others.',
      labelNames: ['concern', 'state'],
      registers,
    }),
  };
}
