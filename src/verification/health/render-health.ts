/**
 * Prober health as operators read it: the JSON object `/readyz` carries, and the report
 * `mailsure doctor` prints (pass/warn/fail, evidence, fix hint).
 */
import type { EgressStatus } from '../smtp/egress-pool.js';
import {
  CONCERNS,
  mailboxVerificationAvailable,
  type Concern,
  type ConcernHealth,
  type HealthLevel,
  type ProberHealthState,
} from './health-state.js';

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
  /** How many egresses of the pool are in rotation: a count only (no key is needed to read it). */
  smtp_egresses?: { healthy: number; total: number };
}

export function renderHealthBody(state: ProberHealthState, mailboxDepth: boolean, egresses?: readonly EgressStatus[]): ProberHealthBody {
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
    ...(mailboxDepth && egresses ? { smtp_egresses: { healthy: egresses.filter((e) => e.healthy).length, total: egresses.length } } : {}),
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
  if (state.resolver.state === 'failed')
    return `Mailbox verification: unavailable, the resolver cannot be trusted: ${state.resolver.hint ?? ''}`.trim();
  if (state.smtp_egress.state === 'failed')
    return `Mailbox verification: unavailable, SMTP egress is blocked: ${state.smtp_egress.hint ?? ''}`.trim();
  const doubts = CONCERNS.filter((c) => state[c].state !== 'ok').map((c) => `${LABEL[c]} ${state[c].state}`);
  return doubts.length === 0
    ? 'Mailbox verification: available'
    : `Mailbox verification: available (${doubts.join(', ')}; see mailsure doctor)`;
}

/**
 * The start banner's line on the ways out for probes: how many of the pool's egresses are healthy,
 * each by its label and kind (never its address). Healthy is in rotation while the egress check
 * says `ok`; with a degraded or unknown check none is counted healthy, and the state is named.
 */
export function egressLine(state: ProberHealthState, depth: string, egresses: readonly EgressStatus[]): string | undefined {
  if (depth !== 'mailbox') return undefined;
  const check = state.smtp_egress.state;
  const healthy = check === 'ok' ? egresses.filter((e) => e.healthy).length : 0;
  const each = egresses.map((e) => `${e.label} ${e.way}${e.healthy ? '' : ': out of rotation'}`).join(', ');
  return `SMTP egresses: ${healthy} of ${egresses.length} healthy (${each}${check === 'ok' ? '' : `; egress check ${check}`})`;
}

/** The doctor's lines on each egress: its label, kind, HELO name where its own, and health. */
export function renderEgresses(egresses: readonly (EgressStatus & { check?: ConcernHealth })[]): string {
  const lines = [
    `SMTP egresses: ${egresses.filter((e) => e.healthy && (e.check?.state ?? 'ok') === 'ok').length} of ${egresses.length} healthy`,
  ];
  for (const e of egresses) {
    const state = !e.healthy ? 'failed' : (e.check?.state ?? 'ok');
    lines.push(`${MARK[state]}  ${e.label} (${e.way}): ${!e.healthy ? `out of rotation: ${e.detail ?? ''}` : state}`);
    for (const line of e.check && e.check.state !== 'ok' ? e.check.evidence : []) lines.push(`      ${line}`);
  }
  return lines.join('\n');
}

/** The doctor's exit status: non-zero when verdicts cannot be trusted at this depth. */
export function doctorExitCode(state: ProberHealthState, depth: string): number {
  if (depth === 'syntax') return 0;
  if (state.resolver.state === 'failed') return 1;
  if (depth === 'mailbox' && state.smtp_egress.state === 'failed') return 1;
  return 0;
}
