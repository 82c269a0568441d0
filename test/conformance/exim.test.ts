/**
 * Conformance against a real Exim 4.96 (Debian's exim4-daemon-light, unpacked by
 * scripts/install-mtas.sh), configured with its usual production options (test/conformance/exim.conf),
 * listening on port 25 of 127.0.0.81–84 with the test's DNS server on 127.0.0.80:53 as its resolver,
 * and two postgreys (Debian's) on 127.0.0.79 for its greylisting ACL: exim-grey.com's on port 10023
 * with a delay of an hour, which no test outlasts however loaded the machine, for the retries inside
 * the delay; exim-grey-short.com's on 10024 with 3 s, which the retry after the delay waits out.
 * /v5/ev end to end, both variants. Each cell quotes the real reply the verdict rests on.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExim, type RunningMta } from '../helpers/mta/exim.js';
import { startPostgrey } from '../helpers/mta/postgrey.js';
import { CELL_TIMEOUT_MS, conformanceApp, explained, verdict, type ConformanceApp } from '../helpers/mta/verdicts.js';
import { startDnsServer, type TestDnsServer } from '../helpers/world/dns-server.js';
import { rawConnect } from '../helpers/world/raw-smtp.js';
import type { Zone } from '../helpers/world/dns-zone.js';

const DNS = '127.0.0.80';
const mx = (host: string) => ({ mx: [{ priority: 10, exchange: host }] });
const zone: Zone = {
  ...Object.fromEntries(
    [
      'exim-mail.com',
      'exim-catchall.com',
      'exim-sv.com',
      'exim-tarpit.com',
      'exim-tarpit-2.com',
      'exim-tls.com',
      'exim-callout.com',
      'exim-grey.com',
      'exim-grey-short.com',
    ].map((d) => [d, mx('mx.exim-mail.com')]),
  ),
  'mx.exim-mail.com': { a: ['127.0.0.81'] },
  'exim-busy.com': mx('mx-busy.exim-mail.com'),
  'mx-busy.exim-mail.com': { a: ['127.0.0.83'] },
  'exim-helo.com': mx('mx-helo.exim-mail.com'),
  'mx-helo.exim-mail.com': { a: ['127.0.0.84'] },
  // Our sender's domain, routable in DNS (an MX elsewhere): what receivers that verify senders want.
  'prober-ok.com': mx('mx.prober-ok.com'),
  'mx.prober-ok.com': { a: ['192.0.2.25'] },
};
/** The default MAIL FROM is `verify@` the machine's host name, which rarely resolves in public DNS. */
const UNROUTABLE_FROM = 'verify@build-7.mailsure-ci.com';

let dns: TestDnsServer;
let exim: RunningMta;
let postgrey: RunningMta;
let postgreyShort: RunningMta;
const apps = {} as Record<Sender, ConformanceApp>;

beforeAll(async () => {
  dns = await startDnsServer(zone, DNS, 53);
  postgrey = await startPostgrey('127.0.0.79', 10023, 3_600, { exim: true });
  postgreyShort = await startPostgrey('127.0.0.79', 10024, 3, { exim: true });
  exim = await startExim(
    await readFile(new URL('./exim.conf', import.meta.url), 'utf8'),
    ['127.0.0.81', '127.0.0.82', '127.0.0.83', '127.0.0.84'],
    DNS,
  );
  apps.routable = await conformanceApp(`${DNS}:53`, 'exim-mail.com', 'verify@prober-ok.com');
  apps.unroutable = await conformanceApp(`${DNS}:53`, 'exim-mail.com', UNROUTABLE_FROM);
  apps.null = await conformanceApp(`${DNS}:53`, 'exim-mail.com', undefined);
  // Retries a temporary refusal after 4 s: past exim-grey-short.com's 3 s delay however loaded the
  // machine (a wait only ever lasts longer).
  apps.patient = await conformanceApp(`${DNS}:53`, 'exim-mail.com', 'verify@prober-ok.com', 4_000);
}, 60_000);
afterAll(async () => {
  for (const each of Object.values(apps)) await each.app.close();
  await exim?.close();
  await postgrey?.close();
  await postgreyShort?.close();
  await dns?.close();
});

type Sender = 'routable' | 'unroutable' | 'null' | 'patient';
type Cell = [scenario: string, sender: Sender, email: string, code: number, status: string, legacyStatus: string, realReply: string];

