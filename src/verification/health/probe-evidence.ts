/**
 * What real probes teach about our own egress and reputation, over a sliding window. Pure state
 * with the time passed in, so the rules are tested without waiting.
 *
 * - Egress breaker: connections that fail (refused, timed out, no banner) at MX hosts of at least
 *   `operators` unrelated operators (the registrable domains of the MX names: Google's many MX
 *   hosts are one operator), with no connection succeeding since, mean the way out is closed
 *   here, not at each of them. One domain refusing us is that domain's fact (code 420).
 * - Reputation: refusals whose text is about the client (our IP on a block list, our PTR, our
 *   HELO) counted per operator; several operators saying so means the fault is ours.
 */

export interface EgressObservation {
  /** Registrable domain of the MX host (its operator). */
  operator: string;
  connected: boolean;
  detail: string;
}

export interface ProbeEvidenceOptions {
  /** How far back failures count (default 2 minutes). */
  windowMs?: number;
  /** Distinct operators failing before the egress is judged blocked (default 3). */
  operators?: number;
  /** How far back refusals about us count (default 15 minutes). */
  reputationWindowMs?: number;
}

export interface EgressVerdict {
  blocked: boolean;
  /** Failing operators since the last success, newest first, for the evidence. */
  failures: { operator: string; detail: string }[];
}

/** A refusal that speaks of the sending host, not the recipient. */
const ABOUT_US = new RegExp(
  [
    'client host',
    'your (ip|address|host|server|mail server)',
    '(sender|sending|connecting|client) ip',
    "\\bip (you'?re|you are) using",
    // "IP … listed/blocked" about the sending IP; not "address": "recipient address blocked" is theirs.
    '\\b(ip|host|client)\\b[^\\n]{0,60}\\b(listed|blacklisted|blocklisted|blocked|banned)\\b',
    '\\blisted (on|in|at|by)\\b',
    'block ?list',
    'black ?list',
    'spamhaus|spamcop|barracuda|sorbs',
    '\\brbl\\b|dnsbl',
    'reverse (dns|lookup)',
    '\\bptr\\b|\\brdns\\b',
    '\\bhelo\\b|\\behlo\\b',
    'reputation',
  ].join('|'),
  'i',
);

export function refusalIsAboutUs(text: string): boolean {
  return ABOUT_US.test(text);
}

export class ProbeEvidence {
  private readonly windowMs: number;
  private readonly operators: number;
  private readonly reputationWindowMs: number;
  private lastSuccess = -Infinity;
  private failures: { at: number; operator: string; detail: string }[] = [];
  private refusals: { at: number; operator: string; text: string }[] = [];

  constructor(options: ProbeEvidenceOptions = {}) {
    this.windowMs = options.windowMs ?? 120_000;
    this.operators = options.operators ?? 3;
    this.reputationWindowMs = options.reputationWindowMs ?? 900_000;
  }

  recordConnection(observation: EgressObservation, now: number): void {
    if (observation.connected) {
      this.lastSuccess = now;
      this.failures = [];
      return;
    }
    this.failures.push({ at: now, operator: observation.operator, detail: observation.detail });
    this.prune(now);
  }

  /** A success seen by another path (the canary check). */
  recordSuccess(now: number): void {
    this.recordConnection({ operator: '', connected: true, detail: '' }, now);
  }

  recordRefusalAboutUs(operator: string, text: string, now: number): void {
    this.refusals.push({ at: now, operator, text: text.slice(0, 200) });
    this.prune(now);
  }

  lastSuccessAt(): number {
    return this.lastSuccess;
  }

  egress(now: number): EgressVerdict {
    this.prune(now);
    const byOperator = new Map<string, string>();
    for (const f of [...this.failures].reverse()) if (!byOperator.has(f.operator)) byOperator.set(f.operator, f.detail);
    const failures = [...byOperator].map(([operator, detail]) => ({ operator, detail }));
    return { blocked: byOperator.size >= this.operators, failures };
  }

  /** Refusals about us per operator in the window: the latest text of each. */
  reputation(now: number): { operator: string; text: string }[] {
    this.prune(now);
    const byOperator = new Map<string, string>();
    for (const r of this.refusals) byOperator.set(r.operator, r.text);
    return [...byOperator].map(([operator, text]) => ({ operator, text }));
  }

  private prune(now: number): void {
    if (this.failures.length > 0 && this.failures[0]!.at <= now - this.windowMs)
      this.failures = this.failures.filter((f) => f.at > now - this.windowMs);
    // Bounded whatever the traffic: the newest entries are the ones that matter.
    if (this.failures.length > 1000) this.failures = this.failures.slice(-500);
    if (this.refusals.length > 0 && this.refusals[0]!.at <= now - this.reputationWindowMs) {
      this.refusals = this.refusals.filter((r) => r.at > now - this.reputationWindowMs);
    }
    if (this.refusals.length > 1000) this.refusals = this.refusals.slice(-500);
  }
}
