/**
 * Conformance against a real Haraka 3.1 (npm), configured with its usual production options for an
 * inbound MX: `rcpt_to.in_host_list` for a domain it accepts whole, `qmail-deliverable` asking the
 * mail store which mailboxes exist, `mail_from.is_resolvable`, `helo.checks`, `limit` (concurrency
 * in Redis, recipients with its tarpit delay), `queue/discard`. One Haraka per policy on port 25 of
 * 127.0.0.111–114; the test's DNS server on 127.0.0.110:53; on 127.0.0.115 the mail store's
 * qmail-deliverabled answer (port 8998) and the Redis the limit plugin keeps its counters in (6379).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningMta } from '../helpers/mta/exim.js';
import { startHaraka } from '../helpers/mta/haraka.js';
import { waitForListener } from '../helpers/mta/listening.js';
import { CELL_TIMEOUT_MS, conformanceApp, explained, verdict, type ConformanceApp } from '../helpers/mta/verdicts.js';
import { startDnsServer, type TestDnsServer } from '../helpers/world/dns-server.js';
import { rawConnect, type RawSmtp } from '../helpers/world/raw-smtp.js';
import type { Zone } from '../helpers/world/dns-zone.js';

const DNS = '127.0.0.110';
const STORE = '127.0.0.115';
const mx = (host: string) => ({ mx: [{ priority: 10, exchange: host }] });
const zone: Zone = {
  ...Object.fromEntries(['haraka-mail.com', 'haraka-catchall.com'].map((d) => [d, mx('mx.haraka-mail.com')])),
  'mx.haraka-mail.com': { a: ['127.0.0.111'] },
  'haraka-busy.com': mx('mx-busy.haraka-mail.com'),
  'mx-busy.haraka-mail.com': { a: ['127.0.0.112'] },
  'haraka-helo.com': mx('mx-helo.haraka-mail.com'),
  'mx-helo.haraka-mail.com': { a: ['127.0.0.113'] },
  'haraka-tarpit.com': mx('mx-tarpit.haraka-mail.com'),
  'mx-tarpit.haraka-mail.com': { a: ['127.0.0.114'] },
  'prober-ok.com': mx('mx.prober-ok.com'),
  'mx.prober-ok.com': { a: ['192.0.2.25'] },
  // Our HELO name resolves, but not to the address we connect from (helo.checks' forward_dns).
  'probe.prober-ok.com': { a: ['192.0.2.26'] },
};
const UNROUTABLE_FROM = 'verify@build-7.mailsure-ci.com';
/** The mail store's mailboxes, as qmail-deliverabled tells them (0xf1 normal delivery, 0 none). */
const MAILBOXES = new Set([
  'alice@haraka-mail.com',
  'full@haraka-mail.com',
  'alice@haraka-busy.com',
  'alice@haraka-helo.com',
  'alice@haraka-tarpit.com',
]);

const QMD = `[main]\nhost=${STORE}\nport=8998\ncheck_mail_from=false\n`;
const REDIS = `[server]\nhost=${STORE}\nport=6379\n`;
/** A mail store's quota check at RCPT, the plugin way: haraka-dsn's mbox_full, Haraka's own words. */
const QUOTA_PLUGIN = `const DSN = require('haraka-dsn')
exports.register = function () {
  this.full = this.config.get('mailbox_quota.full', 'list').map((a) => a.toLowerCase())
}
exports.hook_rcpt = function (next, connection, params) {
  if (this.full.includes(params[0].address().toLowerCase())) return next(DENYSOFT, DSN.mbox_full())
  next()
}
`;
/**
 * Haraka's own DNS waits, no shorter than any call's deadline (30 s at most): an answer slowed by a
 * loaded machine is waited for, never a timeout's temporary refusal where a cell expects a verdict.
 * Its resolver's (net-utils, 25 s by default), and mail_from.is_resolvable's cap (5 s by default).
 */
