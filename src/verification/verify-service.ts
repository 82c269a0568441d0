/**
 * The verification pipeline for one address (DESIGN "Verification"): syntax → client lists →
 * policy lists → domain facts → DNS → mailbox (a remembered verdict, or a probe) → catch-all,
 * stopping at the first stage that decides and at the operator's depth. Every stage's decision is a pure function elsewhere; this
 * file gathers facts and keeps the whole verdict inside the caller's time budget.
 */
import type { Clock } from '../core/clock.js';
import type { VerifyDepth } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { maskAddress } from '../core/logger.js';
import type { ClientListEntry, ClientListStore } from './client-list-store.js';
import type { PolicyEntry, PolicyStore } from './policy/policy-store.js';
import { CODE, type StatusCode } from './codes.js';
import { decideClientLists, decidePolicy, decidingPolicyEntry } from './decide-lists.js';
import { mailboxRuleOf, recordingDns, type EvidenceTrace } from './evidence.js';
import { syntaxRule, type RuleId } from './rules.js';
import type { CatchAllFact } from './decide-mailbox.js';
import type { DnsClient } from './dns/mail-route.js';
import { classifyDomain, isDangerousMailbox } from './domain-facts/index.js';
import type { FactCache } from './fact-cache.js';
import { createDomainStage } from './domain-stage.js';
import { createListPresence } from './list-presence.js';
import type { ProberHealth } from './health/prober-health.js';
import { profileFor } from './providers/index.js';
import { knownWithoutProbe, runMailboxStage } from './mailbox-stage.js';
import { statusesFor } from './render.js';
import type { SmtpProber } from './smtp/prober.js';
import { classifySyntax } from './syntax.js';
import type { DomainType, Verdict } from './verdict.js';
import type { VerdictMemory } from './verdict-memory.js';

export interface VerifyDeps {
  depth: VerifyDepth;
  dns: DnsClient;
  prober: SmtpProber;
  catchAll: FactCache<CatchAllFact>;
  policy: PolicyStore;
  clientLists: ClientListStore;
  allowPrivateTargets: boolean;
  clock: Clock;
  logger?: Logger;
  greylistRetryMs?: number;
  /** Candidate fixes for an invalid input, best first (corrections module). */
  suggestCorrections?: (input: string) => string[];
  /** Whether a domain as typed is on the shipped list of the large providers' misspellings (`gmial.com`). */
  misspeltLargeProvider?: (domain: string) => boolean;
  randomLocalPart?: () => string;
  /** How long "this key has no list" is remembered (default 5 s). */
  listPresenceTtlMs?: number;
  /**
   * What the prober knows of its own network: negative verdicts a fault of ours could fake are
   * held back while it is in doubt. Absent, every answer is taken at its word.
   */
  health?: ProberHealth;
  /**
   * Definitive mailbox verdicts remembered per address (verdict-memory.ts): read at the mailbox
   * stage only, after every list and DNS; absent, every address is probed.
   */
  memory?: VerdictMemory;
  /** The 0–10 engagement score of an address from activity data; undefined when there is none. */
  engagement?: { score(address: string): Promise<number | undefined>; absent(): boolean };
}

export interface VerifyOptions {
  /** Upper bound for the whole verdict; past it the answer is code 5. */
  timeoutMs: number;
  /** The caller's key: its client lists, its bouncer feature, its corrections service. */
  key?: { id: number; bouncers: boolean; corrections: boolean };
  /** Gathers the evidence behind the verdict (`explain=true`); the verdict is the same without it. */
  evidence?: EvidenceTrace;
}

export interface VerifyService {
  verify(input: string, options: VerifyOptions): Promise<Verdict>;
}

type Partial = Omit<Verdict, 'address' | 'roleAccount'>;