/** MTA × scenario → verdict. */
const cells: Cell[] = [
  ['existing mailbox', 'routable', 'alice@exim-mail.com', 50, 'safetosend', 'valid', '250 Accepted'],
  ['unknown user', 'routable', 'nobody@exim-mail.com', 400, 'invalid', 'invalid', '550 Unrouteable address'],
  ['catch-all domain', 'routable', 'anyone@exim-catchall.com', 45, 'catchall', 'unverifiable', '250 Accepted (a random local part too)'],
  ['full mailbox (ACL)', 'routable', 'full@exim-mail.com', 410, 'invalid', 'invalid', '552 5.2.2 Mailbox full'],
  ['our sender verified and routable: existing mailbox', 'routable', 'alice@exim-sv.com', 50, 'safetosend', 'valid', '250 Accepted'],
  [
    'our sender verified and routable: unknown user',
    'routable',
    'nobody@exim-sv.com',
    400,
    'invalid',
    'invalid',
    '550 Unrouteable address',
  ],
  // The measured fault: joined, these lines read "unrouteable address" and answered 400 for every address.
  [
    'our sender refused by sender verification: existing mailbox',
    'unroutable',
    'alice@exim-sv.com',
    20,
    'valid',
    'unknown',
    '550-Verification failed for <verify@build-7.mailsure-ci.com> 550-Unrouteable address 550 Sender verify failed',
  ],
  [
    'our sender refused by sender verification: unknown user',
    'unroutable',
    'nobody@exim-sv.com',
    20,
    'valid',
    'unknown',
    '(the same three lines)',
  ],
  // The default sender, the null sender <> (what Exim's own callouts send): nothing to verify.
  [
    'our sender verified, the null sender (the default): existing mailbox',
    'null',
    'alice@exim-sv.com',
    50,
    'safetosend',
    'valid',
    '250 Accepted',
  ],
  [
    'our sender verified, the null sender (the default): unknown user',
    'null',
    'nobody@exim-sv.com',
    400,
    'invalid',
    'invalid',
    '550 Unrouteable address',
  ],
  [
    'our sender unroutable where no sender verification: unknown user',
    'unroutable',
    'nobody@exim-mail.com',
    400,
    'invalid',
    'invalid',
    '550 Unrouteable address',
  ],
  [
    'tarpit after bad RCPTs: existing mailbox',
    'routable',
    'alice@exim-tarpit.com',
    50,
    'safetosend',
    'valid',
    '250 Accepted; the random local part 550 after 1 s',
  ],
  ['recipient verification by callout: existing mailbox', 'routable', 'alice@exim-callout.com', 50, 'safetosend', 'valid', '250 Accepted'],
  [
    'recipient verification by callout: unknown user',
    'routable',
    'nobody@exim-callout.com',
    400,
    'invalid',
    'invalid',
    '550-Callout verification failed: 550 550 Unrouteable address',
  ],
  // Exim caches the callout's answer: asked again (the legacy variant's call), the text changes.
  [
    'recipient verification by callout, asked again: unknown user',
    'routable',
    'nobody@exim-callout.com',
    400,
    'invalid',
    'invalid',
    '550 Previous (cached) callout verification failure',
  ],
  [
    'connection limit (421 at the banner)',
    'routable',
    'alice@exim-busy.com',
    20,
    'valid',
    'unknown',
    '421 Too many concurrent SMTP connections; please try again later.',
  ],
  [
    'STARTTLS required',
    'routable',
    'alice@exim-tls.com',
    50,
    'safetosend',
    'valid',
    '250 Accepted (after STARTTLS; in clear: 550 STARTTLS required)',
  ],
  [
    'our HELO refused by policy',
    'routable',
    'alice@exim-helo.com',
    20,
    'valid',
    'unknown',
    '550 Rejected because of your HELO: probe.prober-ok.com is not acceptable here',
  ],
  // exim-grey.com's delay is an hour: our retry 100 ms later, and both variants' calls however long
  // they take, stay inside it: greylisted. Never invalid.
  [
    'greylisting (postgrey): existing mailbox, retried inside the delay',
    'routable',
    'alice@exim-grey.com',
    20,
    'valid',
    'unknown',
    '451-Greylisted, see http://postgrey.schweikert.ch/help/exim-grey.com.html 451 ',
  ],
  [
    'greylisting (postgrey): unknown user',
    'routable',
    'ghost@exim-grey.com',
    400,
    'invalid',
    'invalid',
    '550 Unrouteable address (before postgrey is asked)',
  ],
  // exim-grey-short.com's postgrey (3 s): a fresh triplet, greylisted, then passed 4 s later.
  [
    'greylisting (postgrey): existing mailbox, retried after the delay',
    'patient',
    'alice@exim-grey-short.com',
    50,
    'safetosend',
    'valid',
    '451-Greylisted, see http://postgrey.schweikert.ch/help/exim-grey-short.com.html 451 , then 250 Accepted 4 s later',
  ],
];

/** Cells Exim cannot express with its stock features, and why. */
const notApplicable: Record<string, string> = {};

describe('Exim 4.96 × scenario → verdict', () => {
  it('has at least ten real cells, and says why the others do not apply', () => {
    expect(new Set(cells.map((cell) => cell[0])).size).toBeGreaterThanOrEqual(10);
    expect(Object.values(notApplicable).every((reason) => reason.length > 0)).toBe(true);
  });

  it.each(cells)(
    '%s (%s sender) → %s',
    async (_scenario, sender, email, code, status, legacyStatus) => {
      const { app, current: currentKey, legacy: legacyKey } = apps[sender];
      const current = await verdict(app, currentKey, email);
      expect({ code: current.status_code, status: current.status }).toEqual({ code, status });
      const legacy = await verdict(app, legacyKey, email);
      expect({ code: legacy.status_code, status: legacy.status }).toEqual({ code, status: legacyStatus });
    },
    CELL_TIMEOUT_MS,
  );
});

