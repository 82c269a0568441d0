/**
 * The provider profiles: one row per large mail provider or security gateway, chosen by the
 * address domain or the MX host names (match-profile.ts). Data only: a new provider is a new row
 * (docs/verification.md, "Provider profiles"). Each row cites where its reply mapping comes from;
 * reply texts are matched as the providers publish them or as their bounces quote them.
 *
 * Limits are Mailsure's own conservative starting values: no provider publishes a per-client
 * figure for RCPT probes. They feed the per-host session limit, the RCPTs per session and (later)
 * the per-egress throttle.
 */
import type { ProbeLimits, ProviderProfile, ReplyMapping } from './profile.js';

const NO_REPLIES: ReplyMapping = { unknownUser: [], blocked: [], slowDown: [] };

export const DEFAULT_LIMITS: ProbeLimits = { sessionsPerHost: 2, rcptsPerSession: 50, connectionsPerMinute: 30 };
const GATEWAY_LIMITS: ProbeLimits = { sessionsPerHost: 2, rcptsPerSession: 25, connectionsPerMinute: 10 };

/** Outlook.com and Microsoft 365 both answer through Exchange Online Protection. */
const EXCHANGE_ONLINE: ReplyMapping = {
  unknownUser: [
    // Directory-Based Edge Blocking: on by default for an Authoritative accepted domain, it
    // refuses addresses absent from the tenant's directory with exactly this reply.
    { code: 550, enhanced: '5.4.1', text: /recipient address rejected: access denied/i },
    { code: 550, enhanced: '5.1.10', text: /recipient ?not ?found/i },
    // Outlook.com: "Requested action not taken: mailbox unavailable (S2017062302)".
    { code: 550, enhanced: '5.5.0', text: /mailbox unavailable/i },
  ],
  blocked: [
    // 5.7.606-649 "Access denied, banned sending IP [x]", 5.7.708 "traffic not accepted from this
    // IP", 5.7.511 "banned sender", S3150 "part of their network is on our block list",
    // "Client host [x] blocked using Spamhaus".
    { enhanced: '5.7.', text: /\bIP\b|banned|block ?list|blocked using|spamhaus|reputation/i },
  ],
  slowDown: [
    // 451 4.7.500-699 "Server busy. Please try again later from [x]" (IP throttling), 421 4.7.650
    // "temporarily rate limited due to IP reputation".
    { enhanced: '4.7.', text: /server busy|rate limited|try again later/i },
    // 421 4.3.2 "The maximum number of concurrent connections … has exceeded a limit".
    { enhanced: '4.3.2' },
  ],
};

const GOOGLE: ReplyMapping = {
  unknownUser: [
    { code: 550, enhanced: '5.1.1', text: /does not exist|NoSuchUser/i },
    // "The email account that you tried to reach is disabled": the address takes no mail.
    { code: 550, enhanced: '5.2.1', text: /account that you tried to reach is disabled|DisabledUser/i },
  ],
  blocked: [
    // "421 4.7.0 IP not in whitelist for RCPT domain": a Workspace tenant that takes only its own relays.
    { enhanced: '4.7.0', text: /not in (the )?whitelist|not in (the )?allowlist/i },
    // "550 5.7.1 The IP you're using to send mail is not authorized to send email directly to our
    // servers", and blocks over the sending IP's reputation.
    { enhanced: '5.7.', text: /\bIP\b|reputation|unsolicited/i },
  ],
  slowDown: [
    // "421 4.7.0 Try again later, closing connection", "421 4.7.0 … unusual rate of unsolicited
    // mail originating from your IP address … temporarily rate limited", 421 4.7.28 (the same since 2024).
    { code: 421, enhanced: '4.7.0' },
    { enhanced: '4.7.28' },
    // "450 4.2.1 The user you are trying to contact is receiving mail at a rate that prevents
    // additional messages from being delivered."
    { code: 450, enhanced: '4.2.1' },
    // "421 4.4.5 Server busy, try again later."
    { code: 421, enhanced: '4.4.5' },
  ],
};

const YAHOO: ReplyMapping = {
  // Yahoo refuses unknown users only after DATA ("554 delivery error: dd This user doesn't have a
  // yahoo.com account"), which a probe never sends: nothing at RCPT is proof.
  unknownUser: [],
  blocked: [
    // "553 5.7.1 [BL21] Connections will not be accepted from x, because the ip is in Spamhaus's
    // list", "[TS03] / [TSS09] All messages from x will be permanently deferred".
    { text: /\[BL\d+\]|permanently deferred/i },
  ],
  slowDown: [
    // "421 4.7.0 [TSS04] Messages from x temporarily deferred due to unexpected volume or user complaints".
    { text: /\[TSS?\d+\]|temporarily deferred/i },
  ],
};

