/**
 * Prober health as operators read it: the JSON object `/readyz` carries, and the report
 * `mailsure doctor` prints (pass/warn/fail, evidence, fix hint).
 */
import { CONCERNS, mailboxVerificationAvailable, type Concern, type ConcernHealth, type HealthLevel, type ProberHealthState } from './health-state.js';

export interface ConcernBody {
  state: HealthLevel;
  evidence: string[];
  hint?: string;
  checked_at?: string;
}

export interface ProberHealthBody {
  /** `available` when mailbox (SMTP) verdicts can be given; otherwise why not. */
  mailbox_verification: 'available' | 'unavailable';
  resolver: ConcernBody;
  smtp_egress: ConcernBody;
  identity: ConcernBody;
}

export function renderHealthBody(state: ProberHealthState, mailboxDepth: boolean): ProberHealthBody {
  const body = (c: ConcernHealth): ConcernBody => ({
    state: c.state,
    evidence: c.evidence,
    ...(c.hint ? { hint: c.hint } : {}),
    ...(c.checkedAt !== undefined ? { checked_at: new Date(c.checkedAt).toISOString() } : {}),
  });
  return {
    mailbox_verification: mailboxDepth && mailboxVerificationAvailable(state) ? 'available' : 'unavailable',
    resolver: body(state.resolver),
    smtp_egress: body(state.smtp_egress),
    identity: body(state.identity),
  };
}

const LABEL: Record<Concern, string> = { resolver: 'resolver', smtp_egress: 'SMTP egress', identity: 'identity' };
const MARK: Record<HealthLevel, string> = { ok: 'PASS', degraded: 'WARN', unknown: 'WARN', failed: 'FAIL' };

/** The doctor's report, one block per concern, then the one line that matters most. */
export function renderDoctorReport(state: ProberHealthState, depth: string): string {
  const lines = [`Mailsure doctor (verification depth: ${depth})`, ''];
  for (const concern of CONCERNS) {
    const c = state[concern];
    lines.push(`${MARK[c.state]}  ${LABEL[concern]}: ${c.state}`);
    for (const e of c.evidence) lines.push(`      ${e}`);
    if (c.hint) lines.push(`      fix: ${c.hint}`);
    lines.push('');
  }
  lines.push(mailboxLine(state, depth));
  return lines.join('\n');
}

/** One line for the start banner and the doctor's conclusion. */
export function mailboxLine(state: ProberHealthState, depth: string): string {
  if (depth !== 'mailbox') return `Mailbox verification: off (MAILSURE_VERIFY_DEPTH=${depth})`;
  if (state.resolver.state === 'failed') return `Mailbox verification: unavailable, the resolver cannot be trusted: ${state.resolver.hint ?? ''}`.trim();
  if (state.smtp_egress.state === 'failed') return `Mailbox verification: unavailable, SMTP egress is blocked: ${state.smtp_egress.hint ?? ''}`.trim();
  const doubts = CONCERNS.filter((c) => state[c].state !== 'ok').map((c) => `${LABEL[c]} ${state[c].state}`);
  return doubts.length === 0 ? 'Mailbox verification: available' : `Mailbox verification: available (${doubts.join(', ')}; see mailsure doctor)`;
}

/**
 * The start banner's line on the ways out for probes: how many are healthy (this release has one,
 * `via`: the SOCKS5 proxy or `direct`). Healthy is the egress check's `ok`; a degraded or unknown
 * one is named as such, not counted healthy.
 */
export function egressLine(state: ProberHealthState, depth: string, via: string): string | undefined {
  if (depth !== 'mailbox') return undefined;
  const egress = state.smtp_egress.state;
  return `SMTP egresses: ${egress === 'ok' ? 1 : 0} of 1 healthy (${via}${egress === 'ok' ? '' : `: ${egress}`})`;
}

/** The doctor's exit status: non-zero when verdicts cannot be trusted at this depth. */
export function doctorExitCode(state: ProberHealthState, depth: string): number {
  if (depth === 'syntax') return 0;
  if (state.resolver.state === 'failed') return 1;
  if (depth === 'mailbox' && state.smtp_egress.state === 'failed') return 1;
  return 0;
}
