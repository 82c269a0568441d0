/**
 * Conformance against a real Postfix 3.7 (Debian's package), configured with its usual production
 * options: virtual mailbox domains with `reject_unlisted_recipient`, an access map for a full
 * mailbox, `reject_unknown_sender_domain` by restriction class, smtpd's error sleep (tarpit), the
 * anvil connection limit, `smtpd_tls_security_level=encrypt` and `reject_unknown_helo_hostname`,
 * one listener on port 25 of 127.0.0.91–95 each; greylisting by postgrey (Debian's) on .96, through
 * two of them on 127.0.0.89: pf-grey.com's (port 10023) with a delay of an hour, which no test
 * outlasts however loaded the machine, for the retries inside the delay, and pf-grey-short.com's
 * (10024) with 3 s, which the retry after the delay waits out (a wait that may only be longer);
 * `reject_unverified_recipient` on .97 (and .86, with the 550 reject code), whose callouts go to a
 * second Postfix, the mail store, on .98 (and on .87, where it answers only after 30 s). The test's
 * DNS server on 127.0.0.90:53.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostfix } from '../helpers/mta/postfix.js';
import { startPostgrey } from '../helpers/mta/postgrey.js';
import type { RunningMta } from '../helpers/mta/exim.js';
import { CELL_TIMEOUT_MS, conformanceApp, explained, verdict, type ConformanceApp } from '../helpers/mta/verdicts.js';
import { startDnsServer, type TestDnsServer } from '../helpers/world/dns-server.js';
import { rawConnect, type RawSmtp } from '../helpers/world/raw-smtp.js';
import type { Zone } from '../helpers/world/dns-zone.js';

const DNS = '127.0.0.90';
const mx = (host: string) => ({ mx: [{ priority: 10, exchange: host }] });
const zone: Zone = {
  ...Object.fromEntries(['pf-mail.com', 'pf-catchall.com', 'pf-sv.com'].map((d) => [d, mx('mx.pf-mail.com')])),
  'mx.pf-mail.com': { a: ['127.0.0.91'] },
  'pf-busy.com': mx('mx-busy.pf-mail.com'),
  'mx-busy.pf-mail.com': { a: ['127.0.0.92'] },
  'pf-tls.com': mx('mx-tls.pf-mail.com'),
  'mx-tls.pf-mail.com': { a: ['127.0.0.93'] },
  'pf-helo.com': mx('mx-helo.pf-mail.com'),
  'mx-helo.pf-mail.com': { a: ['127.0.0.94'] },
  'pf-tarpit.com': mx('mx-tarpit.pf-mail.com'),
  'mx-tarpit.pf-mail.com': { a: ['127.0.0.95'] },
  ...Object.fromEntries(['pf-grey.com', 'pf-grey-short.com'].map((d) => [d, mx('mx-grey.pf-mail.com')])),
  'mx-grey.pf-mail.com': { a: ['127.0.0.96'] },
  ...Object.fromEntries(['pf-verify.com', 'pf-verify-slow.com'].map((d) => [d, mx('mx-verify.pf-mail.com')])),
  'mx-verify.pf-mail.com': { a: ['127.0.0.97'] },
  'pf-verify-550.com': mx('mx-verify-550.pf-mail.com'),
  'mx-verify-550.pf-mail.com': { a: ['127.0.0.86'] },
  'prober-ok.com': mx('mx.prober-ok.com'),
  'mx.prober-ok.com': { a: ['192.0.2.25'] },
};
const UNROUTABLE_FROM = 'verify@build-7.mailsure-ci.com';

const MAIN_CF = `compatibility_level = 3.6
queue_directory = @DIR@/queue
data_directory = @DIR@/data
maillog_file_prefixes = @DIR@
maillog_file = @DIR@/log/maillog
myhostname = mx.pf-mail.com
mydestination =
inet_interfaces = all
inet_protocols = ipv4
smtpd_banner = $myhostname ESMTP Postfix (Debian/GNU)
virtual_mailbox_domains = pf-mail.com, pf-catchall.com, pf-sv.com, pf-busy.com, pf-tls.com, pf-helo.com, pf-tarpit.com, pf-grey.com, pf-grey-short.com
# Domains whose mailboxes are on the mail store, a second Postfix: what reject_unverified_recipient asks.
relay_domains = pf-verify.com, pf-verify-slow.com, pf-verify-550.com
transport_maps = texthash:@DIR@/etc/transport
virtual_mailbox_maps = texthash:@DIR@/etc/vmailbox
virtual_transport = discard
smtpd_restriction_classes = verify_sender, greylist, greylist_short
verify_sender = reject_unknown_sender_domain
# Greylisting by domain (the greylisting table): each class asks its own postgrey.
greylist = check_policy_service inet:127.0.0.89:10023
greylist_short = check_policy_service inet:127.0.0.89:10024
# After recipient validation, as postgrey's documentation orders it: an unknown user is refused first.
greylisting_restrictions = reject_unlisted_recipient, check_recipient_access texthash:@DIR@/etc/greylisting, permit_auth_destination, reject
smtpd_recipient_restrictions = check_recipient_access texthash:@DIR@/etc/recipient_access, reject_unlisted_recipient, permit_auth_destination, reject
smtpd_client_event_limit_exceptions =
# The client is 127.0.0.1, which has no name in the test's DNS.
smtpd_peername_lookup = no
smtpd_tls_cert_file = @DIR@/etc/cert.pem
smtpd_tls_key_file = @DIR@/etc/key.pem
smtpd_tls_security_level = may
`;
const LISTENERS = [
  '127.0.0.91:smtp inet n - n - - smtpd',
  '127.0.0.92:smtp inet n - n - - smtpd -o smtpd_client_connection_count_limit=1',
  '127.0.0.93:smtp inet n - n - - smtpd -o smtpd_tls_security_level=encrypt',
  '127.0.0.94:smtp inet n - n - - smtpd -o smtpd_helo_required=yes -o smtpd_helo_restrictions=reject_unknown_helo_hostname',
  '127.0.0.95:smtp inet n - n - - smtpd -o smtpd_soft_error_limit=1 -o smtpd_error_sleep_time=1s',
  '127.0.0.96:smtp inet n - n - - smtpd -o smtpd_recipient_restrictions=$greylisting_restrictions',
  // A callout per new recipient; smtpd answers at once (one poll) with a 450 while it checks, and
  // with unverified_recipient_reject_code (450 by default, 550 once the operator trusts it) after.
  '127.0.0.97:smtp inet n - n - - smtpd -o smtpd_recipient_restrictions=reject_unverified_recipient,permit_auth_destination,reject -o address_verify_poll_count=1',
  // With the 550 code, smtpd waits for the callout's answer (as by default, 3 polls 3 s apart) but
  // longer than any call's deadline (40 polls 1 s apart): its answer is the callout's, never an
  // "in progress" that a retry would have to outwait, however slow the machine.
  '127.0.0.86:smtp inet n - n - - smtpd -o smtpd_recipient_restrictions=reject_unverified_recipient,permit_auth_destination,reject -o address_verify_poll_count=40 -o address_verify_poll_delay=1s -o unverified_recipient_reject_code=550',
];
/** The mail store behind reject_unverified_recipient: plain on .98, 30 s per RCPT on .87. */
const STORE_CF = `compatibility_level = 3.6
queue_directory = @DIR@/queue
data_directory = @DIR@/data
maillog_file_prefixes = @DIR@
maillog_file = @DIR@/log/maillog
myhostname = mx-store.pf-mail.com
mydestination =
inet_interfaces = all
inet_protocols = ipv4
virtual_mailbox_domains = pf-verify.com, pf-verify-slow.com, pf-verify-550.com
virtual_mailbox_maps = texthash:@DIR@/etc/vmailbox
virtual_transport = discard
smtpd_recipient_restrictions = reject_unlisted_recipient, permit_auth_destination, reject
smtpd_peername_lookup = no
`;
const STORE_LISTENERS = [
  '127.0.0.98:smtp inet n - n - - smtpd',
  '127.0.0.87:smtp inet n - n - - smtpd -o smtpd_recipient_restrictions=sleep,30,reject_unlisted_recipient,permit_auth_destination,reject',
];
const FILES = {
  vmailbox:
    [
      'alice@pf-mail.com',
      'full@pf-mail.com',
      '@pf-catchall.com',
      'alice@pf-sv.com',
      'alice@pf-busy.com',
      'alice@pf-tls.com',
      'alice@pf-helo.com',
      'alice@pf-tarpit.com',
      'alice@pf-grey.com',
      'alice@pf-grey-short.com',
    ]
      .map((a) => `${a} x`)
      .join('\n') + '\n',
  recipient_access: 'full@pf-mail.com 552 5.2.2 Mailbox full\npf-sv.com verify_sender\n',
  greylisting: 'pf-grey.com greylist\npf-grey-short.com greylist_short\n',
  transport: 'pf-verify.com smtp:[127.0.0.98]:25\npf-verify-550.com smtp:[127.0.0.98]:25\npf-verify-slow.com smtp:[127.0.0.87]:25\n',
};
const STORE_FILES = { vmailbox: 'alice@pf-verify.com x\nalice@pf-verify-slow.com x\nalice@pf-verify-550.com x\n' };