const NET_UTILS = '[dns]\ntimeout=30000\n';
const IS_RESOLVABLE = '[main]\ntimeout_ms=30000\n[reject]\nno_mx=deny\n';
const base = (host: string) => ({ me: `${host}\n`, 'qmail-deliverable.ini': QMD, 'redis.ini': REDIS, 'net-utils.ini': NET_UTILS });
const INSTANCES = [
  {
    address: '127.0.0.111',
    config: {
      ...base('mx.haraka-mail.com'),
      plugins: 'mail_from.is_resolvable\nmailbox_quota\nrcpt_to.in_host_list\nqmail-deliverable\nqueue/discard\n',
      host_list: 'haraka-catchall.com\n',
      'mailbox_quota.full': 'full@haraka-mail.com\n',
      'mail_from.is_resolvable.ini': IS_RESOLVABLE,
    },
    plugins: { mailbox_quota: QUOTA_PLUGIN },
  },
  {
    address: '127.0.0.112',
    config: {
      ...base('mx-busy.haraka-mail.com'),
      plugins: 'limit\nqmail-deliverable\nqueue/discard\n',
      'limit.ini': `[main]\ntarpit_delay=0\n[redis]\nhost=${STORE}\nport=6379\ndb=4\n[concurrency]\nenabled=true\nmax=1\n`,
    },
    ready: /\[limit\] connected to redis/,
  },
  {
    address: '127.0.0.113',
    config: {
      ...base('mx-helo.haraka-mail.com'),
      plugins: 'helo.checks\nqmail-deliverable\nqueue/discard\n',
      'helo.checks.ini': '[check]\nforward_dns=true\n[reject]\nforward_dns=true\n[skip]\nprivate_ip=false\n',
    },
  },
  {
    address: '127.0.0.114',
    config: {
      ...base('mx-tarpit.haraka-mail.com'),
      plugins: 'limit\nqmail-deliverable\nqueue/discard\n',
      'limit.ini': '[main]\ntarpit_delay=1\n[recipients]\nenabled=true\nmax=1\n',
    },
  },
];

let dns: TestDnsServer;
let store: Server;
let redis: ChildProcess;
let harakas: RunningMta[] = [];
const apps: Partial<Record<Sender, ConformanceApp>> = {};

