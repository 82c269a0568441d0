/**
 * A sender's outcome stream over addresses whose truth is known (issue 32): the accuracy report's
 * test and the ingestion bench both need thousands of events whose right answer can be counted in
 * advance. Deterministic by seed (random.ts): the same options give the same stream everywhere.
 *
 * Each address has a truth (what its mailbox really is) and the verdict Mailsure gave it before
 * any event, drawn from a confusion table (below), so the report has right and wrong verdicts to
 * find. Its events then follow its truth:
 * - `exists`: delivered, now and then a complaint, a soft bounce or a policy block of the sender;
 * - `no-mailbox`: hard bounces whose reply proves it (5.1.1 and the like);
 * - `full`: soft bounces (4.2.2), and at times a permanent 5.2.2 that proves nothing;
 * and a few events (`unverifiedShare`) are about addresses Mailsure never verified, which the
 * report must leave out.
 *
 * `expected` holds the counts the report must give, per verdict code and outcome kind, both of
 * events and of distinct addresses, for the verified addresses only.
 */
import type { OutcomeEvent, OutcomeKind } from '../outcomes/outcome-event.js';
import { CODE } from '../verification/codes.js';
import { Rng } from './random.js';

export type MailboxTruth = 'exists' | 'no-mailbox' | 'full';

export interface VerifiedAddress {
  email: string;
  /** The verification code Mailsure answered (50, 45, 20, 5, 400, 410). */
  code: number;
  verifiedAt: Date;
  truth: MailboxTruth;
}

export interface OutcomeStreamOptions {
  seed: string;
  /** Events in the stream (10,000 by default). */
  events?: number;
  /** Distinct verified addresses the events fall on (a quarter of the events by default). */
  addresses?: number;
  /** The first event's time; every verdict is given in the week before it. */
  start?: Date;
  /** The stream's span (30 days by default); events come in time order. */
  spanMs?: number;
  /** The share of events about addresses never verified (5 % by default). */
  unverifiedShare?: number;
}

export type OutcomeCounts = Record<number, Record<OutcomeKind, number>>;

export interface OutcomeStream {
  verified: VerifiedAddress[];
  events: OutcomeEvent[];
  expected: {
    /** Events per verdict code and kind (verified addresses only). */
    events: OutcomeCounts;
    /** Distinct addresses per verdict code with at least one event of the kind. */
    addresses: OutcomeCounts;
    /** Events about addresses never verified (in `events`, in no count). */
    unverified: number;
  };
}

const KINDS: readonly OutcomeKind[] = ['bounce', 'deferral', 'blocked', 'complaint', 'delivery'];
const TRUTHS: readonly [MailboxTruth, number][] = [
  ['exists', 0.8],
  ['no-mailbox', 0.15],
  ['full', 0.05],
];
/** The verdict given for each truth: mostly right, some unknown (5, 20), catch-all domains hiding either, a few wrong. */
const VERDICTS: Readonly<Record<MailboxTruth, readonly [number, number][]>> = {
  exists: [
    [CODE.deliverable, 0.7],
    [CODE.catchAll, 0.12],
    [CODE.domainOk, 0.1],
    [CODE.timeout, 0.05],
    [CODE.noMailbox, 0.03],
  ],
  'no-mailbox': [
    [CODE.noMailbox, 0.6],
    [CODE.catchAll, 0.15],
    [CODE.domainOk, 0.1],
    [CODE.timeout, 0.05],
    [CODE.deliverable, 0.1],
  ],
  full: [
    [CODE.mailboxFull, 0.6],
    [CODE.deliverable, 0.2],
    [CODE.domainOk, 0.2],
  ],
};
/** What one send to an address of each truth comes back as. */
const OUTCOMES: Readonly<Record<MailboxTruth, readonly [OutcomeKind, number][]>> = {
  exists: [
    ['delivery', 0.9],
    ['complaint', 0.03],
    ['deferral', 0.04],
    ['blocked', 0.03],
  ],
  'no-mailbox': [['bounce', 1]],
  full: [
    ['deferral', 0.8],
    ['bounce', 0.2],
  ],
};
const NO_MAILBOX_REPLIES = [
  "550 5.1.1 The email account that you tried to reach does not exist. Please try double-checking the recipient's email address",
  // As a parser keeps it: the address in the reply reduced to its domain.
  '550 5.1.1 <*@{domain}>: Recipient address rejected: User unknown in virtual mailbox table',
  '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup',
  '554 5.1.1 Unknown user; rejecting',
];
const BLOCK_REPLIES = [
  '554 5.7.1 Service unavailable; Client host [192.0.2.25] blocked using a DNS block list',
  '550 5.7.1 Our system has detected that this message is likely unsolicited mail.',
];
const SOFT_REPLIES = [
  '421 4.7.0 Try again later, closing connection.',
  '450 4.2.1 The user you are trying to contact is receiving mail too quickly',
];
const SOURCES = ['ses', 'sendgrid', 'mailgun', 'postmark', 'sparkpost'] as const;
const DOMAINS = ['mail-a.example', 'mail-b.example', 'mail-c.example', 'inbox.example', 'post.example'];