const ICLOUD: ReplyMapping = {
  unknownUser: [{ code: 550, enhanced: '5.1.1', text: /does not exist/i }],
  blocked: [
    // "550 5.7.1 [CS01] Message rejected due to local policy" (Cloudmark scoring of the sender),
    // "550 5.7.0 Blocked - see …proofpoint… dnsbl-lookup".
    { enhanced: '5.7.', text: /\[CS\d+\]|local policy|\bblocked\b/i },
  ],
  slowDown: [
    // "421 4.7.1 Messages to x deferred due to excessive volume", "451 4.7.1 Service unavailable - try
    // again later", "421 4.7.0 Error: too many errors".
    { enhanced: '4.7.', text: /excessive volume|try again later|too many/i },
  ],
};

const MIMECAST: ReplyMapping = {
  // Mimecast sends no enhanced codes: "550 Invalid Recipient - …DOC-1369#550" when recipient
  // validation finds no such address in the customer's directory.
  unknownUser: [{ code: 550, text: /invalid recipient/i }],
  blocked: [
    // "550 csi.mimecast.org Poor Reputation Sender", "550 IP found on RBL", "421 Sender address
    // blocked", "550 Envelope blocked - User Entry".
    { text: /poor reputation|found on (an? )?rbl|sender address blocked|envelope blocked/i },
  ],
  slowDown: [
    // "451 Internal resources are temporarily unavailable" (greylisting or a reputation hold),
    // "421 Unable to process connection at this time" (the Mimecast server is at its load limit).
    { text: /internal resources? (are |is )?temporarily unavailable|unable to process connection/i },
  ],
};

const PROOFPOINT: ReplyMapping = {
  unknownUser: [
    { code: 550, enhanced: '5.1.1', text: /user unknown|no such user/i },
    // Proofpoint Essentials, SMTP Discovery: "550 5.7.1 Recipient address rejected: User email
    // address is marked as invalid" (a 5.7 that is about the recipient, not about us).
    { code: 550, text: /email address is marked as invalid/i },
  ],
  blocked: [
    // "554 Blocked - see https://ipcheck.proofpoint.com/?ip=x", "550 5.7.0 Mail from x refused by
    // Proofpoint Reputation Services", "… dnsbl-lookup".
    { text: /ipcheck\.proofpoint|proofpoint reputation|dnsbl-lookup|\bblocked - see\b/i },
  ],
  // Proofpoint's MTA is sendmail: "421 4.3.2 Connection rate limit exceeded.", "421 4.3.2 Too many open connections."
  slowDown: [{ text: /too many (open |concurrent )?(smtp )?(connections|sessions|messages)|rate limit|slow down/i }],
};

const BARRACUDA: ReplyMapping = {
  // "550 No such user (x)", "550 cuda_nsu 5.1.1 <x>: Recipient address rejected: User unknown"
  // (recipient verification by LDAP or by asking the mail server behind).
  unknownUser: [{ code: 550, text: /no such user|user unknown/i }],
  blocked: [
    // "554 Service unavailable; Client host [x] blocked using Barracuda Reputation; …barracudacentral…"
    { text: /barracuda reputation|barracudacentral|client host \S+ blocked/i },
  ],
  // Rate control: Barracuda documents a 421 once a sender IP exceeds the customer's messages per
  // 30 minutes; the text varies by release.
  slowDown: [{ code: 421, text: /rate|too many/i }],
};

export const DEFAULT_PROFILE: ProviderProfile = {
  id: 'default',
  name: 'Any other server',
  kind: 'default',
  domains: [],
  mxSuffixes: [],
  rcpt: 'mailbox',
  limits: DEFAULT_LIMITS,
  replies: NO_REPLIES,
  sources: ['RFC 5321 and RFC 3463 only (smtp/reply-class.ts)'],
};

