import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyEnvelopeReply, classifyRcptReply, isTooManyRecipients, type ReplyClass } from './reply-class.js';
import { ReplyReader } from './smtp-reply.js';

/** Classify a reply as it comes off the wire (lines without CRLF; `|` separates lines). */
function classify(wire: string) {
  const { replies, error } = new ReplyReader().push(Buffer.from(`${wire.split('|').join('\r\n')}\r\n`));
  if (error || replies.length !== 1) throw new Error(`bad fixture ${wire}: ${error}`);
  return classifyRcptReply(replies[0]!);
}

const cases: [ReplyClass, string][] = [
  // accepted
  ['accepted', '250 2.1.5 OK a1si123 - gsmtp'],
  ['accepted', '250 Accepted'],
  ['accepted', '250 2.1.5 Recipient <a@b.com> OK'],
  ['accepted', '251 2.1.5 User not local; will forward'],
  // no such mailbox
  [
    'no-mailbox',
    "550-5.1.1 The email account that you tried to reach does not exist. Please try|550-5.1.1 double-checking the recipient's email address for typos or|550-5.1.1 unnecessary spaces. For more information, go to|550 5.1.1  https://support.google.com/mail/?p=NoSuchUser 41be03b00d2f7-b1si - gsmtp",
  ],
  ['no-mailbox', '550 5.5.0 Requested action not taken: mailbox unavailable (S2017062302). [AM0PR01MB1234.eurprd01.prod.exchangelabs.com]'],
  ['no-mailbox', "554 delivery error: dd This user doesn't have a yahoo.com account (someone@yahoo.com) [0] - mta1234.mail.ne1.yahoo.com"],
  ['no-mailbox', '550 5.1.1 <nobody@example.com>: Recipient address rejected: User unknown in virtual mailbox table'],
  ['no-mailbox', '550 5.1.1 <x@icloud.com>: user does not exist'],
  ['no-mailbox', '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup'],
  ['no-mailbox', '550 5.1.0 Address rejected.'],
  ['no-mailbox', '550 5.1.1 User unknown'],
  ['no-mailbox', '553 5.1.3 The recipient address <a@@b.com> is not a valid RFC-5321 address.'],
  ['no-mailbox', '550 Unrouteable address'],
  // Exim 4.96 verifying recipients by callout: the backend's refusal, then (asked again) its cache of it
  ['no-mailbox', '550-Callout verification failed:|550 550 Unrouteable address'],
  ['no-mailbox', '550 Previous (cached) callout verification failure'],
  ['no-mailbox', '550 Invalid Recipient - https://community.mimecast.com/docs/DOC-1369#550'],
  ['no-mailbox', '550 No such user here'],
  ['no-mailbox', '550 5.0.0 <a@b.com>: Recipient address rejected: User unknown'],
  ['no-mailbox', '511 sorry, no mailbox here by that name (#5.1.1 - chkuser)'],
  // Haraka 3.1: no rcpt plugin accepted the address (qmail-deliverable: not deliverable)
  ['no-mailbox', '550 I cannot deliver mail for <ghost@haraka-mail.com>'],
  // Haraka 3.1's haraka-dsn mbox_full(), its quota plugins' answer
  ['mailbox-full', '450 4.2.2 Mailbox full'],
  // mailbox full
  [
    'mailbox-full',
    '552-5.2.2 The email account that you tried to reach is over quota. Please direct|552 5.2.2 the recipient to https://support.google.com/mail/?p=OverQuotaPerm',
  ],
  [
    'mailbox-full',
    '452-4.2.2 The email account that you tried to reach is over quota.|452 4.2.2 https://support.google.com/mail/?p=OverQuotaTemp',
  ],
  ['mailbox-full', '552 Mailbox size limit exceeded'],
  ['mailbox-full', '452 Insufficient system storage'],
  ['mailbox-full', '550 5.0.0 mailbox full'],
  // policy: our probe, not the mailbox
  [
    'policy',
    '554 5.7.1 Service unavailable; Client host [198.51.100.7] blocked using zen.spamhaus.org; https://www.spamhaus.org/query/ip/198.51.100.7',
  ],
  [
    'policy',
    '550 5.7.1 Service unavailable, Client host [198.51.100.7] blocked using Spamhaus. To request removal from this list see https://www.spamhaus.org/query/ip/198.51.100.7 (AS3130). [BN8NAM12FT042.eop-nam12.prod.protection.outlook.com]',
  ],
  [
    'policy',
    '550 5.7.606 Access denied, banned sending IP [198.51.100.7]. To request removal from this list please visit https://sender.office.com/',
  ],
  [
    'policy',
    "553 5.7.1 [BL21] Connections will not be accepted from 198.51.100.7, because the ip is in Spamhaus's list; see https://postmaster.yahooinc.com/error-codes",
  ],
  ['policy', '550-5.7.1 [198.51.100.7] Our system has detected that this message is|550 5.7.1 likely unsolicited mail. - gsmtp'],
  ['policy', '554 5.7.1 <a@b.com>: Relay access denied'],
  ['policy', '550 Administrative prohibition - envelope blocked'],
  ['policy', "554 Your access to this mail system has been rejected due to the sending MTA's poor reputation."],
  ['policy', '550 permanent failure for one or more recipients (a@b.com:blocked)'],
  ['policy', '550 Recipient rejected: blocked by policy'],
  ['policy', '550 5.7.1 blocked by policy'],
  ['policy', '550 5.1.8 <verify@mailsure.com>: Sender address rejected: Domain not found'],
  ['policy', '550 5.1.1 Recipient rejected: sending host listed on RBL'],
  ['policy', '554 Access denied'],
  // Haraka 3.1's mail_from.is_resolvable (at MAIL FROM) and helo.checks (at EHLO)
  ['policy', '550 No MX for your FROM address'],
  ['policy', '550 HELO host has no forward DNS match'],
  // our sender or connection refused, on any line of the reply (real MTAs, test/conformance/):
  // Exim 4.96's sender verification, upstream and Debian wording: never the recipient's fault
  ['policy', '550-Verification failed for <verify@prober.example>|550-Unrouteable address|550 Sender verify failed'],
  ['policy', '550-Verification failed for <verify@prober.example>|550-Unknown user|550 Sender verify failed'],
  ['policy', '550 5.1.1 Sender verify failed'],
  ['policy', '554 5.1.1 <unknown[198.51.100.7]>: Client host rejected: no such user'],
  ['temporary', '451 Could not complete sender verify'],
  ['temporary', '450 4.1.1 <nobody@prober.example>: Sender address rejected: User unknown'],
  // rejected for another reason (a disabled account is not proof the address never existed)
  [
    'rejected-other',
    '554 delivery error: dd Sorry your message to someone@aol.com cannot be delivered. This mailbox is disabled (554.30). - mta4.mail.gq1.yahoo.com',
  ],
  [
    'rejected-other',
    '550-5.2.1 The email account that you tried to reach is disabled.|550 5.2.1 https://support.google.com/mail/?p=DisabledUser',
  ],
  [
    'rejected-other',
    '550 5.4.1 Recipient address rejected: Access denied. AS(201806281) [DM6NAM12FT012.eop-nam12.prod.protection.outlook.com]',
  ],
  ['rejected-other', '554 5.3.4 Message too big for system'],
  ['rejected-other', '550 Requested action not taken'],
  ['rejected-other', '501 5.5.4 Invalid address'],
  // temporary
  ['temporary', '451 4.3.0 temporary failure, try again later'],
  ['temporary', '450 4.7.1 <a@b.com>: Recipient address rejected: Greylisted, see http://postgrey.schweikert.ch/help/b.com.html'],
  ['temporary', '451 4.7.1 Greylisting in action, please come back later'],
  [
    'temporary',
    '450-4.2.1 The user you are trying to contact is receiving mail at a rate that|450 4.2.1 prevents additional messages from being delivered. - gsmtp',
  ],
  ['temporary', '421 4.7.0 [TSS04] Messages from 198.51.100.7 temporarily deferred due to unexpected volume or user complaints'],
  ['temporary', '451 Temporary local problem - please try later'],
  ['temporary', '450 Requested mail action not taken: mailbox unavailable'],
  ['temporary', '452 4.5.3 Error: too many recipients'],
  ['temporary', '452 Too many recipients received this hour'],
  ['temporary', '450 4.0.0 mailbox full'],
];