beforeAll(async () => {
  dns = await startDnsServer(zone, DNS, 53);
  store = createServer((req, res) => {
    const address = decodeURIComponent(new URL(req.url ?? '/', 'http://store').search.slice(1)).toLowerCase();
    res.end(String(MAILBOXES.has(address) ? 0xf1 : 0));
  });
  await new Promise<void>((done) => store.listen(8998, STORE, done));
  redis = spawn('redis-server', ['--bind', STORE, '--port', '6379', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  let redisExit: string | undefined;
  redis.once('exit', (code) => (redisExit = `redis-server exited ${code}`));
  redis.once('error', (error) => (redisExit = `redis-server: ${error.message}`));
  await waitForListener(STORE, 6379, () => redisExit);
  harakas = await Promise.all(INSTANCES.map((each) => startHaraka({ ...each, nameserver: DNS })));
  apps.routable = await conformanceApp(`${DNS}:53`, 'haraka-mail.com', 'verify@prober-ok.com');
  apps.unroutable = await conformanceApp(`${DNS}:53`, 'haraka-mail.com', UNROUTABLE_FROM);
  apps.null = await conformanceApp(`${DNS}:53`, 'haraka-mail.com', undefined);
}, 60_000);
afterAll(async () => {
  for (const app of Object.values(apps)) await app.app.close();
  await Promise.all(harakas.map((each) => each.close()));
  redis?.kill('SIGTERM');
  await new Promise((done) => store?.close(done));
  await dns?.close();
});

type Sender = 'routable' | 'unroutable' | 'null';
type Cell = [scenario: string, sender: Sender, email: string, code: number, status: string, legacyStatus: string, realReply: string];

/** MTA × scenario → verdict; each cell quotes the real reply the verdict rests on. */
const cells: Cell[] = [
  [
    'existing mailbox (qmail-deliverable: normal delivery)',
    'routable',
    'alice@haraka-mail.com',
    50,
    'safetosend',
    'valid',
    '250 recipient <alice@haraka-mail.com> OK',
  ],
  // Differs from the simulators: no enhanced code, no "unknown" in the text (fixed in reply-class.ts).
  [
    'unknown user (qmail-deliverable: not deliverable)',
    'routable',
    'ghost@haraka-mail.com',
    400,
    'invalid',
    'invalid',
    '550 I cannot deliver mail for <ghost@haraka-mail.com>',
  ],
  [
    'catch-all domain (rcpt_to.in_host_list)',
    'routable',
    'anyone@haraka-catchall.com',
    45,
    'catchall',
    'unverifiable',
    '250 recipient <anyone@haraka-catchall.com> OK (the random local part too)',
  ],
  [
    'full mailbox (a quota plugin, haraka-dsn mbox_full)',
    'routable',
    'full@haraka-mail.com',
    410,
    'invalid',
    'invalid',
    '450 4.2.2 Mailbox full',
  ],
  [
    'mail_from.is_resolvable, the null sender (default): existing mailbox',
    'null',
    'alice@haraka-mail.com',
    50,
    'safetosend',
    'valid',
    '250 sender <> OK, then 250 recipient … OK',
  ],
  [
    'mail_from.is_resolvable, the null sender (default): unknown user',
    'null',
    'ghost@haraka-mail.com',
    400,
    'invalid',
    'invalid',
    '550 I cannot deliver mail for <ghost@haraka-mail.com>',
  ],
  [
    'mail_from.is_resolvable, our sender unroutable: existing mailbox',
    'unroutable',
    'alice@haraka-mail.com',
    20,
    'valid',
    'unknown',
    '550 No MX for your FROM address (at MAIL FROM)',
  ],
  [
    'mail_from.is_resolvable, our sender unroutable: unknown user',
    'unroutable',
    'ghost@haraka-mail.com',
    20,
    'valid',
    'unknown',
    '(the same 550 at MAIL FROM: no recipient was asked)',
  ],
  [
    'tarpit (limit: one recipient, then 1 s and a deferral): existing mailbox',
    'routable',
    'alice@haraka-tarpit.com',
    20,
    'valid',
    'unknown',
    '250 recipient … OK; the random local part 450 Too many recipient attempts after 1 s',
  ],
  [
    'tarpit (limit: one recipient, then 1 s and a deferral): unknown user',
    'routable',
    'ghost@haraka-tarpit.com',
    400,
    'invalid',
    'invalid',
    '550 I cannot deliver mail for <ghost@haraka-tarpit.com> (before the tarpit)',
  ],
  // helo.checks runs each check once a connection: our HELO after the refused EHLO is accepted.
  [
    'our EHLO refused by helo.checks (forward_dns): existing mailbox',
    'routable',
    'alice@haraka-helo.com',
    50,
    'safetosend',
    'valid',
    '550 HELO host has no forward DNS match, then HELO 250 and 250 recipient … OK',
  ],
  [
    'our EHLO refused by helo.checks (forward_dns): unknown user',
    'routable',
    'ghost@haraka-helo.com',
    400,
    'invalid',
    'invalid',
    '550 I cannot deliver mail for <ghost@haraka-helo.com>',
  ],
];

/** Cells Haraka cannot express with its stock plugins, and why. */
const notApplicable = {
  greylisting:
    'haraka-plugin-greylist never greylists a private address (connection.remote.is_private, no setting), and the suite connects from 127.0.0.1',
  'STARTTLS required': "the tls plugin offers STARTTLS but has no setting that refuses MAIL in clear: that takes a plugin of one's own",
  'recipient verification by callout':
    "no stock plugin verifies by SMTP callout: queue/smtp_proxy passes a backend's replies through unchanged, which would test the backend",
};

describe('Haraka 3.1 × scenario → verdict', () => {
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
    'says these replies in its own words (the ones the cells quote)',
    async () => {
      const smtp = await rawConnect('127.0.0.111', 25);
      try {
        await smtp.reply();
        await smtp.send('EHLO probe.prober-ok.com');
        expect(await smtp.send(`MAIL FROM:<${UNROUTABLE_FROM}>`)).toEqual(['550 No MX for your FROM address']);
        expect(await smtp.send('MAIL FROM:<>')).toEqual(['250 sender <> OK']);
        expect(await smtp.send('RCPT TO:<alice@haraka-mail.com>')).toEqual(['250 recipient <alice@haraka-mail.com> OK']);
        expect(await smtp.send('RCPT TO:<ghost@haraka-mail.com>')).toEqual(['550 I cannot deliver mail for <ghost@haraka-mail.com>']);
        expect(await smtp.send('RCPT TO:<full@haraka-mail.com>')).toEqual(['450 4.2.2 Mailbox full']);
      } finally {
        smtp.close();
      }
      const helo = await rawConnect('127.0.0.113', 25);
      try {
        await helo.reply();
        expect(await helo.send('EHLO probe.prober-ok.com')).toEqual(['550 HELO host has no forward DNS match']);
        expect((await helo.send('HELO probe.prober-ok.com'))[0]).toMatch(/^250 /);
      } finally {
        helo.close();
      }
    },
    CELL_TIMEOUT_MS,
  );

  it(
    'connection limit: 421 at the banner while another connection from us is open → 20, never invalid',
    async () => {
      const held: RawSmtp = await rawConnect('127.0.0.112', 25);
      try {
        expect((await held.reply())[0]).toMatch(/^220 mx-busy\.haraka-mail\.com ESMTP Haraka\//);
        const second = await rawConnect('127.0.0.112', 25);
        expect(await second.reply()).toEqual(['421 Too many concurrent connections']);
        second.close();
        const { app, current, legacy } = apps.routable!;
        expect(await verdict(app, current, 'alice@haraka-busy.com')).toMatchObject({ status_code: 20, status: 'valid' });
        expect(await verdict(app, legacy, 'ghost@haraka-busy.com')).toMatchObject({ status_code: 20, status: 'unknown' });
      } finally {
        held.close();
      }
    },
    CELL_TIMEOUT_MS,
  );
});

describe("a verdict's evidence against Haraka (explain=true; docs/verification.md, real examples)", () => {
  it(
    "an unknown user: rule mailbox.unknown-user, Haraka's own reply for the address (no enhanced code)",
    async () => {
      const { app, explained: key } = apps.routable!;
      const answer = await explained(app, key, 'nobody@haraka-mail.com');
      expect([answer.code, answer.rule]).toEqual([400, 'mailbox.unknown-user']);
      expect(answer.steps[0]).toMatchObject({ code: 220 });
      expect(answer.steps.find((s) => s.role === 'our-sender')).toMatchObject({ command: 'MAIL FROM:<verify@prober-ok.com>', code: 250 });
      expect(answer.steps.find((s) => s.role === 'address')).toMatchObject({
        command: 'RCPT TO:<nobody@haraka-mail.com>',
        code: 550,
        text: 'I cannot deliver mail for <nobody@haraka-mail.com>',
      });
      expect(JSON.stringify(answer.steps)).not.toContain('127.0.0.1');
    },
    CELL_TIMEOUT_MS,
  );

  it(
    'our sender refused at MAIL FROM (mail_from.is_resolvable): the pipelined RCPT meets 503, no proof about the recipient',
    async () => {
      const { app, explained: key } = apps.unroutable!;
      const answer = await explained(app, key, 'nobody@haraka-mail.com');
      expect([answer.code, answer.rule]).toEqual([20, 'mailbox.policy']);
      expect(answer.steps.find((s) => s.role === 'our-sender')).toMatchObject({
        command: `MAIL FROM:<${UNROUTABLE_FROM}>`,
        code: 550,
        text: 'No MX for your FROM address',
      });
      expect(answer.steps.find((s) => s.role === 'address')).toMatchObject({
        command: 'RCPT TO:<nobody@haraka-mail.com>',
        code: 503,
        text: 'Use MAIL before RCPT',
      });
    },
    CELL_TIMEOUT_MS,
  );
});
