/**
 * The verification pipeline for one address (DESIGN "Verification"): syntax → client lists →
 * policy lists → domain facts → DNS → mailbox (a remembered verdict, or a probe) → catch-all,
 * stopping at the first stage that decides and at the operator's depth. Every stage's decision is a
 * pure function elsewhere (decide-*.ts, mailbox-stage.ts: a `Decision`, the rule and its code;
 * rules.ts says which file holds which rule); this file decides no code itself: it gathers facts,
 * asks prober health only when a decision rests on it, tells the evidence the rule that decided,
 * and keeps the whole verdict inside the caller's time budget.
 */
import { countingOutcomeEntries, type OutcomeEntry } from './policy/outcome-entries.js';
import type { Clock } from '../core/clock.js';
import type { VerifyDepth } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { maskAddress } from '../core/logger.js';
import type { ClientListEntry, ClientListStore } from './client-list-store.js';
import type { PolicyEntry, PolicyStore } from './policy/policy-store.js';
import { decideMailboxName, decideSyntaxDepth, decideTypo, SYSTEM_ERROR } from './decide-address.js';
import { decideDomainDepth, decideDomainType, decideProvider, decideResolver, decideTrusted, restsOnNegativeDns } from './decide-domain.js';
import { decideClientLists, decidePolicy, decidingPolicyEntry } from './decide-lists.js';
import {
  decideRefusalsTrusted,
  decideRemembered,
  decideShared,
  rememberedRule,
  restsOnConnectionRefusals,
  type CatchAllFact,
} from './decide-mailbox.js';
import { recordingDns, type EvidenceTrace } from './evidence.js';
import { syntaxRule, type Decision, type RuleId } from './rules.js';
import type { DnsClient } from './dns/mail-route.js';
import { classifyDomain, isDangerousMailbox } from './domain-facts/index.js';
import type { FactCache } from './fact-cache.js';
import { createDomainStage } from './domain-stage.js';
import { createListPresence } from './list-presence.js';
import type { ProberHealth } from './health/prober-health.js';
import { profileFor } from './providers/index.js';
import { runMailboxStage, withoutProbe, type MailboxResult } from './mailbox-stage.js';
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
  /**
   * The keys' bouncers and complainers learnt from their ESPs' outcomes (src/outcomes/): read with
   * the policy lists, a key's own entries (and corroborated shared ones) counting as 520 / 525.
   */
  outcomes?: { hasEntries(): Promise<boolean>; match(address: string, now: string): Promise<OutcomeEntry[]> };
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
  const presence = createListPresence(deps.policy, deps.clientLists, deps.clock, deps.listPresenceTtlMs, deps.outcomes);
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
      const misspelt = deps.misspeltLargeProvider?.(syntax.asciiDomain) === true;
      if (misspelt) {
        const typo = await typoOfLargeProvider(misspelt, base, local, syntax.asciiDomain, input, options, deadline).catch(
          (error: unknown) => {
            deps.logger?.error({ err: error, address: maskAddress(syntax.address) }, 'verification failed');
            return { verdict: failed(base, trace), rule: SYSTEM_ERROR.rule };
          },
        );
        if (typo) {
          trace?.stage({ stage: 'typo', domain: syntax.asciiDomain });
          trace?.decide(typo.rule);
          return typo.verdict;
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
        if (decided.fromOutcomes) verdict.fromOutcomes = true;
        if (deps.engagement && !deps.engagement.absent() && ENGAGED.has(statusesFor(verdict.code)[0])) {
          const score = await deps.engagement.score(`${local}@${syntax.asciiDomain}`);
          if (score !== undefined) verdict.engagementScore = score;
        }
        // Corrections only when asked and needed: an extra await per call is measurable here.
        return wantsCorrections(verdict, options) ? await withCorrections(verdict, input, options, deadline) : verdict;
      } catch (error) {
        deps.logger?.error({ err: error, address: maskAddress(syntax.address) }, 'verification failed');
        return failed(base, trace);
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
      return settle(client.decision, nameType(domain), trace);
    }
    // Read without an await when neither kind of list has anything (the hot path of most deployments).
    const entries =
      presence.peekPolicy() === false && (!options.key || presence.peekOutcomes() === false)
        ? NO_ENTRIES
        : await listEntries(address, domain, options);
    if (entries.length > 0) {
      const bouncers = options.key?.bouncers ?? false;
      const policy = decidePolicy(entries, bouncers);
      const deciding = decidingPolicyEntry(entries, bouncers);
      if (policy && deciding) {
        if (trace) explainPolicy(trace, deciding);
        const settled = settle(policy, nameType(domain), trace);
        // Imported entries come first and win a tie: only an entry nothing imported backs counts as learnt.
        return deciding.origin === 'outcome' ? { ...settled, fromOutcomes: true } : settled;
      }
    }

    const byName = nameType(domain);
    const disposable = decideDomainType(byName.domainType);
    if (disposable) {
      trace?.stage({ stage: 'domain-name', result: 'disposable' });
      return settle(disposable, byName, trace);
    }
    const dangerous = decideMailboxName(isDangerousMailbox(local));
    if (dangerous) {
      trace?.stage({ stage: 'domain-name', result: 'dangerous-mailbox' });
      return settle(dangerous, byName, trace);
    }
    const atSyntax = decideSyntaxDepth(deps.depth);
    if (atSyntax) return settle(atSyntax, byName, trace);

    const health = deps.health;
    if (trace && health) trace.health(health.state());
    const untrusted = decideResolver(health?.resolverFailed() ?? false);
    if (untrusted) return settle(untrusted, byName, trace);
    // Explained: asked afresh through a recording client (the DNS caches still answer).
    const facts = trace
      ? await domainStage.fresh(domain, deadline, recordingDns(deps.dns, trace))
      : (domainStage.peek(domain) ?? (await domainStage(domain, deadline)));
    const typed = facts.domainType ? { domainType: facts.domainType } : {};
    if (facts.decision) {
      // A negative answer counts only while our resolver is trusted: asked only then.
      const trusted = !health || !restsOnNegativeDns(facts.decision) || (await health.trustNegativeDns(deadline));
      return settle(decideTrusted(facts.decision, trusted), typed, trace);
    }
    const atDomain = decideDomainDepth(deps.depth);
    if (atDomain) return settle(atDomain, typed, trace);
    const profile = profileFor(domain, facts.mxHosts);
    trace?.stage({ stage: 'provider', profile: profile.id, rcpt: profile.rcpt });
    const acceptsAll = decideProvider(profile.rcpt);
    if (acceptsAll) return settle(acceptsAll, typed, trace);
    // Only now, with every list and DNS read afresh: a newly listed trap or a domain that lost its
    // MX is never hidden by a remembered 50. A domain since found to accept everyone is 45, below.
    const remembered = await deps.memory?.recall(address, options.key?.id);
    if (remembered !== undefined && (profile.rcpt !== 'mailbox' || (await deps.catchAll.get(domain)) !== 'yes')) {
      trace?.stage({
        stage: 'verdict-memory',
        rule: rememberedRule(remembered.code),
        ...(remembered.at !== undefined ? { rememberedAt: remembered.at } : {}),
      });
      return settle(decideRemembered(remembered.code), typed, trace);
    }
    if (health?.egressBlocked()) return settle(await withoutProbe(deps.catchAll, domain, profile), typed, trace);

    const probe = () =>
      runMailboxStage(
        {
          prober: deps.prober,
          catchAll: deps.catchAll,
          greylistRetryMs: deps.greylistRetryMs ?? 3_000,
          ...(deps.randomLocalPart ? { randomLocalPart: deps.randomLocalPart } : {}),
        },
        { recipient: address, asciiDomain: domain, hosts: facts.reachable, profile, ...(options.key ? { key: options.key.id } : {}) },
        deadline,
        trace,
      );
    const probed = deps.memory ? await deps.memory.probe(address, options.key?.id, deadline, probe) : await probe();
    // A concurrent probe of the same address answered (the memory's single flight): its code's rule.
    const mailbox: Decision = 'rule' in probed ? (probed as MailboxResult) : decideShared(probed);
    // Every MX refusing us counts only while our connections elsewhere go through: asked only then.
    const trusted = !health || !restsOnConnectionRefusals(mailbox) || (await health.trustConnectionRefusal(deadline));
    return settle(decideRefusalsTrusted(mailbox, trusted), typed, trace);
  }

  /** The shared policy lists' entries for the address or its domain, then the key's outcome entries (none when no list has any). */
  async function listEntries(address: string, domain: string, options: VerifyOptions): Promise<PolicyEntry[]> {
    const policy = (presence.peekPolicy() ?? (await presence.policy())) ? await deps.policy.match(address, domain) : NO_ENTRIES;
    const key = options.key;
    if (!deps.outcomes || !key || !(presence.peekOutcomes() ?? (await presence.outcomes()))) return policy;
    const learnt = countingOutcomeEntries(await deps.outcomes.match(address, new Date(deps.clock.now()).toISOString()), key.id);
    return learnt.length === 0 ? policy : [...policy, ...learnt];
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
    misspelt: boolean,
    base: { address: string; roleAccount: boolean },
    local: string,
    domain: string,
    input: string,
    options: VerifyOptions,
    deadline: number,
  ): Promise<{ verdict: Verdict; rule: RuleId } | undefined> {
    const typo = decideTypo(misspelt, (await clientListVerdict(local, domain, options)) !== undefined);
    if (!typo) return undefined;
    const verdict: Verdict = { address: base.address, code: typo.code, roleAccount: base.roleAccount, ...nameType(domain) };
    const answer = { verdict, rule: typo.rule };
    if (!options.key?.corrections) return answer;
    const reading = deps.suggestCorrections?.(input)[0];
    if (reading === undefined || reading.slice(reading.lastIndexOf('@') + 1) === domain) return answer;
    const budget = Math.min(deadline - deps.clock.now(), CORRECTION_BUDGET_MS);
    if (budget <= 0) return answer;
    const checked = await service.verify(reading, { timeoutMs: budget, key: { ...options.key, corrections: false } });
    if (validated(checked)) verdict.corrections = [checked.address];
    return answer;
  }

  /** The key's own exception or suppression for the address, if it has one, with the entry that decided. */
  async function clientListVerdict(
    local: string,
    domain: string,
    options: VerifyOptions,
  ): Promise<{ decision: Decision; entry: ClientListEntry } | undefined> {
    // Cached answers are read without an await: this runs for every call on the hot path.
    if (!options.key || !(presence.peekClient(options.key.id) ?? (await presence.client(options.key.id)))) return undefined;
    const entries = await deps.clientLists.match(options.key.id, `${local}@${domain}`, domain);
    const decided = decideClientLists(entries);
    return decided && { decision: decided, entry: entries[0]! };
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
      deps
        .suggestCorrections(input)
        .map((candidate) => service.verify(candidate, { timeoutMs: budget, key: { ...options.key!, corrections: false } })),
    );
    const offered = checked.filter(validated).map((c) => c.address);
    return offered.length > 0 ? { ...verdict, corrections: offered } : verdict;
  }
}