let dns: TestDnsServer;
let postfix: RunningMta;
let store: RunningMta;
let postgrey: RunningMta;
let postgreyShort: RunningMta;
const apps: Partial<Record<Sender, ConformanceApp>> = {};

beforeAll(async () => {
  dns = await startDnsServer(zone, DNS, 53);
  postgrey = await startPostgrey('127.0.0.89', 10023, 3_600);
  postgreyShort = await startPostgrey('127.0.0.89', 10024, 3);
  store = await startPostfix({ mainCf: STORE_CF, listeners: STORE_LISTENERS, files: STORE_FILES, nameserver: DNS });
  postfix = await startPostfix({ mainCf: MAIN_CF, listeners: LISTENERS, files: FILES, nameserver: DNS });
  apps.routable = await conformanceApp(`${DNS}:53`, 'pf-mail.com', 'verify@prober-ok.com');
  apps.unroutable = await conformanceApp(`${DNS}:53`, 'pf-mail.com', UNROUTABLE_FROM);
  apps.null = await conformanceApp(`${DNS}:53`, 'pf-mail.com', undefined);
  // Retries a temporary refusal after 4 s: past pf-grey-short.com's 3 s delay however loaded the
  // machine (a wait only ever lasts longer), and usually past the callout's answer.
  apps.patient = await conformanceApp(`${DNS}:53`, 'pf-mail.com', 'verify@prober-ok.com', 4_000);
}, 60_000);
afterAll(async () => {
  for (const app of Object.values(apps)) await app.app.close();
  await postfix?.close();
  await store?.close();
  await postgrey?.close();
  await postgreyShort?.close();
  await dns?.close();
});

