/**
 * What a provider profile is: how one mail provider (or a security gateway in front of one)
 * answers RCPT probes and how hard it may be pushed. Profiles are data (profiles.ts); the code
 * that reads them is match-profile.ts (which profile) and judge-reply.ts (what a reply means).
 */

/**
 * What a 250 to RCPT TO can prove at this provider:
 * - `mailbox`: the server that holds the mailboxes answers. A 250 with a random local part refused
 *   proves the mailbox (50); the random one accepted too means the domain is catch-all (45).
 * - `refusals-only`: a security gateway answers for the real server. Its refusal of an unknown user
 *   (recipient validation against the customer's directory) is proof (400); its 250 is not: many
 *   tenants accept everyone and bounce later, and a directory sync can lag. Never 50, and no
 *   catch-all probe (a gateway accepting a random name says nothing about the domain behind it).
 * - `none`: accepts every recipient at RCPT time and bounces later: no probe at all (20).
 */
export type RcptEvidence = 'mailbox' | 'refusals-only' | 'none';

/**
 * One reply shape. Every field given must match: `code` the basic reply code, `enhanced` the RFC 3463
 * code (a full code `5.4.1`, or a class and subject prefix ending in a dot, `5.7.`), `text` the
 * reply text (enhanced code removed, lines joined by a space).
 */
export interface ReplyPattern {
  code?: number;
  enhanced?: string;
  text?: RegExp;
}

export interface ReplyMapping {
  /** Proof that the mailbox does not exist (→ 400). Only ever applied to a 5xx reply. */
  unknownUser: readonly ReplyPattern[];
  /** The provider refuses us, the prober (its IP, reputation): → 20, told to prober health, never invalid. */
  blocked: readonly ReplyPattern[];
  /** The provider asks us to slow down: → 20 without an immediate retry, never invalid. */
  slowDown: readonly ReplyPattern[];
}

export interface ProbeLimits {
  /** SMTP sessions open at once to one MX host. */
  sessionsPerHost: number;
  /** RCPT commands in one session (over its transactions). */
  rcptsPerSession: number;
  /** New connections per minute from one egress address to the provider (data only for now). */
  connectionsPerMinute: number;
}

export interface ProviderProfile {
  /** Stable identifier, for logs and metrics labels. */
  id: string;
  name: string;
  kind: 'mailbox-provider' | 'gateway' | 'default';
  /** Address domains served by the provider (exact names). */
  domains: readonly string[];
  /** MX hosts: each name matches itself and every host under it. */
  mxSuffixes: readonly string[];
  rcpt: RcptEvidence;
  limits: ProbeLimits;
  replies: ReplyMapping;
  /** Where each mapping and limit comes from: published bounce/NDR documentation first. */
  sources: readonly string[];
}