/** The key's own list that decided: its kind and whether the address or its domain matched (never the list's other entries). */
function explainClientList(trace: EvidenceTrace, entry: ClientListEntry): void {
  trace.stage({ stage: 'lists', owner: 'key', list: entry.kind, matched: entry.value.includes('@') ? 'address' : 'domain' });
}

function explainPolicy(trace: EvidenceTrace, entry: PolicyEntry): void {
  // An outcome entry is the key's own learning (or corroborated by sharing keys); imported lists are shared.
  trace.stage({
    stage: 'lists',
    owner: entry.origin === 'outcome' ? 'key' : 'shared',
    list: entry.kind,
    matched: entry.value.includes('@') ? 'address' : 'domain',
  });
}

/** A stage's decision, said to the evidence and kept with the domain's type. */
function settle(decision: Decision, typed: { domainType?: DomainType }, trace: EvidenceTrace | undefined): Partial {
  trace?.decide(decision.rule);
  return decision.limit ? { code: decision.code, limit: decision.limit, ...typed } : { code: decision.code, ...typed };
}

/** Our own failure: logged by the caller, answered 999. */
function failed(base: { address: string; roleAccount: boolean }, trace: EvidenceTrace | undefined): Verdict {
  trace?.decide(SYSTEM_ERROR.rule);
  return { ...base, code: SYSTEM_ERROR.code };
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
/** api-reference: engagement_score only for safetosend, valid and catchall. */
const ENGAGED = DELIVERABLE;
const CORRECTION_BUDGET_MS = 5_000;
const NO_ENTRIES: PolicyEntry[] = [];
const MAX_NAME_TYPES = 50_000;
