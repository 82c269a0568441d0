/** The action of `mailsure verify` and how it prints a verdict and its evidence: a timeline, one line a step. */
import { MailsureClient, type VerifyAnswer, type VerifyEvidence } from '@mailsure/client';
import { connectionOf } from './lists/connection.js';
import { failureLine } from './lists/failure.js';
import { fail, print } from './output.js';
import type { VerifyFlags } from './verify.js';

export async function verify(address: string, flags: VerifyFlags): Promise<void> {
  const connection = connectionOf(flags, process.env);
  if ('problem' in connection) fail(connection.problem);
  const client = new MailsureClient(connection.options);
  try {
    const answer = await client.verify(address, {
      ...(flags.explain ? { explain: true } : {}),
      ...(flags.timeout ? { timeout: flags.timeout } : {}),
    });
    if (!answer.ok) fail(failureLine(answer.error));
    if (flags.json) return print(JSON.stringify(answer.value));
    print(verdictLines(answer.value).join('\n'));
    if (flags.explain) {
      if (answer.value.evidence) print(evidenceLines(answer.value.evidence).join('\n'));
      else print('no evidence: this key does not have the evidence permission (mailsure keys update KEY --evidence)');
    }
  } finally {
    client.close();
  }
}

export function verdictLines(answer: VerifyAnswer): string[] {
  const verdict = answer.safe_to_send ?? answer.email_validation;
  if (!verdict) return ['no verdict'];
  const extras = [verdict.domain_type && `domain type ${verdict.domain_type}`, verdict.role_account && 'role account'].filter(Boolean);
  return [`${verdict.address}: ${verdict.status} (${verdict.status_code})${extras.length ? `, ${extras.join(', ')}` : ''}`];
}

/** The evidence as a timeline: the rule first, then each stage, then each MX host's conversation. */
export function evidenceLines(evidence: VerifyEvidence): string[] {
  const lines = [`rule:   ${evidence.rule} — ${evidence.rule_summary}`, `        ${evidence.rule_doc}`];
  if (evidence.reason) lines.push(`reason: ${evidence.reason}`);
  lines.push('stages:');
  for (const stage of evidence.stages) lines.push(`  ${stageLine(stage)}`);
  for (const host of evidence.smtp) {
    const via = [
      host.address && `at ${host.address}`,
      `egress ${host.egress}`,
      host.tls !== undefined && (host.tls ? 'TLS' : 'no TLS'),
      host.attempt > 1 && `attempt ${host.attempt}`,
      host.joined && 'read from a concurrent probe of the same address',
    ];
    lines.push(`smtp ${host.host} (${via.filter(Boolean).join(', ')}):`);
    for (const step of host.transcript) {
      const at = `+${step.at_ms}ms`.padStart(8);
      if (step.command !== undefined) lines.push(`  ${at} > ${step.command}${step.role ? `   [${step.role}]` : ''}`);
      if (step.code !== undefined)
        lines.push(
          `  ${step.command !== undefined ? ' '.repeat(8) : at} < ${step.code}${step.enhanced ? ` ${step.enhanced}` : ''} ${step.text ?? ''}${step.took_ms !== undefined ? `   (${step.took_ms} ms)` : ''}`.trimEnd(),
        );
      else if (step.command !== undefined) lines.push(`  ${' '.repeat(8)} < (no reply)`);
    }
  }
  return lines;
}

function stageLine(stage: VerifyEvidence['stages'][number]): string {
  switch (stage.stage) {
    case 'syntax':
      return `syntax: ${stage.result}${stage.reason ? ` (${stage.reason})` : ''}`;
    case 'lists':
      return `lists: on the ${stage.owner === 'key' ? "key's" : 'shared'} ${stage.list} list (its ${stage.matched})`;
    case 'prober-health':
      return `prober health: resolver ${stage.resolver}, SMTP egress ${stage.smtp_egress}, identity ${stage.identity}`;
    case 'dns': {
      const mx = (stage.mx ?? []).map((m) => `${m.host} (${m.preference})`).join(', ');
      const hosts = (stage.hosts ?? [])
        .map((h) => `${h.host} ${h.answer === 'addresses' ? `${(h.addresses ?? []).join(' ')} ttl ${h.ttl_seconds}s` : h.answer}`)
        .join('; ');
      return `dns: ${stage.route}${mx ? ` → ${mx}` : ''}${hosts ? ` [${hosts}]` : ''}${stage.reason ? ` (${stage.reason})` : ''}`;
    }
    case 'provider':
      return `provider: ${stage.profile} (RCPT proves: ${stage.rcpt})`;
    case 'verdict-memory':
      return `verdict memory: remembered${stage.remembered_at ? ` at ${stage.remembered_at}` : ''}, rule ${stage.rule}`;
    case 'catch-all':
      return `catch-all: ${stage.known}${stage.learnt ? ` → learnt ${stage.learnt}` : ''}`;
    case 'mailbox':
      return `mailbox (attempt ${stage.attempt}): ${stage.outcome}`;
    case 'typo':
      return `typo: ${stage.domain} is a large provider's domain misspelt`;
    default:
      return `${stage.stage}: ${stage.result ?? ''}`.trimEnd();
  }
}