describe('the two measured faults, against the Exim that showed them', () => {
  it(
    'sender verification refuses our MAIL FROM at RCPT time in three lines, the middle one "Unrouteable address"',
    async () => {
      const smtp = await rawConnect('127.0.0.81', 25);
      try {
        await smtp.reply();
        await smtp.send('EHLO probe.prober-ok.com');
        expect(await smtp.send(`MAIL FROM:<${UNROUTABLE_FROM}>`)).toEqual(['250 OK']);
        expect(await smtp.send('RCPT TO:<alice@exim-sv.com>')).toEqual([
          `550-Verification failed for <${UNROUTABLE_FROM}>`,
          '550-Unrouteable address',
          '550 Sender verify failed',
        ]);
      } finally {
        smtp.close();
      }
      // …which is no verdict about the recipient: not 400 for an existing mailbox.
      expect((await verdict(apps.unroutable.app, apps.unroutable.current, 'alice@exim-sv.com')).status_code).toBe(20);
    },
    CELL_TIMEOUT_MS,
  );

  it(
    'a tarpit that holds the catch-all probe past the deadline does not drop the unknown user it already refused',
    async () => {
      // The address's 550 comes after 1 s, the random local part's after 60 s more: past the call's
      // deadline (30 s, the most the API allows) however fast the machine. A domain of its own: no
      // earlier cell may have taught its catch-all fact (no random probe then).
      expect(await verdict(apps.routable.app, apps.routable.current, 'nobody@exim-tarpit-2.com')).toMatchObject({
        status_code: 400,
        status: 'invalid',
      });
    },
    CELL_TIMEOUT_MS,
  );
});

describe('greylisting, in its own words', () => {
  it(
    'postgrey defers a new triplet with 451 and its text, and refuses an unknown user at once',
    async () => {
      const smtp = await rawConnect('127.0.0.81', 25);
      try {
        await smtp.reply();
        await smtp.send('EHLO probe.prober-ok.com');
        expect(await smtp.send('MAIL FROM:<raw@prober-ok.com>')).toEqual(['250 OK']);
        // postgrey's answer ends in a newline, which the README's ACL keeps: a second, empty line.
        expect(await smtp.send('RCPT TO:<alice@exim-grey.com>')).toEqual([
          '451-Greylisted, see http://postgrey.schweikert.ch/help/exim-grey.com.html',
          '451 ',
        ]);
        expect(await smtp.send('RCPT TO:<ghost@exim-grey.com>')).toEqual(['550 Unrouteable address']);
      } finally {
        smtp.close();
      }
    },
    CELL_TIMEOUT_MS,
  );
});

describe("a verdict's evidence against Exim (explain=true; docs/verification.md, real examples)", () => {
  it(
    "an unknown user: rule mailbox.unknown-user, Exim's own reply for the address",
    async () => {
      const { app, explained: key } = apps.routable;
      const answer = await explained(app, key, 'nobody@exim-mail.com');
      expect([answer.code, answer.rule]).toEqual([400, 'mailbox.unknown-user']);
      expect(answer.steps[0]).toMatchObject({ code: 220 });
      expect(answer.steps.find((s) => s.role === 'our-sender')).toMatchObject({ command: 'MAIL FROM:<verify@prober-ok.com>', code: 250 });
      expect(answer.steps.find((s) => s.role === 'address')).toMatchObject({
        command: 'RCPT TO:<nobody@exim-mail.com>',
        code: 550,
        text: 'Unrouteable address',
      });
      // Exim's greeting names the address we connected from: never shown (our egress is a label).
      expect(answer.steps.find((s) => s.command?.startsWith('EHLO'))?.text).toMatch(
        /^mx\.exim-mail\.com Hello probe\.prober-ok\.com \[\(address removed\)\] /,
      );
      expect(JSON.stringify(answer.steps)).not.toContain('127.0.0.1');
    },
    CELL_TIMEOUT_MS,
  );

  it(
    'sender verification refusing our MAIL FROM: no proof about the recipient, the three lines shown as Exim sent them',
    async () => {
      const { app, explained: key } = apps.unroutable;
      const answer = await explained(app, key, 'nobody@exim-sv.com');
      // A refusal that proves nothing about the recipient (the reply classifier reads the sender's lines), never 400.
      expect([answer.code, answer.rule]).toEqual([20, 'mailbox.policy']);
      expect(answer.steps.find((s) => s.role === 'address')).toMatchObject({
        code: 550,
        text: `Verification failed for <${UNROUTABLE_FROM}> Unrouteable address Sender verify failed`,
      });
    },
    CELL_TIMEOUT_MS,
  );
});
