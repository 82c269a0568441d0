/**
 * Conformance against a real Postfix 3.7 (Debian's package), configured with its usual production
 * options: virtual mailbox domains with `reject_unlisted_recipient`, an access map for a full
 * mailbox, `reject_unknown_sender_domain` by restriction class, smtpd's error sleep (tarpit), the
 * anvil connection limit, `smtpd_tls_security_level=encrypt` and `reject_unknown_helo_hostname`,
 * one listener on port 25 of 127.0.0.91–95 each; the test's DNS server on 127.0.0.90:53.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostfix } from '../helpers/mta/postfix.js';
import type { RunningMta } from '../helpers/mta/exim.js';
import { conformanceApp, explained, verdict, type ConformanceApp } from '../helpers/mta/verdicts.js';
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
virtual_mailbox_domains = pf-mail.com, pf-catchall.com, pf-sv.com, pf-busy.com, pf-tls.com, pf-helo.com, pf-tarpit.com
virtual_mailbox_maps = texthash:@DIR@/etc/vmailbox
virtual_transport = discard
smtpd_restriction_classes = verify_sender
verify_sender = reject_unknown_sender_domain
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
];
const FILES = {
  vmailbox: ['alice@pf-mail.com', 'full@pf-mail.com', '@pf-catchall.com', 'alice@pf-sv.com', 'alice@pf-busy.com', 'alice@pf-tls.com', 'alice@pf-helo.com', 'alice@pf-tarpit.com'].map((a) => `${a} x`).join('\n') + '\n',
  recipient_access: 'full@pf-mail.com 552 5.2.2 Mailbox full\npf-sv.com verify_sender\n',
};

let dns: TestDnsServer;
let postfix: RunningMta;
const apps: Partial<Record<Sender, ConformanceApp>> = {};

beforeAll(async () => {
  dns = await startDnsServer(zone, DNS, 53);
  postfix = await startPostfix({ mainCf: MAIN_CF, listeners: LISTENERS, files: FILES, nameserver: DNS });
  apps.routable = await conformanceApp(`${DNS}:53`, 'pf-mail.com', 'verify@prober-ok.com');
  apps.unroutable = await conformanceApp(`${DNS}:53`, 'pf-mail.com', UNROUTABLE_FROM);
  apps.null = await conformanceApp(`${DNS}:53`, 'pf-mail.com', undefined);
}, 60_000);
afterAll(async () => {
  for (const app of Object.values(apps)) await app.app.close();
  await postfix?.close();
  await dns?.close();
});

type Sender = 'routable' | 'unroutable' | 'null';
type Cell = [scenario: string, sender: Sender, email: string, code: number, status: string, legacyStatus: string, realReply: string];

const cells: Cell[] = [
  ['existing mailbox', 'routable', 'alice@pf-mail.com', 50, 'safetosend', 'valid', '250 2.1.5 Ok'],
  ['unknown user', 'routable', 'nobody@pf-mail.com', 400, 'invalid', 'invalid', '550 5.1.1 <nobody@pf-mail.com>: Recipient address rejected: User unknown in virtual mailbox table'],
  ['catch-all domain', 'routable', 'anyone@pf-catchall.com', 45, 'catchall', 'unverifiable', '250 2.1.5 Ok (the random local part too)'],
  ['full mailbox (access map)', 'routable', 'full@pf-mail.com', 410, 'invalid', 'invalid', '552 5.2.2 <full@pf-mail.com>: Recipient address rejected: Mailbox full'],
  ['reject_unknown_sender_domain, our sender routable: existing mailbox', 'routable', 'alice@pf-sv.com', 50, 'safetosend', 'valid', '250 2.1.5 Ok'],
  ['reject_unknown_sender_domain, the null sender (default): unknown user', 'null', 'nobody@pf-sv.com', 400, 'invalid', 'invalid', '550 5.1.1 … User unknown in virtual mailbox table'],
  ['reject_unknown_sender_domain, our sender unroutable: existing mailbox', 'unroutable', 'alice@pf-sv.com', 20, 'valid', 'unknown', '450 4.1.8 <verify@build-7.mailsure-ci.com>: Sender address rejected: Domain not found'],
  ['reject_unknown_sender_domain, our sender unroutable: unknown user', 'unroutable', 'nobody@pf-sv.com', 20, 'valid', 'unknown', '(the same 450 4.1.8, before the recipient is looked at)'],
  ['tarpit (error sleep): existing mailbox', 'routable', 'alice@pf-tarpit.com', 50, 'safetosend', 'valid', '250 2.1.5 Ok; the random local part 550 5.1.1'],
  ['tarpit (error sleep): unknown user', 'routable', 'nobody@pf-tarpit.com', 400, 'invalid', 'invalid', '550 5.1.1 … User unknown in virtual mailbox table'],
  ['STARTTLS required', 'routable', 'alice@pf-tls.com', 50, 'safetosend', 'valid', '250 2.1.5 Ok after STARTTLS (in clear: 530 5.7.0 Must issue a STARTTLS command first)'],
  ['our HELO refused by policy', 'routable', 'alice@pf-helo.com', 20, 'valid', 'unknown', '450 4.7.1 <probe.prober-ok.com>: Helo command rejected: Host not found'],
];

const notApplicable = {
  greylisting: 'Postfix greylists only through a policy service (postgrey), which this suite does not install yet',
};

describe('Postfix 3.7 × scenario → verdict', () => {
  it('has at least ten real cells, and says why the others do not apply', () => {
    expect(new Set(cells.map((cell) => cell[0])).size + 1).toBeGreaterThanOrEqual(10);
    expect(Object.values(notApplicable).every((reason) => reason.length > 0)).toBe(true);
  });

  it.each(cells)('%s (%s sender) → %s', async (_scenario, sender, email, code, status, legacyStatus) => {
    const { app, current, legacy } = apps[sender]!;
    expect(await verdict(app, current, email)).toMatchObject({ status_code: code, status });
    expect(await verdict(app, legacy, email)).toMatchObject({ status_code: code, status: legacyStatus });
  });

  it('refuses our unroutable sender at RCPT time, about the sender (4.1.8), whatever the recipient', async () => {
    const smtp = await rawConnect('127.0.0.91', 25);
    try {
      await smtp.reply();
      await smtp.send('EHLO probe.prober-ok.com');
      expect(await smtp.send(`MAIL FROM:<${UNROUTABLE_FROM}>`)).toEqual(['250 2.1.0 Ok']);
      expect(await smtp.send('RCPT TO:<nobody@pf-sv.com>')).toEqual([`450 4.1.8 <${UNROUTABLE_FROM}>: Sender address rejected: Domain not found`]);
    } finally {
      smtp.close();
    }
  });

  it('connection limit: 421 at the banner while another connection from us is open → 20, never invalid', async () => {
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
  });
});

describe("a verdict's evidence against Postfix (explain=true; docs/verification.md, real examples)", () => {
  it("an unknown user: rule mailbox.unknown-user, Postfix's own reply for the address", async () => {
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
  });

  it('reject_unknown_sender_domain refusing our MAIL FROM: a temporary refusal of us, asked again once, never a verdict about the address', async () => {
    const { app, explained: key } = apps.unroutable!;
    const answer = await explained(app, key, 'nobody@pf-sv.com');
    expect([answer.code, answer.rule]).toEqual([20, 'mailbox.temporary']);
    expect(answer.steps.find((s) => s.role === 'address')).toMatchObject({ code: 450, enhanced: '4.1.8' });
  });
});