type Sender = 'routable' | 'unroutable' | 'null' | 'patient';
type Cell = [scenario: string, sender: Sender, email: string, code: number, status: string, legacyStatus: string, realReply: string];

const cells: Cell[] = [
  ['existing mailbox', 'routable', 'alice@pf-mail.com', 50, 'safetosend', 'valid', '250 2.1.5 Ok'],
  [
    'unknown user',
    'routable',
    'nobody@pf-mail.com',
    400,
    'invalid',
    'invalid',
    '550 5.1.1 <nobody@pf-mail.com>: Recipient address rejected: User unknown in virtual mailbox table',
  ],
  ['catch-all domain', 'routable', 'anyone@pf-catchall.com', 45, 'catchall', 'unverifiable', '250 2.1.5 Ok (the random local part too)'],
  [
    'full mailbox (access map)',
    'routable',
    'full@pf-mail.com',
    410,
    'invalid',
    'invalid',
    '552 5.2.2 <full@pf-mail.com>: Recipient address rejected: Mailbox full',
  ],
  [
    'reject_unknown_sender_domain, our sender routable: existing mailbox',
    'routable',
    'alice@pf-sv.com',
    50,
    'safetosend',
    'valid',
    '250 2.1.5 Ok',
  ],
  [
    'reject_unknown_sender_domain, the null sender (default): unknown user',
    'null',
    'nobody@pf-sv.com',
    400,
    'invalid',
    'invalid',
    '550 5.1.1 … User unknown in virtual mailbox table',
  ],
  [
    'reject_unknown_sender_domain, our sender unroutable: existing mailbox',
    'unroutable',
    'alice@pf-sv.com',
    20,
    'valid',
    'unknown',
    '450 4.1.8 <verify@build-7.mailsure-ci.com>: Sender address rejected: Domain not found',
  ],
  [
    'reject_unknown_sender_domain, our sender unroutable: unknown user',
    'unroutable',
    'nobody@pf-sv.com',
    20,
    'valid',
    'unknown',
    '(the same 450 4.1.8, before the recipient is looked at)',
  ],
  [
    'tarpit (error sleep): existing mailbox',
    'routable',
    'alice@pf-tarpit.com',
    50,
    'safetosend',
    'valid',
    '250 2.1.5 Ok; the random local part 550 5.1.1',
  ],
  [
    'tarpit (error sleep): unknown user',
    'routable',
    'nobody@pf-tarpit.com',
    400,
    'invalid',
    'invalid',
    '550 5.1.1 … User unknown in virtual mailbox table',
  ],
  [
    'STARTTLS required',
    'routable',
    'alice@pf-tls.com',
    50,
    'safetosend',
    'valid',
    '250 2.1.5 Ok after STARTTLS (in clear: 530 5.7.0 Must issue a STARTTLS command first)',
  ],
  [
    'our HELO refused by policy',
    'routable',
    'alice@pf-helo.com',
    20,
    'valid',
    'unknown',
    '450 4.7.1 <probe.prober-ok.com>: Helo command rejected: Host not found',
  ],
  // pf-grey.com's delay is an hour: our retry 100 ms later, and both variants' calls however long
  // they take, stay inside it: greylisted. Never invalid.
  [
    'greylisting (postgrey): existing mailbox, retried inside the delay',
    'routable',
    'alice@pf-grey.com',
    20,
    'valid',
    'unknown',
    '450 4.2.0 <alice@pf-grey.com>: Recipient address rejected: Greylisted, see http://postgrey.schweikert.ch/help/pf-grey.com.html',
  ],
  [
    'greylisting (postgrey): unknown user',
    'routable',
    'ghost@pf-grey.com',
    400,
    'invalid',
    'invalid',
    '550 5.1.1 … User unknown in virtual mailbox table (before the policy service is asked)',
  ],
  // pf-grey-short.com's postgrey (3 s): a fresh triplet, greylisted, then passed 4 s later.
  [
    'greylisting (postgrey): existing mailbox, retried after the delay',
    'patient',
    'alice@pf-grey-short.com',
    50,
    'safetosend',
    'valid',
    '450 4.2.0 <alice@pf-grey-short.com>: Recipient address rejected: Greylisted, see http://postgrey.schweikert.ch/help/pf-grey-short.com.html, then 250 2.1.5 Ok 4 s later',
  ],
  // Postfix's default unverified_recipient_reject_code is 450: the store's 550 is quoted inside a
  // temporary refusal, which is never proof (decisions: a 4xx is never invalid). The random local
  // part's answer is the same 450, so the domain's catch-all state stays unknown: 20, not 50. So
  // whether the callout has answered by the retry (4 s later) or not, the verdict is the same.
  [
    'reject_unverified_recipient (reject code 450, the default): existing mailbox, retried after the callout',
    'patient',
    'alice@pf-verify.com',
    20,
    'valid',
    'unknown',
    '450 4.1.1 <alice@pf-verify.com>: Recipient address rejected: unverified address: Address verification in progress, then 250 2.1.5 Ok (or the same 450 while the callout runs)',
  ],
  [
    'reject_unverified_recipient (reject code 450, the default): unknown user, retried after the callout',
    'patient',
    'ghost@pf-verify.com',
    20,
    'valid',
    'unknown',
    '450 4.1.1 <ghost@pf-verify.com>: Recipient address rejected: unverified address: host 127.0.0.98[127.0.0.98] said: 550 5.1.1 <ghost@pf-verify.com>: Recipient address rejected: User unknown in virtual mailbox table (in reply to RCPT TO command)',
  ],
  [
    'reject_unverified_recipient (reject code 550): existing mailbox, answered after the callout',
    'routable',
    'alice@pf-verify-550.com',
    50,
    'safetosend',
    'valid',
    '250 2.1.5 Ok once the callout has answered (the random local part: 550 5.1.1 … undeliverable address)',
  ],
  [
    'reject_unverified_recipient (reject code 550): unknown user, answered after the callout',
    'routable',
    'ghost@pf-verify-550.com',
    400,
    'invalid',
    'invalid',
    '550 5.1.1 <ghost@pf-verify-550.com>: Recipient address rejected: undeliverable address: host 127.0.0.98[127.0.0.98] said: 550 5.1.1 … User unknown in virtual mailbox table (in reply to RCPT TO command)',
  ],
  // The mail store takes 30 s per RCPT: the answer is "in progress", and after it a 450 too (the
  // default reject code), however long the call takes. Never invalid.
  [
    'reject_unverified_recipient: unknown user while it checks',
    'routable',
    'ghost@pf-verify-slow.com',
    20,
    'valid',
    'unknown',
    '450 4.1.1 <ghost@pf-verify-slow.com>: Recipient address rejected: unverified address: Address verification in progress',
  ],
];