export function outcomeStream(options: OutcomeStreamOptions): OutcomeStream {
  const eventCount = options.events ?? 10_000;
  const addressCount = Math.max(1, options.addresses ?? Math.ceil(eventCount / 4));
  const start = options.start ?? new Date('2026-01-01T00:00:00Z');
  const spanMs = options.spanMs ?? 30 * 24 * 3600 * 1000;
  const unverifiedShare = options.unverifiedShare ?? 0.05;
  const rng = new Rng(`${options.seed}/outcomes`);

  const verified: VerifiedAddress[] = Array.from({ length: addressCount }, (_, index) => {
    const truth = weighted(rng, TRUTHS);
    return {
      email: `r${index}.${rng.next().toString(36)}@${rng.pick(DOMAINS)}`,
      code: weighted(rng, VERDICTS[truth]),
      verifiedAt: new Date(start.getTime() - 1 - rng.below(7 * 24 * 3600 * 1000)),
      truth,
    };
  });

  const counts = emptyCounts();
  const seen = new Map<number, Map<OutcomeKind, Set<string>>>();
  let unverified = 0;
  const times = Array.from({ length: eventCount }, () => start.getTime() + rng.below(spanMs)).sort((a, b) => a - b);
  const events = times.map((time, index): OutcomeEvent => {
    const stranger = rng.chance(unverifiedShare);
    const address: Pick<VerifiedAddress, 'email' | 'truth'> = stranger
      ? { email: `u${index}.${rng.next().toString(36)}@${rng.pick(DOMAINS)}`, truth: weighted(rng, TRUTHS) }
      : rng.pick(verified);
    const kind = weighted(rng, OUTCOMES[address.truth]);
    const event = outcome(rng, `${options.seed}-${index}`, address, kind, new Date(time));
    if (stranger) unverified++;
    else record(counts, seen, address as VerifiedAddress, kind);
    return event;
  });

  const addresses = emptyCounts();
  for (const [code, kinds] of seen) for (const [kind, emails] of kinds) addresses[code]![kind] = emails.size;
  return { verified, events, expected: { events: counts, addresses, unverified } };
}

function outcome(
  rng: Rng,
  eventId: string,
  address: Pick<VerifiedAddress, 'email' | 'truth'>,
  kind: OutcomeKind,
  occurredAt: Date,
): OutcomeEvent {
  const base = { source: rng.pick(SOURCES), eventId, email: address.email, kind, occurredAt };
  switch (kind) {
    case 'bounce':
      return address.truth === 'full'
        ? {
            ...base,
            enhancedStatus: '5.2.2',
            smtpCode: 552,
            diagnostic: '552 5.2.2 The email account that you tried to reach is over quota.',
          }
        : reply(base, rng.pick(NO_MAILBOX_REPLIES).replace('{domain}', address.email.split('@')[1]!));
    case 'deferral':
      return address.truth === 'full'
        ? { ...base, enhancedStatus: '4.2.2', smtpCode: 452, diagnostic: '452 4.2.2 Mailbox full' }
        : reply(base, rng.pick(SOFT_REPLIES));
    case 'blocked':
      return reply(base, rng.pick(BLOCK_REPLIES));
    case 'delivery':
      return reply(base, '250 2.0.0 OK');
    case 'complaint':
      return base;
  }
}

function reply(base: OutcomeEvent, diagnostic: string): OutcomeEvent {
  const [code, enhanced] = diagnostic.split(' ');
  return { ...base, smtpCode: Number(code), enhancedStatus: enhanced!, diagnostic };
}

function record(
  counts: OutcomeCounts,
  seen: Map<number, Map<OutcomeKind, Set<string>>>,
  address: VerifiedAddress,
  kind: OutcomeKind,
): void {
  counts[address.code]![kind]++;
  const byKind = seen.get(address.code) ?? new Map<OutcomeKind, Set<string>>();
  seen.set(address.code, byKind);
  const emails = byKind.get(kind) ?? new Set<string>();
  byKind.set(kind, emails);
  emails.add(address.email);
}

function emptyCounts(): OutcomeCounts {
  const codes = new Set(Object.values(VERDICTS).flatMap((table) => table.map(([code]) => code)));
  return Object.fromEntries([...codes].map((code) => [code, Object.fromEntries(KINDS.map((kind) => [kind, 0]))])) as OutcomeCounts;
}

function weighted<T>(rng: Rng, table: readonly (readonly [T, number])[]): T {
  return table[rng.weightedIndex(table.map(([, weight]) => weight))]![0];
}

/** The stream as SendGrid would post it: event webhook batches of `size` (the bench parses and ingests these). */
export function sendgridBatches(events: readonly OutcomeEvent[], size = 100): Buffer[] {
  const names: Record<OutcomeKind, (event: OutcomeEvent) => Record<string, unknown>> = {
    bounce: (event) => ({ event: 'bounce', type: 'bounce', status: event.enhancedStatus, reason: event.diagnostic }),
    blocked: (event) => ({ event: 'bounce', type: 'blocked', status: event.enhancedStatus, reason: event.diagnostic }),
    deferral: (event) => ({ event: 'deferred', response: event.diagnostic }),
    delivery: (event) => ({ event: 'delivered', response: event.diagnostic }),
    complaint: () => ({ event: 'spamreport' }),
  };
  const batches: Buffer[] = [];
  for (let at = 0; at < events.length; at += size) {
    const batch = events.slice(at, at + size).map((event) => ({
      email: event.email,
      timestamp: event.occurredAt.getTime() / 1000,
      sg_event_id: event.eventId,
      ...names[event.kind](event),
    }));
    batches.push(Buffer.from(JSON.stringify(batch)));
  }
  return batches;
}