export const PROFILES: readonly ProviderProfile[] = [
  {
    id: 'yahoo',
    name: 'Yahoo / AOL',
    kind: 'mailbox-provider',
    // Plus every yahoo.<public suffix>: see match-profile.ts.
    domains: ['ymail.com', 'rocketmail.com', 'aol.com', 'aim.com', 'aol.co.uk', 'aol.fr', 'aol.de'],
    // mta5.am0.yahoodns.net, mx-aol.mail.gm0.yahoodns.net, mx-biz.mail.am0.yahoodns.net; mx.aol.com (legacy AOL)
    mxSuffixes: ['yahoodns.net', 'mx.aol.com'],
    rcpt: 'none',
    limits: { sessionsPerHost: 1, rcptsPerSession: 20, connectionsPerMinute: 10 },
    replies: YAHOO,
    sources: [
      'Yahoo Sender Hub "SMTP error codes" (4xx: unusual traffic, complaints, busy servers; TS/TSS deferrals; BL codes)',
      'Yahoo Help "Receiving 421 4.7.1 [TS03] … permanently deferred"',
      "AOL moved onto Yahoo's mail platform (MX at yahoodns.net); partner ISPs whose MX is at yahoodns.net answer alike",
    ],
  },
  {
    id: 'google',
    name: 'Gmail / Google Workspace',
    kind: 'mailbox-provider',
    domains: ['gmail.com', 'googlemail.com'],
    // gmail-smtp-in.l.google.com, aspmx.l.google.com, alt1.aspmx.l.google.com, smtp.google.com, aspmx2.googlemail.com
    mxSuffixes: ['google.com', 'googlemail.com'],
    rcpt: 'mailbox',
    limits: { sessionsPerHost: 3, rcptsPerSession: 50, connectionsPerMinute: 20 },
    replies: GOOGLE,
    sources: [
      'Google Workspace Admin Help "Gmail SMTP errors and codes" (421 4.7.0, 421 4.4.5, 450 4.2.1, 550 5.1.1, 550 5.2.1, 550 5.7.1)',
      'Google Workspace Admin Help "About SMTP error messages"',
      'Gmail bulk sender guidelines (421 4.7.28 rate limiting)',
    ],
  },
  {
    id: 'outlook-com',
    name: 'Outlook.com',
    kind: 'mailbox-provider',
    domains: ['outlook.com', 'hotmail.com', 'live.com', 'msn.com'],
    mxSuffixes: ['olc.protection.outlook.com'],
    rcpt: 'mailbox',
    limits: { sessionsPerHost: 2, rcptsPerSession: 50, connectionsPerMinute: 20 },
    replies: EXCHANGE_ONLINE,
    sources: [
      'Microsoft Learn "Email non-delivery reports and SMTP errors in Exchange Online"',
      'Outlook.com postmaster: S3150 block-list refusals, 421 4.7.650 rate limiting',
    ],
  },
  {
    id: 'microsoft-365',
    name: 'Microsoft 365',
    kind: 'mailbox-provider',
    domains: [],
    // <tenant>.mail.protection.outlook.com; <tenant>.<region>-v1.mx.microsoft (DNSSEC-signed MX)
    mxSuffixes: ['mail.protection.outlook.com', 'mx.microsoft'],
    // A tenant whose domain is Internal Relay accepts everyone: the catch-all probe shows it (45).
    rcpt: 'mailbox',
    limits: { sessionsPerHost: 2, rcptsPerSession: 50, connectionsPerMinute: 20 },
    replies: EXCHANGE_ONLINE,
    sources: [
      'Microsoft Learn "Use Directory-Based Edge Blocking to reject messages sent to invalid recipients" (550 5.4.1 Recipient address rejected: Access denied)',
      'Microsoft Learn "Fix email delivery issues for error codes 5.7.600 through 5.7.699" and "5.7.700 through 5.7.750"',
      'Microsoft Learn "Fix email delivery issues for error code 451 4.7.500-699 (ASxxx)" (IP throttling)',
      'Microsoft Learn "Email non-delivery reports and SMTP errors in Exchange Online" (421 4.3.2, 550 5.1.10)',
    ],
  },
  {
    id: 'icloud',
    name: 'iCloud Mail',
    kind: 'mailbox-provider',
    domains: ['icloud.com', 'me.com', 'mac.com'],
    mxSuffixes: ['mail.icloud.com'],
    rcpt: 'mailbox',
    limits: { sessionsPerHost: 2, rcptsPerSession: 25, connectionsPerMinute: 10 },
    replies: ICLOUD,
    sources: [
      'Apple Support HT204137 "Postmaster information for iCloud Mail" (CS codes, deferrals for excessive volume)',
      'Bounces quoted by deliverability references: "550 5.1.1 <x>: user does not exist", "550 5.7.1 [CS01] Message rejected due to local policy"',
    ],
  },
  {
    id: 'mimecast',
    name: 'Mimecast',
    kind: 'gateway',
    domains: [],
    mxSuffixes: ['mimecast.com', 'mimecast.co.za'],
    rcpt: 'refusals-only',
    limits: GATEWAY_LIMITS,
    replies: MIMECAST,
    sources: ['Mimecast Knowledge Base "Mimecast SMTP Error Codes" (4xx and 5xx tables)'],
  },
  {
    id: 'proofpoint',
    name: 'Proofpoint',
    kind: 'gateway',
    domains: [],
    mxSuffixes: ['pphosted.com', 'ppe-hosted.com'],
    rcpt: 'refusals-only',
    limits: GATEWAY_LIMITS,
    replies: PROOFPOINT,
    sources: [
      'Proofpoint Postmaster and IP and Domain Reputation Center (ipcheck.proofpoint.com blocks)',
      'Proofpoint Essentials "SMTP Discovery" / recipient verification ("User email address is marked as invalid")',
    ],
  },
  {
    id: 'barracuda',
    name: 'Barracuda Email Security',
    kind: 'gateway',
    domains: [],
    mxSuffixes: ['barracudanetworks.com'],
    rcpt: 'refusals-only',
    limits: GATEWAY_LIMITS,
    replies: BARRACUDA,
    sources: [
      'Barracuda Campus "SMTP Error Codes" (Email Security Gateway) and "Inbound Rate Control" (421 on rate control)',
      'Barracuda Central reputation block list ("blocked using Barracuda Reputation")',
    ],
  },
  // Other mailbox providers: they refuse unknown users at RCPT in the standard way; only named.
  namedOnly('proton', 'Proton Mail', 'mailbox-provider', ['proton.me', 'protonmail.com', 'protonmail.ch', 'pm.me'], ['protonmail.ch']),
  namedOnly('zoho', 'Zoho Mail', 'mailbox-provider', ['zoho.com', 'zohomail.com'], ['zoho.com', 'zoho.eu', 'zoho.in', 'zoho.com.au']),
  namedOnly(
    'gmx',
    'GMX / WEB.DE / mail.com',
    'mailbox-provider',
    ['gmx.net', 'gmx.de', 'gmx.com', 'web.de', 'mail.com'],
    ['gmx.net', 'web.de', 'mail.com'],
  ),
  namedOnly('fastmail', 'Fastmail', 'mailbox-provider', ['fastmail.com', 'fastmail.fm'], ['messagingengine.com']),
  namedOnly('mail-ru', 'Mail.ru', 'mailbox-provider', ['mail.ru', 'inbox.ru', 'list.ru', 'bk.ru'], ['mail.ru']),
  namedOnly('yandex', 'Yandex', 'mailbox-provider', ['yandex.ru', 'yandex.com', 'ya.ru'], ['yandex.net', 'yandex.ru']),
  namedOnly('qq', 'Tencent QQ', 'mailbox-provider', ['qq.com', 'foxmail.com'], ['qq.com']),
  // Other security gateways: recipient checking is per customer, so their 250 is no proof either.
  namedOnly('broadcom', 'Broadcom Email Security.cloud', 'gateway', [], ['messagelabs.com']),
  namedOnly('cisco', 'Cisco Secure Email', 'gateway', [], ['iphmx.com']),
  namedOnly('sophos', 'Sophos Email', 'gateway', [], ['hydra.sophos.com']),
  namedOnly('trend-micro', 'Trend Micro Email Security', 'gateway', [], ['tmes.trendmicro.com', 'tmes.trendmicro.eu']),
  namedOnly('forcepoint', 'Forcepoint Email Security', 'gateway', [], ['mailcontrol.com']),
];

function namedOnly(
  id: string,
  name: string,
  kind: 'mailbox-provider' | 'gateway',
  domains: string[],
  mxSuffixes: string[],
): ProviderProfile {
  const gateway = kind === 'gateway';
  return {
    id,
    name,
    kind,
    domains,
    mxSuffixes,
    rcpt: gateway ? 'refusals-only' : 'mailbox',
    limits: gateway ? GATEWAY_LIMITS : DEFAULT_LIMITS,
    replies: NO_REPLIES,
    sources: [
      gateway
        ? `${name}: MX host names from the vendor's setup guide; replies judged by RFC 3463 alone`
        : `${name}: MX host names; replies judged by RFC 3463 alone`,
    ],
  };
}
