/**
 * What each test SMTP server is, as data, and the pure decision of how it answers a RCPT.
 * Reply texts carry their RFC 3463 enhanced status code inline, the way most real MTAs write them
 * (smtp-server's own ENHANCEDSTATUSCODES mode would prefix a code derived from the basic reply
 * code alone, e.g. 5.1.1 for every 550, which cannot express a 550 5.7.1 policy block).
 */
import { domainToASCII } from 'node:url';
import { providerRcpt, type ProviderConnection, type ProviderSimName } from './provider-sims.js';

export type SmtpBehaviour =
  /** Known recipients 250, unknown 550 5.1.1. */
  | 'mailboxes'
  /** As `mailboxes`, with `fullMailboxes` answering 452 4.2.2 or 552 5.2.2. */
  | 'mailbox-full'
  /** Every RCPT 250 (catch-all, or a provider that never rejects at RCPT time). */
  | 'accept-all'
  /** Every RCPT 451 4.3.0. */
  | 'tempfail'
  /** First RCPT per (client, recipient) 450 4.7.1; a retry after `greylistMs` is judged as `mailboxes`. */
  | 'greylist'
  /** Every RCPT 550 5.7.1. */
  | 'policy-block'
  /** Every RCPT 554 5.7.1 naming the client's address as listed on a block list: a refusal of us. */
  | 'client-blocked'
  /** Nothing listens: connection refused. */
  | 'refuse'
  /** Accepts TCP and never says a word. */
  | 'tarpit'
  /** Banner after `bannerDelayMs`, then as `mailboxes`. */
  | 'slow-banner'
  /** 554 instead of a 220 banner, then closes. */
  | 'banner-reject'
  /** Hostile: a normal banner, then an endless multi-line reply to EHLO. */
  | 'huge-reply'
  /** A simulated large provider (`provider`): its own texts, its own blocks and throttles (provider-sims.ts). */
  | 'provider';

export interface SmtpServerSpec {
  /** A loopback address (127.0.0.0/8) of its own; every server shares the world's port. */
  address: string;
  behaviour: SmtpBehaviour;
  /** Known recipients, full addresses, compared case-insensitively. */
  mailboxes?: readonly string[];
  /** Recipients whose mailbox is full, with the reply variant. */
  fullMailboxes?: Record<string, 452 | 552>;
  /** Greylisting delay before a retry is judged (default 300 ms). */
  greylistMs?: number;
  /** Banner delay for `slow-banner` (default 1000 ms). */
  bannerDelayMs?: number;
  /** Advertise STARTTLS with a self-signed certificate. Off: STARTTLS is neither advertised nor accepted. */
  starttls?: boolean;
  /** Advertise SMTPUTF8 (default true). */
  smtputf8?: boolean;
  /** Which provider a `provider` server simulates. */
  provider?: ProviderSimName;
  /** Domains at which a `provider` server accepts every recipient (a gateway tenant without recipient validation). */
  acceptAllDomains?: readonly string[];
}

export interface RcptReply {
  code: number;
  /** Reply text, enhanced status code first. */
  message: string;
}

export interface RcptContext {
  clientAddress: string;
  now: number;
  /** (client, recipient) → first attempt time; owned by the server so `reset()` can clear it. */
  greylist: Map<string, number>;
  /** A `provider` server's view of this connection (its mode, past the throttle or not). */
  provider?: ProviderConnection;
}

export const REPLIES = {
  accepted: { code: 250, message: 'Accepted' },
  unknown: { code: 550, message: '5.1.1 user unknown' },
  full452: { code: 452, message: '4.2.2 mailbox full' },
  full552: { code: 552, message: '5.2.2 mailbox full' },
  tempfail: { code: 451, message: '4.3.0 temporary failure, try again later' },
  greylisted: { code: 450, message: '4.7.1 greylisted, try again later' },
  policy: { code: 550, message: '5.7.1 blocked by policy' },
  bannerReject: { code: 554, message: 'no SMTP service here' },
  clientBlocked: { code: 554, message: '5.7.1 Service unavailable; Client host [127.0.0.1] rejected: listed on zen.spamhaus.org' },
} as const satisfies Record<string, RcptReply>;

export const DEFAULT_GREYLIST_MS = 300;
export const DEFAULT_BANNER_DELAY_MS = 1000;

export function decideRcpt(spec: SmtpServerSpec, recipient: string, context: RcptContext): RcptReply {
  switch (spec.behaviour) {
    case 'accept-all':
      return REPLIES.accepted;
    case 'tempfail':
      return REPLIES.tempfail;
    case 'policy-block':
      return REPLIES.policy;
    case 'client-blocked':
      return REPLIES.clientBlocked;
    case 'provider': {
      if (!spec.provider || !context.provider) throw new Error('a provider server needs its provider and state');
      const domain = domainToASCII(recipient.slice(recipient.lastIndexOf('@') + 1).toLowerCase());
      const acceptAll = (spec.acceptAllDomains ?? []).includes(domain);
      return providerRcpt(spec.provider, context.provider, recipient, judgeMailbox(spec, recipient) === REPLIES.accepted, acceptAll);
    }
    case 'greylist': {
      const key = `${context.clientAddress}|${recipient.toLowerCase()}`;
      const first = context.greylist.get(key);
      if (first === undefined) context.greylist.set(key, context.now);
      if (first === undefined || context.now - first < (spec.greylistMs ?? DEFAULT_GREYLIST_MS)) return REPLIES.greylisted;
      return judgeMailbox(spec, recipient);
    }
    default:
      return judgeMailbox(spec, recipient);
  }
}

function judgeMailbox(spec: SmtpServerSpec, recipient: string): RcptReply {
  const wanted = mailboxKey(recipient);
  const full = Object.entries(spec.fullMailboxes ?? {}).find(([address]) => mailboxKey(address) === wanted)?.[1];
  if (full === 452) return REPLIES.full452;
  if (full === 552) return REPLIES.full552;
  const known = mailboxKeys(spec.mailboxes ?? []).has(wanted);
  return known ? REPLIES.accepted : REPLIES.unknown;
}

/** Each server's mailboxes as keys, built once: a bench world holds thousands per server and asks it 100,000 times. */
const keyed = new WeakMap<readonly string[], { length: number; keys: Set<string> }>();

function mailboxKeys(mailboxes: readonly string[]): Set<string> {
  const known = keyed.get(mailboxes);
  // Worlds are built by pushing onto the list: one that grew since is keyed again.
  if (known?.length === mailboxes.length) return known.keys;
  const keys = new Set(mailboxes.map(mailboxKey));
  keyed.set(mailboxes, { length: mailboxes.length, keys });
  return keys;
}

/** smtp-server hands over IDN domains decoded to Unicode; compare in A-label form. */
function mailboxKey(address: string): string {
  const at = address.lastIndexOf('@');
  return `${address.slice(0, at).toLowerCase()}@${domainToASCII(address.slice(at + 1).toLowerCase())}`;
}
