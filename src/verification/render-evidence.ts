/**
 * A verdict's evidence as the API answers it (`evidence`, beside the verdict, with
 * `explain=true`): snake_case names, the rule's section in docs/verification.md, times as
 * milliseconds. The response schema (http/schemas/evidence.ts) is its allow-list.
 */
import type { Evidence, EvidenceStage } from './evidence.js';
import { RULES, ruleDoc } from './rules.js';

export function renderEvidence(evidence: Evidence) {
  return {
    rule: evidence.rule,
    rule_summary: RULES[evidence.rule].summary,
    rule_doc: ruleDoc(evidence.rule),
    ...(evidence.reason ? { reason: evidence.reason } : {}),
    stages: evidence.stages.map(renderStage),
    smtp: evidence.smtp.map((host) => ({
      host: host.host,
      ...(host.address ? { address: host.address } : {}),
      egress: host.egress,
      ...(host.tls !== undefined ? { tls: host.tls } : {}),
      attempt: host.attempt,
      ...(host.joined ? { joined: true } : {}),
      transcript: host.steps.map((step) => ({
        ...(step.command !== undefined ? { command: step.command } : {}),
        ...(step.role ? { role: step.role } : {}),
        ...(step.reply
          ? { code: step.reply.code, ...(step.reply.enhanced ? { enhanced: step.reply.enhanced } : {}), text: step.reply.text }
          : {}),
        at_ms: step.atMs,
        ...(step.tookMs !== undefined ? { took_ms: step.tookMs } : {}),
      })),
    })),
  };
}

export type EvidenceBody = ReturnType<typeof renderEvidence>;

function renderStage(stage: EvidenceStage): Record<string, unknown> {
  switch (stage.stage) {
    case 'prober-health':
      return { stage: stage.stage, resolver: stage.resolver, smtp_egress: stage.smtpEgress, identity: stage.identity };
    case 'dns':
      return {
        stage: stage.stage,
        route: stage.route,
        mx: stage.mx,
        hosts: stage.hosts.map((h) => ({
          host: h.host,
          answer: h.answer,
          ...(h.addresses ? { addresses: h.addresses } : {}),
          ...(h.ttlSeconds !== undefined ? { ttl_seconds: h.ttlSeconds } : {}),
        })),
        ...(stage.reason ? { reason: stage.reason } : {}),
      };
    case 'verdict-memory':
      return {
        stage: stage.stage,
        rule: stage.rule,
        ...(stage.rememberedAt !== undefined ? { remembered_at: new Date(stage.rememberedAt).toISOString() } : {}),
      };
    default:
      return { ...stage };
  }
}
