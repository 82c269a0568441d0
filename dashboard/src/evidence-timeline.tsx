/** A verdict's evidence (`explain=true`) as a readable timeline: the rule that decided, the stages in order, then each MX host's conversation. */
import type { VerifyAnswer } from './api.js';

type Evidence = NonNullable<VerifyAnswer['evidence']>;
type Stage = Evidence['stages'][number];

const STAGES: Record<string, string> = {
  syntax: 'Syntax',
  typo: 'Typo',
  lists: 'Lists',
  'domain-name': 'Domain name',
  'prober-health': 'Prober health',
  dns: 'DNS',
  provider: 'Provider',
  'verdict-memory': 'Verdict memory',
  'catch-all': 'Catch-all',
  mailbox: 'Mailbox',
};

const ROLES: Record<string, string> = {
  'our-sender': 'our sender',
  address: 'the address',
  'catch-all-probe': 'catch-all probe (a random name)',
};

export function EvidenceTimeline({ evidence }: { evidence: Evidence }) {
  return (
    <section class="card evidence" aria-labelledby="evidence-title">
      <h2 id="evidence-title">Why</h2>
      <p data-rule={evidence.rule}>
        <strong>{evidence.rule_summary}</strong> <code>{evidence.rule}</code>
        <span class="hint"> — {evidence.rule_doc}</span>
      </p>
      {evidence.reason && <p class="reason">{evidence.reason}</p>}
      <ol class="timeline stages">
        {evidence.stages.map((stage, index) => (
          <li key={index} data-stage={stage.stage}>
            <span class="stage-name">{STAGES[stage.stage] ?? stage.stage}</span> {describeStage(stage)}
          </li>
        ))}
      </ol>
      {evidence.smtp.map((host, index) => (
        <div key={index} class="smtp-host">
          <h3>
            {host.host}
            <span class="hint">
              {' '}
              {[
                host.address,
                `egress ${host.egress}`,
                host.tls === undefined ? '' : host.tls ? 'TLS' : 'no TLS',
                host.attempt > 1 ? `attempt ${host.attempt}` : '',
                host.joined ? 'read from a concurrent probe' : '',
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
          </h3>
          <ol class="timeline transcript">
            {host.transcript.map((step, i) => (
              <li key={i} data-role={step.role ?? ''}>
                <span class="at">+{step.at_ms} ms</span>
                {step.command !== undefined && (
                  <span class="sent">
                    <code>{step.command}</code>
                    {step.role && <span class="role"> {ROLES[step.role] ?? step.role}</span>}
                  </span>
                )}
                {step.code !== undefined ? (
                  <span class={`reply reply-${String(step.code)[0]}xx`}>
                    <code>
                      {step.code}
                      {step.enhanced ? ` ${step.enhanced}` : ''} {step.text}
                    </code>
                    {step.took_ms !== undefined && <span class="hint"> {step.took_ms} ms</span>}
                  </span>
                ) : (
                  <span class="reply hint">no reply</span>
                )}
              </li>
            ))}
          </ol>
        </div>
      ))}
    </section>
  );
}

function describeStage(stage: Stage): string {
  switch (stage.stage) {
    case 'syntax':
      return stage.result === 'ok' ? 'well-formed' : `invalid: ${stage.reason ?? ''}`;
    case 'lists':
      return `on the ${stage.owner === 'key' ? "key's own" : 'shared'} ${stage.list} list (its ${stage.matched})`;
    case 'prober-health':
      return `resolver ${stage.resolver}, SMTP egress ${stage.smtp_egress}, identity ${stage.identity}`;
    case 'dns': {
      const mx = (stage.mx ?? []).map((m) => `${m.host} (preference ${m.preference})`).join(', ');
      const hosts = (stage.hosts ?? [])
        .map((h) => `${h.host}: ${h.answer === 'addresses' ? `${(h.addresses ?? []).join(', ')}, TTL ${h.ttl_seconds} s` : h.answer}`)
        .join('; ');
      return [stage.route, mx, hosts, stage.reason].filter(Boolean).join(' — ');
    }
    case 'provider':
      return `profile ${stage.profile}; a 250 to RCPT proves: ${stage.rcpt}`;
    case 'verdict-memory':
      return `remembered${stage.remembered_at ? ` at ${new Date(stage.remembered_at).toLocaleString('en')}` : ''}, rule ${stage.rule}`;
    case 'catch-all':
      return `known before: ${stage.known}${stage.learnt ? `; learnt: ${stage.learnt}` : ''}`;
    case 'mailbox':
      return `attempt ${stage.attempt}: ${stage.outcome}`;
    case 'typo':
      return `${stage.domain} is a large provider's domain misspelt`;
    default:
      return stage.result ?? '';
  }
}
