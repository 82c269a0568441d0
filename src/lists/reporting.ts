/**
 * A service's `reporting` object (api-reference "List resource"), from counters that merge.
 *
 * Counts are a flat `{key: n}` map: a chunk's counts are computed once, stored beside the
 * chunk's checkpoint, and the list's report is the sum of its chunks' counts — so a list resumed
 * after a crash counts each chunk exactly once, whatever was counted before it stopped.
 */
import { CODE } from '../verification/codes.js';
import type { VerdictLimit } from '../verification/health/health-state.js';
import type { DomainType } from '../verification/verdict.js';
import { invalidCategory, type InvalidCategory, type ValidationOutcome } from './validation-outcome.js';

export type Counts = Record<string, number>;

export function addCounts(...all: Counts[]): Counts {
  const sum: Counts = {};
  for (const counts of all) for (const [key, n] of Object.entries(counts)) sum[key] = (sum[key] ?? 0) + n;
  return sum;
}

const bump = (counts: Counts, key: string) => void (counts[key] = (counts[key] ?? 0) + 1);
const get = (counts: Counts, key: string) => counts[key] ?? 0;

// ---- email_validation

const STATUS_KEYS = [
  ['corrected', 'Corrected'],
  ['unknown', 'Unknown'],
  ['valid', 'Valid'],
  ['risky', 'Risky'],
  ['unverifiable', 'Unverifiable'],
  ['invalid', 'Invalid'],
] as const;
const CATEGORIES: InvalidCategory[] = ['Syntax Errors', 'Domain Errors', 'Mailbox Errors', 'Suppressions'];
const DOMAIN_KEYS: [DomainType | undefined, string][] = [
  ['disposable', 'Disposable'],
  ['freeisp', 'Free ISP'],
  ['paidisp', 'Paid ISP'],
  ['wireless', 'Wireless'],
  ['edu', 'Education'],
  ['gov', 'Government'],
  ['biz', 'Business'],
  ['org', 'Non-profit'],
  ['parked', 'Parked'],
  ['privacy', 'Privacy'],
  [undefined, 'Unknown'],
];

export interface EmailValidationReport {
  statuses: Record<(typeof STATUS_KEYS)[number][1], number>;
  invalid_categories: Record<InvalidCategory, number>;
  domain_type: Record<string, number>;
  role_accounts: number;
  status_codes: Record<string, number>;
  trap_hits?: { 'Trap Hits': number };
  /**
   * Present when some verdicts stopped short because of the verifier's own network (its resolver
   * could not be trusted, its port 25 was blocked, providers refused the verifier itself): those
   * records are `unknown`, never `invalid`, and are worth verifying again once it is fixed.
   */
  verification_limited?: Record<string, number>;
  /**
   * Present when some of the list's 520 (known bouncer) and 525 (known complainer) hits came from
   * the key's ingested ESP outcomes rather than an imported list (docs/outcomes.md): how many. The
   * hits themselves are in `status_codes` (and `trap_hits`) as ever.
   */
  outcome_hits?: { 'Outcome Hits': number; 'Known Bouncers': number; 'Known Complainers': number };
}

export function countValidation(outcomes: Iterable<ValidationOutcome>): Counts {
  // Outcomes repeat (a chunk holds a few dozen distinct ones): grouped by a number first, then
  // counted once per group, instead of building four key strings per record.
  const counts: Counts = {};
  const groups = new Map<number, { outcome: ValidationOutcome; n: number }>();
  for (const o of outcomes) {
    const key =
      ((((o.code * 8 + (STATUS_INDEX.get(o.status) ?? 7)) * 16 + (DOMAIN_INDEX.get(o.domainType) ?? 15)) * 2 + (o.roleAccount ? 1 : 0)) *
        8 +
        (LIMIT_INDEX.get(o.limit) ?? 0)) *
        2 +
      (o.fromOutcomes ? 1 : 0);
    const group = groups.get(key);
    if (!group) groups.set(key, { outcome: o, n: 1 });
    // Same key, same outcome as far as counting goes, unless a status or type is one we do not list.
    else if (group.outcome.status === o.status && group.outcome.domainType === o.domainType && group.outcome.limit === o.limit)
      group.n += 1;
    else countOne(counts, o, 1);
  }
  for (const { outcome, n } of groups.values()) countOne(counts, outcome, n);
  return counts;
}

const STATUS_INDEX = new Map<string, number>(STATUS_KEYS.map(([s], i) => [s, i]));
const LIMIT_INDEX = new Map<VerdictLimit | undefined, number>([
  [undefined, 0],
  ['resolver', 1],
  ['smtp-egress', 2],
  ['reputation', 3],
  ['throttled', 4],
]);
/** The report's words for each limit (`verification_limited`). */
const LIMIT_KEYS: [VerdictLimit, string][] = [
  ['resolver', 'Resolver Not Trusted'],
  ['smtp-egress', 'SMTP Egress Blocked'],
  ['reputation', 'Prober Refused'],
  ['throttled', 'Provider Throttled'],
];
const DOMAIN_INDEX = new Map<DomainType | undefined, number>(DOMAIN_KEYS.map(([t], i) => [t, i]));