const notApplicable: Record<string, string> = {};

describe('Postfix 3.7 × scenario → verdict', () => {
  it('has at least ten real cells, and says why the others do not apply', () => {
    expect(new Set(cells.map((cell) => cell[0])).size).toBeGreaterThanOrEqual(10);
    expect(Object.values(notApplicable).every((reason) => reason.length > 0)).toBe(true);
  });

  it.each(cells)(
    '%s (%s sender) → %s',
    async (_scenario, sender, email, code, status, legacyStatus) => {
      const { app, current, legacy } = apps[sender]!;
      expect(await verdict(app, current, email)).toMatchObject({ status_code: code, status });
      expect(await verdict(app, legacy, email)).toMatchObject({ status_code: code, status: legacyStatus });
    },
    CELL_TIMEOUT_MS,
  );

  it(
    'refuses our unroutable sender at RCPT time, about the sender (4.1.8), whatever the recipient',
    async () => {
      const smtp = await rawConnect('127.0.0.91', 25);
      try {
        await smtp.reply();
        await smtp.send('EHLO probe.prober-ok.com');
        expect(await smtp.send(`MAIL FROM:<${UNROUTABLE_FROM}>`)).toEqual(['250 2.1.0 Ok']);
        expect(await smtp.send('RCPT TO:<nobody@pf-sv.com>')).toEqual([
          `450 4.1.8 <${UNROUTABLE_FROM}>: Sender address rejected: Domain not found`,
        ]);
      } finally {
        smtp.close();
      }
    },
    CELL_TIMEOUT_MS,
  );

  it(
    'greylisting and the callout, in their own words',
    async () => {
      const smtp = await rawConnect('127.0.0.96', 25);
      try {
        await smtp.reply();
        await smtp.send('EHLO probe.prober-ok.com');
        expect(await smtp.send('MAIL FROM:<raw@prober-ok.com>')).toEqual(['250 2.1.0 Ok']);
        expect(await smtp.send('RCPT TO:<alice@pf-grey.com>')).toEqual([
          '450 4.2.0 <alice@pf-grey.com>: Recipient address rejected: Greylisted, see http://postgrey.schweikert.ch/help/pf-grey.com.html',
        ]);
        expect(await smtp.send('RCPT TO:<ghost@pf-grey.com>')).toEqual([
          '550 5.1.1 <ghost@pf-grey.com>: Recipient address rejected: User unknown in virtual mailbox table',
        ]);
      } finally {
        smtp.close();
      }
      const verify = await rawConnect('127.0.0.97', 25);
      try {
        await verify.reply();
        await verify.send('EHLO probe.prober-ok.com');
        await verify.send('MAIL FROM:<raw@prober-ok.com>');
        expect(await verify.send('RCPT TO:<bob@pf-verify-slow.com>')).toEqual([
          '450 4.1.1 <bob@pf-verify-slow.com>: Recipient address rejected: unverified address: Address verification in progress',
        ]);
      } finally {
        verify.close();
      }
    },
    CELL_TIMEOUT_MS,
  );

  it(
    'connection limit: 421 at the banner while another connection from us is open → 20, never invalid',
    async () => {
      const held: RawSmtp = await rawConnect('127.0.0.92', 25);
      try {
        expect(await held.reply()).toEqual(['220 mx.pf-mail.com ESMTP Postfix (Debian/GNU)']);
        const second = await rawConnect('127.0.0.92', 25);
        expect(await second.reply()).toEqual(['421 4.7.0 mx.pf-mail.com Error: too many connections from 127.0.0.1']);
        second.close();
        const { app, current, legacy } = apps.routable!;
        expect(await verdict(app, current, 'alice@pf-busy.com')).toMatchObject({ status_code: 20, status: 'valid' });
        expect(await verdict(app, legacy, 'nobody@pf-busy.com')).toMatchObject({ status_code: 20, status: 'unknown' });
      } finally {
        held.close();
      }
    },
    CELL_TIMEOUT_MS,
  );
});