export function createVerifyService(deps: VerifyDeps): VerifyService {
  const presence = createListPresence(deps.policy, deps.clientLists, deps.clock, deps.listPresenceTtlMs);
  const domainStage = createDomainStage(deps);
  const typeByName = new Map<string, { domainType?: DomainType }>();
  const service: VerifyService = {
    async verify(input, options) {
      const deadline = deps.clock.now() + options.timeoutMs;
      const syntax = classifySyntax(input);
      const trace = options.evidence;
      if (trace) {
        trace.stage(syntax.ok ? { stage: 'syntax', result: 'ok' } : { stage: 'syntax', result: 'invalid', reason: syntax.reason });
        if (!syntax.ok) trace.decide(syntaxRule(syntax.rule));
      }
      if (!syntax.ok) {
        const verdict: Verdict = { address: input, code: syntax.code, roleAccount: syntax.roleAccount };
        return wantsCorrections(verdict, options) ? withCorrections(verdict, input, options, deadline) : verdict;
      }
      const base = { address: syntax.address, roleAccount: syntax.roleAccount };
      const local = syntax.address.slice(0, syntax.address.lastIndexOf('@'));
      // A typo first (decisions §4): whatever list names `gmial.com`, the person meant gmail.com.
      // Only the key's own lists come before it (its exception, 55, wins).
      if (deps.misspeltLargeProvider?.(syntax.asciiDomain)) {
        const typo = await typoOfLargeProvider(base, local, syntax.asciiDomain, input, options, deadline).catch((error: unknown) => {
          deps.logger?.error({ err: error, address: maskAddress(syntax.address) }, 'verification failed');
          trace?.decide('system.error');
          return { ...base, code: CODE.systemError } satisfies Verdict;
        });
        if (typo) {
          trace?.stage({ stage: 'typo', domain: syntax.asciiDomain });
          trace?.decide('typo.large-provider');
          return typo;
        }
      }
      // No timer race here: every I/O stage (DNS, SMTP, the greylisting wait) takes the deadline
      // and ends with "no answer" when it passes, which the stages turn into code 5. A timer per
      // request measurably cost a third of the syntax path's throughput (docs/benchmarks.md).
      try {
        const decided = await decide(local, syntax.asciiDomain, options, deadline);
        // Built field by field: a spread makes an object shape of its own per combination.
        const verdict: Verdict = { address: base.address, code: decided.code, roleAccount: base.roleAccount };
        if (decided.domainType) verdict.domainType = decided.domainType;
        if (decided.limit) verdict.limit = decided.limit;
        if (deps.engagement && !deps.engagement.absent() && ENGAGED.has(statusesFor(verdict.code)[0])) {
          const score = await deps.engagement.score(`${local}@${syntax.asciiDomain}`);
          if (score !== undefined) verdict.engagementScore = score;
        }
        // Corrections only when asked and needed: an extra await per call is measurable here.
        return wantsCorrections(verdict, options) ? await withCorrections(verdict, input, options, deadline) : verdict;
      } catch (error) {
        deps.logger?.error({ err: error, address: maskAddress(syntax.address) }, 'verification failed');
        trace?.decide('system.error');
        return { ...base, code: CODE.systemError };
      }
    },
  };
  return service;

  async function decide(local: string, domain: string, options: VerifyOptions, deadline: number): Promise<Partial> {
    const address = `${local}@${domain}`;
    const trace = options.evidence;
    const client = await clientListVerdict(local, domain, options);
    if (client) {
      if (trace) explainClientList(trace, client.entry);
      return { code: client.code, ...nameType(domain) };
    }
    if (presence.peekPolicy() ?? (await presence.policy())) {
      const entries = await deps.policy.match(address, domain);
      const policy = decidePolicy(entries, options.key?.bouncers ?? false);
      if (policy) {
        if (trace) explainPolicy(trace, decidingPolicyEntry(entries, options.key?.bouncers ?? false)!);
        return { ...policy, ...nameType(domain) };
      }
    }

    const byName = nameType(domain);
    if (byName.domainType === 'disposable') {
      trace?.stage({ stage: 'domain-name', result: 'disposable' });
      trace?.decide('domain.disposable');
      return { code: CODE.trap, domainType: 'disposable' };
    }
    if (isDangerousMailbox(local)) {
      trace?.stage({ stage: 'domain-name', result: 'dangerous-mailbox' });
      trace?.decide('address.dangerous-mailbox');
      return { code: CODE.dangerousMailbox, ...byName };
    }
    if (deps.depth === 'syntax') {
      trace?.decide('syntax.ok');
      return { code: CODE.syntaxOk, ...byName };
    }

    const health = deps.health;
    if (trace && health) trace.health(health.state());
    // A resolver that lies or does not answer proves nothing either way: no lookups, no waiting.
    if (health?.resolverFailed()) {
      trace?.decide('dns.resolver-not-trusted');
      return { code: CODE.timeout, limit: 'resolver', ...byName };
    }
    // Explained: asked afresh through a recording client (the DNS caches still answer).
    const facts = trace ? await domainStage.fresh(domain, deadline, recordingDns(deps.dns, trace)) : (domainStage.peek(domain) ?? (await domainStage(domain, deadline)));
    const typed = facts.domainType ? { domainType: facts.domainType } : {};
    if (facts.code !== undefined) {
      if (health && NEGATIVE_DNS.has(facts.code) && !(await health.trustNegativeDns(deadline))) {
        trace?.decide('dns.resolver-not-trusted');
        return { code: CODE.timeout, limit: 'resolver', ...typed };
      }
      trace?.decide(domainRule(facts.code, trace));
      return { code: facts.code, ...typed };
    }
    if (deps.depth === 'domain') {
      trace?.decide('depth.domain');
      return { code: CODE.domainOk, ...typed };
    }
    // Providers that accept every recipient at RCPT time can only ever say "maybe": 20, never 50.
    const profile = profileFor(domain, facts.mxHosts);
    trace?.stage({ stage: 'provider', profile: profile.id, rcpt: profile.rcpt });
    if (profile.rcpt === 'none') {
      trace?.decide('provider.accepts-all');
      return { code: CODE.domainOk, ...typed };
    }
    // Only now, with every list and DNS read afresh: a newly listed trap or a domain that lost its
    // MX is never hidden by a remembered 50. A domain since found to accept everyone is 45, below.
    const remembered = await deps.memory?.recall(address, options.key?.id);
    if (remembered !== undefined && (profile.rcpt !== 'mailbox' || (await deps.catchAll.get(domain)) !== 'yes')) {
      if (trace) {
        trace.stage({ stage: 'verdict-memory', rule: mailboxRuleOf(remembered.code), ...(remembered.at !== undefined ? { rememberedAt: remembered.at } : {}) });
        trace.decide('memory.remembered');
      }
      return { code: remembered.code, ...typed };
    }
    // Port 25 is closed here: the answer is what DNS proved, at once, not after a time-out per address.
    if (health?.egressBlocked()) {
      // A cached catch-all fact counts only where it means something (not behind a gateway).
      const code = profile.rcpt === 'mailbox' ? await knownWithoutProbe(deps.catchAll, domain) : CODE.domainOk;
      trace?.decide('health.egress-blocked');
      return { code, limit: 'smtp-egress', ...typed };
    }

    const probe = () =>
      runMailboxStage(
        { prober: deps.prober, catchAll: deps.catchAll, greylistRetryMs: deps.greylistRetryMs ?? 3_000, ...(deps.randomLocalPart ? { randomLocalPart: deps.randomLocalPart } : {}) },
        { recipient: address, asciiDomain: domain, hosts: facts.reachable, profile },
        deadline,
        trace,
      );
    const mailbox = deps.memory ? await deps.memory.probe(address, options.key?.id, deadline, probe) : await probe();
    // Every MX refusing us is the domain's fact only while connections elsewhere go through.
    if (health && mailbox.code === CODE.refusesMail && !(await health.trustConnectionRefusal(deadline))) {
      trace?.decide('mailbox.refusals-not-trusted');
      return { code: CODE.domainOk, limit: 'smtp-egress', ...typed };
    }
    // A concurrent probe of the same address answered (the memory's single flight): its code's rule.
    trace?.decide('rule' in mailbox ? (mailbox.rule as RuleId) : mailboxRuleOf(mailbox.code));
    return mailbox.limit ? { code: mailbox.code, limit: mailbox.limit, ...typed } : { code: mailbox.code, ...typed };
  }

  /**
   * `caroline@gmial.com`, at a domain on the shipped list of the big providers' misspellings: 505
   * (domain not accepted) for every key, at any depth and whatever our prober's health, since the
   * misspelling is a fact about the input, not a network result. With corrections, the
   * corrections' first reading is offered when it is fully validated (`validated`); otherwise the
   * 505 goes without it. Undefined when the key's own lists name the address: its exception (55)
   * wins, and its suppression (255) is invalid all the same; the pipeline answers those.
   */
  async function typoOfLargeProvider(
    base: { address: string; roleAccount: boolean },
    local: string,
    domain: string,
    input: string,
    options: VerifyOptions,
    deadline: number,
  ): Promise<Verdict | undefined> {
    if (await clientListVerdict(local, domain, options)) return undefined;
    const verdict: Verdict = { address: base.address, code: CODE.domainRejected, roleAccount: base.roleAccount, ...nameType(domain) };
    if (!options.key?.corrections) return verdict;
    const reading = deps.suggestCorrections?.(input)[0];
    if (reading === undefined || reading.slice(reading.lastIndexOf('@') + 1) === domain) return verdict;
    const budget = Math.min(deadline - deps.clock.now(), CORRECTION_BUDGET_MS);
    if (budget <= 0) return verdict;
    const checked = await service.verify(reading, { timeoutMs: budget, key: { ...options.key, corrections: false } });
    if (validated(checked)) verdict.corrections = [checked.address];
    return verdict;
  }

  /** The key's own exception or suppression for the address, if it has one, with the entry that decided. */
  async function clientListVerdict(local: string, domain: string, options: VerifyOptions): Promise<{ code: StatusCode; entry: ClientListEntry } | undefined> {
    // Cached answers are read without an await: this runs for every call on the hot path.
    if (!options.key || !(presence.peekClient(options.key.id) ?? (await presence.client(options.key.id)))) return undefined;
    const entries = await deps.clientLists.match(options.key.id, `${local}@${domain}`, domain);
    const decided = decideClientLists(entries);
    return decided && { code: decided.code, entry: entries[0]! };
  }

  /** The type a domain's name alone gives, remembered per name (the lists behind it are fixed at start). */
  function nameType(domain: string): { domainType?: DomainType } {
    let typed = typeByName.get(domain);
    if (typed === undefined) {
      const type = classifyDomain({ domain, mxHosts: [], nsHosts: [], working: false });
      typed = type ? { domainType: type } : {};
      if (typeByName.size >= MAX_NAME_TYPES) typeByName.clear();
      typeByName.set(domain, typed);
    }
    return typed;
  }

  function wantsCorrections(verdict: Verdict, options: VerifyOptions): boolean {
    return options.key?.corrections === true && deps.suggestCorrections !== undefined && statusesFor(verdict.code)[0] === 'invalid';
  }

  /** Suggestions are verified in turn; only the deliverable ones are offered, on invalid verdicts only. */
  async function withCorrections(verdict: Verdict, input: string, options: VerifyOptions, deadline: number): Promise<Verdict> {
    if (!deps.suggestCorrections) return verdict;
    // In parallel, and each within at most CORRECTION_BUDGET_MS: a suggestion is a courtesy and
    // must not stretch the caller's answer towards its whole timeout.
    const budget = Math.min(deadline - deps.clock.now(), CORRECTION_BUDGET_MS);
    if (budget <= 0) return verdict;
    const checked = await Promise.all(
      deps.suggestCorrections(input).map((candidate) => service.verify(candidate, { timeoutMs: budget, key: { ...options.key!, corrections: false } })),
    );
    const offered = checked.filter(validated).map((c) => c.address);
    return offered.length > 0 ? { ...verdict, corrections: offered } : verdict;
  }
}

