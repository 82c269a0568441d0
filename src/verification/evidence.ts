/**
 * A verdict's evidence (issue 28, `explain=true`): the stages that decided, the DNS answers, our
 * prober's health at that moment, the provider profile, each MX host tried with this call's part
 * of the SMTP conversation, and the rule that decided (rules.ts). Gathered by the pipeline into
 * an `EvidenceTrace` only when a caller asks; the verdict itself is the same with or without it.
 *
 * Never in it: another call's recipient (transcript.ts shows a call only its own RCPTs), our
 * egress's address or credentials (an opaque label), the key's or anyone's list contents beyond
 * the one entry that matched.
 */
import { CODE, type StatusCode } from './codes.js';
import type { CatchAllFact } from './decide-mailbox.js';
import type { AddressAnswer, DnsClient, MailRoute } from './dns/mail-route.js';
import type { HealthLevel, ProberHealthState, VerdictLimit } from './health/health-state.js';
import type { RcptEvidence } from './providers/profile.js';
import { RULES, type RuleId } from './rules.js';
import type { ProbeRecord } from './smtp/prober.js';

export type EvidenceStage =
  | { stage: 'syntax'; result: 'ok' | 'invalid'; reason?: string }
  | { stage: 'typo'; domain: string }
  | { stage: 'lists'; owner: 'key' | 'shared'; list: string; matched: 'address' | 'domain' }
  | { stage: 'domain-name'; result: 'disposable' | 'dangerous-mailbox' }
  | { stage: 'prober-health'; resolver: HealthLevel; smtpEgress: HealthLevel; identity: HealthLevel }
  | { stage: 'dns'; route: MailRoute['kind']; mx: { host: string; preference: number }[]; hosts: DnsHostEvidence[]; reason?: string }
  | { stage: 'provider'; profile: string; rcpt: RcptEvidence }
  | { stage: 'verdict-memory'; rememberedAt?: number; rule: RuleId }
  | { stage: 'catch-all'; known: CatchAllFact; learnt?: CatchAllFact }
  | { stage: 'mailbox'; outcome: string; attempt: number };

export interface DnsHostEvidence {
  host: string;
  answer: AddressAnswer['kind'];
  addresses?: string[];
  /** The TTL the resolver gave (a cached answer keeps the one it came with). */
  ttlSeconds?: number;
}

export interface SmtpEvidence extends ProbeRecord {
  /** 1, or 2 for the one retry after a temporary reply (greylisting). */
  attempt: number;
}

export interface Evidence {
  rule: RuleId;
  /** One line: why the verdict is not proof either way (an unknown, a 20, a verdict our own network limited). */
  reason?: string;
  stages: EvidenceStage[];
  smtp: SmtpEvidence[];
}

/** Gathers one call's evidence as the pipeline runs. */
export class EvidenceTrace {
  readonly stages: EvidenceStage[] = [];
  readonly smtp: SmtpEvidence[] = [];
  rule: RuleId | undefined;
  private attempt = 1;

  stage(stage: EvidenceStage): void {
    this.stages.push(stage);
  }

  /** The rule that decided; the first one said wins (a correction checked later does not overwrite it). */
  decide(rule: RuleId): void {
    this.rule ??= rule;
  }

  health(state: ProberHealthState): void {
    this.stage({
      stage: 'prober-health',
      resolver: state.resolver.state,
      smtpEgress: state.smtp_egress.state,
      identity: state.identity.state,
    });
  }

  /** The recorder the prober is given (ProbeOptions.record). */
  readonly record = (record: ProbeRecord): void => {
    this.smtp.push({ ...record, attempt: this.attempt });
  };

  /** The probes after this are the retry's. */
  retrying(): void {
    this.attempt = 2;
  }

  mailbox(outcome: string): void {
    this.stage({ stage: 'mailbox', outcome, attempt: this.attempt });
  }

  /** The evidence for a verdict with this code and limit. */
  finish(code: StatusCode, limit: VerdictLimit | undefined): Evidence {
    const rule = this.rule ?? (code === CODE.systemError ? 'system.error' : 'syntax.general');
    const reason = limit ? LIMIT_REASONS[limit] : UNPROVEN.has(code) ? RULES[rule].summary : undefined;
    return { rule, ...(reason ? { reason } : {}), stages: this.stages, smtp: this.smtp };
  }
}

/** Codes that prove nothing either way about the mailbox: their evidence carries a one-line reason. */
const UNPROVEN: ReadonlySet<StatusCode> = new Set([CODE.timeout, CODE.syntaxOk, CODE.domainOk, CODE.systemError]);

const LIMIT_REASONS: Record<VerdictLimit, string> = {
  resolver: 'not verified: our DNS resolver is not trusted right now (prober health); ask again once it is fixed',
  'smtp-egress': 'mailbox not checked: our way out to port 25 failed or is blocked (prober health), not the domain',
  reputation: 'mailbox not checked: the provider refused us (our sender, name, address or reputation), not this address',
  throttled: 'mailbox not checked: the provider asked us to slow down, or its connection budget was spent; ask again later',
};

/** A DNS client that tells the trace every answer it gives (the domain stage's questions). */
export function recordingDns(dns: DnsClient, trace: EvidenceTrace): DnsClient {
  let stage: Extract<EvidenceStage, { stage: 'dns' }> | undefined;
  return {
    async mailRoute(domain, deadline) {
      const route = await dns.mailRoute(domain, deadline);
      stage = {
        stage: 'dns',
        route: route.kind,
        mx: 'hosts' in route ? route.hosts.map((h) => ({ host: h.name, preference: h.priority })) : [],
        hosts: [],
        ...(route.kind === 'unavailable' ? { reason: route.reason } : {}),
      };
      trace.stage(stage);
      return route;
    },
    async addresses(host, deadline) {
      const answer = await dns.addresses(host, deadline);
      stage?.hosts.push({
        host,
        answer: answer.kind,
        ...(answer.kind === 'addresses' ? { addresses: answer.addresses, ttlSeconds: answer.ttlSeconds } : {}),
      });
      return answer;
    },
    nameServers: (domain, deadline) => dns.nameServers(domain, deadline),
  };
}