function countOne(counts: Counts, o: ValidationOutcome, n: number): void {
  add(counts, `status:${o.status}`, n);
  add(counts, `code:${o.code}`, n);
  add(counts, `domain:${o.domainType ?? ''}`, n);
  if (o.roleAccount) add(counts, 'role', n);
  const category = o.status === 'invalid' ? invalidCategory(o.code) : undefined;
  if (category) add(counts, `category:${category}`, n);
  if (o.code === CODE.trap) add(counts, 'trap', n);
  if (o.limit) add(counts, `limit:${o.limit}`, n);
  if (o.fromOutcomes) add(counts, `outcome:${o.code}`, n);
}

/** Records whose verdict stopped short because of the prober's own network. */
export function limitedRecords(counts: Counts): number {
  return LIMIT_KEYS.reduce((n, [limit]) => n + get(counts, `limit:${limit}`), 0);
}

const add = (counts: Counts, key: string, n: number) => void (counts[key] = (counts[key] ?? 0) + n);

/** Every status, category and domain-type key appears (0 when none); codes only when seen. */
export function validationReport(counts: Counts): EmailValidationReport {
  const statuses = Object.fromEntries(STATUS_KEYS.map(([s, key]) => [key, get(counts, `status:${s}`)]));
  const categories = Object.fromEntries(CATEGORIES.map((c) => [c, get(counts, `category:${c}`)]));
  const domains = Object.fromEntries(DOMAIN_KEYS.map(([t, key]) => [key, get(counts, `domain:${t ?? ''}`)]));
  const codes = Object.entries(counts)
    .filter(([key, n]) => key.startsWith('code:') && n > 0)
    .map(([key, n]) => [key.slice(5), n] as const)
    .sort((a, b) => Number(a[0]) - Number(b[0]));
  const report: EmailValidationReport = {
    statuses: statuses as EmailValidationReport['statuses'],
    invalid_categories: categories as EmailValidationReport['invalid_categories'],
    domain_type: domains,
    role_accounts: get(counts, 'role'),
    status_codes: Object.fromEntries(codes),
  };
  const traps = get(counts, 'trap');
  if (traps > 0) report.trap_hits = { 'Trap Hits': traps };
  const limited = limitedRecords(counts);
  if (limited > 0) {
    report.verification_limited = {
      'Limited Records': limited,
      ...Object.fromEntries(LIMIT_KEYS.map(([limit, key]) => [key, get(counts, `limit:${limit}`)])),
    };
  }
  const bouncers = get(counts, `outcome:${CODE.bouncer}`);
  const complainers = get(counts, `outcome:${CODE.trap}`);
  if (bouncers + complainers > 0)
    report.outcome_hits = { 'Outcome Hits': bouncers + complainers, 'Known Bouncers': bouncers, 'Known Complainers': complainers };
  return report;
}

// ---- email_append

export type AppendMatchType = 'Individual' | 'Household';

export interface EmailAppendReport {
  email_match_type: { 'Individual match': number; 'Household match': number };
}

/** One entry per record: its match type, or undefined for no match. */
export function countAppend(matches: Iterable<AppendMatchType | undefined>): Counts {
  const counts: Counts = {};
  for (const m of matches) if (m) bump(counts, `match:${m}`);
  return counts;
}

export function appendReport(counts: Counts): EmailAppendReport {
  return {
    email_match_type: {
      'Individual match': get(counts, 'match:Individual'),
      'Household match': get(counts, 'match:Household'),
    },
  };
}

// ---- email_intelligence

export type EmailIntelligenceReport = Record<string, { 'Total Count': number }>;

/** One entry per record: the names of the fields that record matched. */
export function countIntelligence(matchedFields: Iterable<readonly string[]>): Counts {
  const counts: Counts = {};
  for (const fields of matchedFields) for (const field of new Set(fields)) bump(counts, `field:${field}`);
  return counts;
}

/**
 * "One key per matched field": fields no record matched are left out. Keys follow `order` (the
 * key's configured fields) when given, then any others by name.
 */
export function intelligenceReport(counts: Counts, order: readonly string[] = []): EmailIntelligenceReport {
  const rank = new Map(order.map((field, i) => [field, i]));
  const fields = Object.entries(counts)
    .filter(([key, n]) => key.startsWith('field:') && n > 0)
    .map(([key, n]) => [key.slice(6), n] as const)
    .sort(([a], [b]) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity) || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(fields.map(([field, n]) => [field, { 'Total Count': n }]));
}
