/**
 * What was said on one SMTP connection, for a verdict's evidence (issue 28): each command we
 * sent, paired with the reply that answered it (replies come in the order of the commands, RFC
 * 2920, so pairing holds under PIPELINING too), with timings from the moment the connection
 * opened. The server's greeting, and a reply nobody asked for (a closing 421), have no command.
 *
 * A session is shared by many calls (batch-prober.ts): `view` is what one call may see, the
 * session's own commands (greeting, EHLO, STARTTLS, MAIL FROM, RSET, QUIT) and only the RCPTs of
 * the recipients it names, never another call's. Kept in memory for the session's life only.
 * Every IP address in a reply's text is removed from a view: servers echo the connecting address
 * (Exim's `Hello … [192.0.2.1]`, a block list's `client [192.0.2.1] blocked`), and our egress's
 * address is never shown (the evidence names the egress by an opaque label).
 */
import { isIP } from 'node:net';
import type { SmtpReply } from './smtp-reply.js';

export type TranscriptRole = 'our-sender' | 'address' | 'catch-all-probe';

export interface TranscriptStep {
  /** The command as sent; absent for the greeting and for a reply nobody asked for. */
  command?: string;
  /** What the command is, when it names one of ours: our MAIL FROM, the address asked, the random catch-all local part. */
  role?: TranscriptRole;
  /** The reply; absent when none came (the deadline, a closed connection). */
  reply?: { code: number; enhanced?: string; text: string };
  /** Milliseconds from the connection's start to the command (or the unasked reply). */
  atMs: number;
  /** Milliseconds from the command to its reply. */
  tookMs?: number;
}

/** Where a probe's part of a shared transcript starts, and what its recipients are to it. */
export interface TranscriptView {
  /** The step from which the probe's transaction was written (`Transcript.mark()` then). */
  from: number;
  /** The recipients it may see: its address and its catch-all probe (the one it sent or read). */
  recipients: ReadonlyMap<string, Exclude<TranscriptRole, 'our-sender'>>;
}

const MAX_STEPS = 2_000;

export class Transcript {
  private readonly started = Date.now();
  private readonly steps: TranscriptStep[] = [];
  private readonly waiting: TranscriptStep[] = [];
  /** Steps before the first MAIL FROM: the greeting, EHLO, STARTTLS (every probe of the session sees them). */
  private greeting: number | undefined;

  sent(line: string): void {
    if (this.greeting === undefined && /^MAIL FROM:/i.test(line)) this.greeting = this.steps.length;
    const step: TranscriptStep = { command: line, atMs: Date.now() - this.started };
    this.waiting.push(step);
    if (this.steps.length < MAX_STEPS) this.steps.push(step);
  }

  received(reply: SmtpReply): void {
    const now = Date.now() - this.started;
    const answered = this.waiting.shift();
    const seen = { code: reply.code, ...(reply.enhanced ? { enhanced: reply.enhanced } : {}), text: reply.text };
    if (answered) {
      answered.reply = seen;
      answered.tookMs = now - answered.atMs;
    } else if (this.steps.length < MAX_STEPS) this.steps.push({ reply: seen, atMs: now });
  }

  /** Where the next command will go: a probe's view starts here. */
  mark(): number {
    return this.steps.length;
  }

  /** The greeting, then from `view.from` on: the session's own commands and the view's recipients' RCPTs, marked. */
  view(view: TranscriptView): TranscriptStep[] {
    const greeting = this.greeting ?? this.steps.length;
    const out: TranscriptStep[] = [];
    for (const [index, step] of this.steps.entries()) {
      if (index >= greeting && index < view.from) continue;
      const rcpt = step.command === undefined ? undefined : /^RCPT TO:<(.*)>/i.exec(step.command);
      if (rcpt) {
        const role = view.recipients.get(rcpt[1]!);
        if (role) out.push(withoutAddresses({ ...step, role }));
        continue;
      }
      out.push(
        step.command !== undefined && /^MAIL FROM:/i.test(step.command)
          ? withoutAddresses({ ...step, role: 'our-sender' })
          : withoutAddresses(step),
      );
    }
    return out;
  }
}

export const ADDRESS_REMOVED = '(address removed)';

function withoutAddresses(step: TranscriptStep): TranscriptStep {
  return step.reply ? { ...step, reply: { ...step.reply, text: removeAddresses(step.reply.text) } } : { ...step };
}

/** The text with every IPv4 and IPv6 address (bare, bracketed, `IPv6:`-tagged) replaced. */
export function removeAddresses(text: string): string {
  const unless = (candidate: string) => (isIP(candidate) ? ADDRESS_REMOVED : candidate);
  return text
    .replace(/(?<=IPv6:)[0-9A-Fa-f:.]+/g, unless)
    .replace(/(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,8}(?:[0-9A-Fa-f]{1,4}|\d{1,3}(?:\.\d{1,3}){3})?(?![\w:.])/g, unless)
    .replace(/(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w.])/g, unless);
}