/** The key's own list that decided: its kind and whether the address or its domain matched (never the list's other entries). */
function explainClientList(trace: EvidenceTrace, entry: ClientListEntry): void {
  trace.stage({ stage: 'lists', owner: 'key', list: entry.kind, matched: entry.value.includes('@') ? 'address' : 'domain' });
  trace.decide(entry.kind === 'exception' ? 'list.client-exception' : 'list.client-suppression');
}

function explainPolicy(trace: EvidenceTrace, entry: PolicyEntry): void {
  trace.stage({ stage: 'lists', owner: 'shared', list: entry.kind, matched: entry.value.includes('@') ? 'address' : 'domain' });
  trace.decide(POLICY_RULES[entry.kind]);
}

const POLICY_RULES: Record<PolicyEntry['kind'], RuleId> = {
  trap: 'list.trap',
  complainer: 'list.complainer',
  optout: 'list.optout',
  do_not_email: 'list.do-not-email',
  bouncer: 'list.bouncer',
};

/** The rule behind a code the domain stage decided, read from the DNS answer the trace holds. */
function domainRule(code: StatusCode, trace: EvidenceTrace | undefined): RuleId {
  const dns = trace?.stages.find((stage) => stage.stage === 'dns');
  switch (code) {
    case CODE.domainMissing:
      return 'dns.nxdomain';
    case CODE.noMail:
      if (dns?.route === 'null-mx') return 'dns.null-mx';
      return dns?.route === 'no-mail' ? 'dns.no-mail-route' : 'dns.no-public-mx-address';
    case CODE.trap:
      return 'domain.disposable';
    default:
      return 'dns.unanswered';
  }
}

const DELIVERABLE = new Set(['safetosend', 'valid', 'catchall']);

/**
 * A suggestion is offered only "fully validated" (api-reference, `email_corrections`): deliverable,
 * and not a verdict that stopped short for a fault of ours (a resolver not trusted, port 25
 * blocked, our address refused), which proves nothing about the suggested address.
 */
function validated(checked: Verdict): boolean {
  return checked.limit === undefined && DELIVERABLE.has(statusesFor(checked.code)[0]);
}
/** Verdicts that rest on a negative DNS answer: a lying resolver fakes exactly these. */
const NEGATIVE_DNS: ReadonlySet<StatusCode> = new Set([CODE.domainMissing, CODE.noMail]);
/** api-reference: engagement_score only for safetosend, valid and catchall. */
const ENGAGED = DELIVERABLE;
const CORRECTION_BUDGET_MS = 5_000;
const MAX_NAME_TYPES = 50_000;
