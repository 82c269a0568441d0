/**
 * SMTP replies off the wire: an incremental reader that assembles multi-line replies
 * (`250-…` continuations, RFC 5321 §4.2.1) under hard size limits, and the reply value itself.
 * Pure: bytes in, replies out; the socket lives in smtp-transport.ts.
 */

export interface SmtpReply {
  code: number;
  /** RFC 3463 enhanced status code (`5.1.1`), when the reply leads with one. */
  enhanced?: string;
  /** The text of every line, enhanced codes removed, joined by a space. */
  text: string;
  /** The text of each line as sent (EHLO keywords live one per line). */
  lines: string[];
}

export interface ReplyLimits {
  /** Longest line we hold (RFC 5321 allows 512 octets; real servers stay far below 8 KiB). */
  maxLineBytes: number;
  /** Largest reply, all lines together: a hostile server must not be able to exhaust memory. */
  maxReplyBytes: number;
}

export const DEFAULT_REPLY_LIMITS: ReplyLimits = { maxLineBytes: 8 * 1024, maxReplyBytes: 64 * 1024 };

const ENHANCED = /^([245])\.(\d{1,3})\.(\d{1,3})(?=\s|$)/;
const LINE = /^([1-5]\d\d)(?:([ -])(.*))?$/s;

/** The enhanced status code at the start of a reply text, if it is well-formed. */
export function leadingEnhancedCode(text: string): string | undefined {
  return ENHANCED.exec(text)?.[0];
}

export type ReadResult = { replies: SmtpReply[]; error?: undefined } | { replies: SmtpReply[]; error: string };

export class ReplyReader {
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private lines: { code: number; text: string }[] = [];
  private replyBytes = 0;

  constructor(private readonly limits: ReplyLimits = DEFAULT_REPLY_LIMITS) {}

  /** True while part of a reply (or of a line) is buffered: nothing may be pending at STARTTLS. */
  get pending(): boolean {
    return this.partialBytes > 0 || this.lines.length > 0;
  }

  /** Feed bytes; returns the replies they completed, or an error after which the reader is spent. */
  push(chunk: Buffer): ReadResult {
    const replies: SmtpReply[] = [];
    let start = 0;
    for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, start)) {
      this.partial.push(chunk.subarray(start, at));
      this.partialBytes += at - start;
      start = at + 1;
      if (this.partialBytes > this.limits.maxLineBytes)
        return { replies, error: `reply line longer than ${this.limits.maxLineBytes} bytes` };
      const raw = Buffer.concat(this.partial, this.partialBytes).toString('utf8').replace(/\r$/, '');
      this.replyBytes += this.partialBytes + 1;
      this.partial = [];
      this.partialBytes = 0;
      if (this.replyBytes > this.limits.maxReplyBytes) return { replies, error: `reply larger than ${this.limits.maxReplyBytes} bytes` };
      const outcome = this.line(raw);
      if (typeof outcome === 'string') return { replies, error: outcome };
      if (outcome) replies.push(outcome);
    }
    if (start < chunk.length) {
      this.partial.push(chunk.subarray(start));
      this.partialBytes += chunk.length - start;
      if (this.partialBytes > this.limits.maxLineBytes)
        return { replies, error: `reply line longer than ${this.limits.maxLineBytes} bytes` };
      if (this.replyBytes + this.partialBytes > this.limits.maxReplyBytes)
        return { replies, error: `reply larger than ${this.limits.maxReplyBytes} bytes` };
    }
    return { replies };
  }

  /** A finished reply, undefined for a continuation line, or an error message. */
  private line(raw: string): SmtpReply | undefined | string {
    const match = LINE.exec(raw);
    if (!match) return `malformed reply line: ${JSON.stringify(raw.slice(0, 80))}`;
    const code = Number(match[1]);
    const first = this.lines[0];
    // RFC 5321 §4.2.1: every line of a reply carries the same code; a server that mixes them is
    // broken or hostile, and a guess at which code counts could turn into a wrong verdict.
    if (first && first.code !== code) return `reply lines disagree on the code (${first.code} then ${code})`;
    this.lines.push({ code, text: match[3] ?? '' });
    if (match[2] === '-') return undefined;
    const reply = assemble(this.lines);
    this.lines = [];
    this.replyBytes = 0;
    return reply;
  }
}

function assemble(lines: { code: number; text: string }[]): SmtpReply {
  const code = lines[0]!.code;
  const enhanced = leadingEnhancedCode(lines[0]!.text);
  // Servers that use enhanced codes repeat them on every line (Gmail does); strip each copy.
  const texts = lines.map((line) => (enhanced && line.text.startsWith(enhanced) ? line.text.slice(enhanced.length) : line.text).trim());
  const text = texts.filter((part) => part.length > 0).join(' ');
  const raw = lines.map((line) => line.text);
  return enhanced ? { code, enhanced, text, lines: raw } : { code, text, lines: raw };
}

/** The extension keywords of an EHLO reply (every line after the greeting), upper-cased. */
export function ehloKeywords(reply: SmtpReply): Set<string> {
  return new Set(
    reply.lines
      .slice(1)
      .map((line) => line.trim().split(/\s+/)[0]!.toUpperCase())
      .filter((word) => word.length > 0),
  );
}