describe("a verdict's evidence against Postfix (explain=true; docs/verification.md, real examples)", () => {
  it(
    "an unknown user: rule mailbox.unknown-user, Postfix's own reply for the address",
    async () => {
      const { app, explained: key } = apps.routable!;
      const answer = await explained(app, key, 'nobody@pf-mail.com');
      expect([answer.code, answer.rule]).toEqual([400, 'mailbox.unknown-user']);
      expect(answer.steps[0]).toMatchObject({ code: 220, text: 'mx.pf-mail.com ESMTP Postfix (Debian/GNU)' });
      expect(answer.steps.find((s) => s.role === 'address')).toMatchObject({
        command: 'RCPT TO:<nobody@pf-mail.com>',
        code: 550,
        enhanced: '5.1.1',
        text: '<nobody@pf-mail.com>: Recipient address rejected: User unknown in virtual mailbox table',
      });
    },
    CELL_TIMEOUT_MS,
  );

  it(
    'reject_unknown_sender_domain refusing our MAIL FROM: a temporary refusal of us, asked again once, never a verdict about the address',
    async () => {
      const { app, explained: key } = apps.unroutable!;
      const answer = await explained(app, key, 'nobody@pf-sv.com');
      expect([answer.code, answer.rule]).toEqual([20, 'mailbox.temporary']);
      expect(answer.steps.find((s) => s.role === 'address')).toMatchObject({ code: 450, enhanced: '4.1.8' });
    },
    CELL_TIMEOUT_MS,
  );
});