describe('RCPT reply classification', () => {
  it.each(cases)('%s ← %s', (expected, wire) => {
    expect(classify(wire).class).toBe(expected);
  });

  it('flags greylisting only on temporary replies that say so', () => {
    expect(classify('450 4.7.1 greylisted, try again later').greylisted).toBe(true);
    expect(classify('451 4.7.1 Please try again later (graylisted)').greylisted).toBe(true);
    expect(classify('451 4.3.0 temporary failure').greylisted).toBe(false);
    expect(classify('550 5.7.1 you were greylisted and are now blocked').greylisted).toBe(false);
  });

  it('enhanced code first: the text does not override it', () => {
    expect(classifyRcptReply({ code: 550, enhanced: '5.7.1', text: 'user unknown' }).class).toBe('policy');
    expect(classifyRcptReply({ code: 550, enhanced: '5.1.1', text: 'whatever' }).class).toBe('no-mailbox');
  });

  it('ignores an enhanced code whose class contradicts the reply code', () => {
    expect(classifyRcptReply({ code: 550, text: '2.1.5 user unknown' }).class).toBe('no-mailbox');
    expect(classifyRcptReply({ code: 250, text: '5.1.1 ok' }).class).toBe('accepted');
    expect(classifyRcptReply({ code: 451, text: '5.1.1 try later' }).class).toBe('temporary');
  });

  it('never calls an unexpected code proof', () => {
    expect(classifyRcptReply({ code: 354, text: 'go ahead' }).class).toBe('rejected-other');
    expect(classifyRcptReply({ code: 199, text: '' }).class).toBe('rejected-other');
  });

  it('envelope refusals are about the probe', () => {
    expect(classifyEnvelopeReply({ code: 550, text: '5.1.1 sender unknown' })).toEqual({ class: 'policy', greylisted: false });
    expect(classifyEnvelopeReply({ code: 451, text: '4.7.1 greylisted' })).toEqual({ class: 'temporary', greylisted: true });
  });

  it('recognises "too many recipients"', () => {
    expect(isTooManyRecipients({ code: 452, text: '4.5.3 Error: too many recipients' })).toBe(true);
    expect(isTooManyRecipients({ code: 452, text: 'Too many recipients' })).toBe(true);
    expect(isTooManyRecipients({ code: 452, text: '4.2.2 mailbox full' })).toBe(false);
    expect(isTooManyRecipients({ code: 550, text: '5.5.3 too many recipients' })).toBe(false);
  });

  it('property: total and never throws; only 2xx is accepted, only 4xx is temporary or 452/4.2.2-full', () => {
    const classes = new Set(['accepted', 'no-mailbox', 'mailbox-full', 'policy', 'rejected-other', 'temporary']);
    const enhanced = fc.option(
      fc
        .tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 999 }))
        .map((parts) => parts.join('.')),
      { nil: undefined },
    );
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 1000 }), enhanced, fc.string({ maxLength: 120 }), (code, enhanced, text) => {
        const result = classifyRcptReply(enhanced === undefined ? { code, text } : { code, enhanced, text });
        expect(classes.has(result.class)).toBe(true);
        if (result.class === 'accepted') expect(code >= 200 && code < 300).toBe(true);
        if (code >= 400 && code < 500) expect(['temporary', 'mailbox-full']).toContain(result.class);
        if (code >= 200 && code < 300) expect(result.class).toBe('accepted');
        if (result.greylisted) expect(code >= 400 && code < 500).toBe(true);
      }),
    );
  });

  it('property: a 4xx is never proof of a missing mailbox', () => {
    fc.assert(
      fc.property(fc.integer({ min: 400, max: 499 }), fc.string(), (code, text) => {
        expect(classifyRcptReply({ code, text }).class).not.toBe('no-mailbox');
      }),
    );
  });
});
