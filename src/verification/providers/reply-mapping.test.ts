/**
 * Each profile's replies, as the providers send them, judged with the profile's mapping: which are
 * proof of an unknown user, which refuse us, which ask us to slow down. And the other side: the
 * same reply at a provider without that mapping is judged by the standard rules alone.
 */
import { describe, expect, it } from 'vitest';
import { classifyEnvelopeReply, classifyRcptReply, type ReplyClassification } from '../smtp/reply-class.js';
import { ReplyReader } from '../smtp/smtp-reply.js';
import { PROFILES } from './profiles.js';

/** A reply as it comes off the wire (`|` separates lines). */
function reply(wire: string) {
  const { replies, error } = new ReplyReader().push(Buffer.from(`${wire.split('|').join('\r\n')}\r\n`));
  if (error || replies.length !== 1) throw new Error(`bad fixture ${wire}: ${error}`);
  return replies[0]!;
}

const mapping = (id: string) => PROFILES.find((p) => p.id === id)!.replies;
const judged = (id: string, wire: string): Pick<ReplyClassification, 'class' | 'signal'> => {
  const { class: c, signal } = classifyRcptReply(reply(wire), mapping(id));
  return signal ? { class: c, signal } : { class: c };
};

type Case = [profile: string, wire: string, expected: Pick<ReplyClassification, 'class' | 'signal'>];
const UNKNOWN = { class: 'no-mailbox' } as const;
const BLOCKED = { class: 'policy', signal: 'blocked' } as const;
const BLOCKED_4XX = { class: 'temporary', signal: 'blocked' } as const;
const SLOW = { class: 'temporary', signal: 'throttled' } as const;

const cases: Case[] = [
  // Gmail / Google Workspace
  [
    'google',
    "550-5.1.1 The email account that you tried to reach does not exist. Please try|550-5.1.1 double-checking the recipient's email address for typos or|550 5.1.1 unnecessary spaces. https://support.google.com/mail/?p=NoSuchUser a1si - gsmtp",
    UNKNOWN,
  ],
  [
    'google',
    '550 5.2.1 The email account that you tried to reach is disabled. https://support.google.com/mail/?p=DisabledUser - gsmtp',
    UNKNOWN,
  ],
  [
    'google',
    "550-5.7.1 [192.0.2.1] The IP you're using to send mail is not authorized to send email|550 5.7.1 directly to our servers. Please use the SMTP relay at your service provider instead. - gsmtp",
    BLOCKED,
  ],
  ['google', '421 4.7.0 IP not in whitelist for RCPT domain, closing connection. - gsmtp', BLOCKED_4XX],
  [
    'google',
    '421-4.7.0 [192.0.2.1] Our system has detected an unusual rate of unsolicited mail originating|421-4.7.0 from your IP address. To protect our users from spam, mail sent from your IP|421 4.7.0 address has been temporarily rate limited. - gsmtp',
    SLOW,
  ],
  ['google', '421 4.7.0 Try again later, closing connection. - gsmtp', SLOW],
  [
    'google',
    '421 4.7.28 [192.0.2.1] Our system has detected an unusual rate of unsolicited mail originating from your IP address. - gsmtp',
    SLOW,
  ],
  [
    'google',
    '450-4.2.1 The user you are trying to contact is receiving mail at a rate that|450 4.2.1 prevents additional messages from being delivered. - gsmtp',
    SLOW,
  ],
  ['google', '421 4.4.5 Server busy, try again later. - gsmtp', SLOW],
  ['google', '250 2.1.5 OK a1si - gsmtp', { class: 'accepted' }],
  // Microsoft 365 (Exchange Online Protection)
  [
    'microsoft-365',
    '550 5.4.1 Recipient address rejected: Access denied. For more information see https://aka.ms/EXOSmtpErrors [BN1NAM02FT012.eop-nam02.prod.protection.outlook.com]',
    UNKNOWN,
  ],
  [
    'microsoft-365',
    '550 5.4.1 [nobody@acme.com]: Recipient address rejected: Access denied [CY1GCC01FT007.eop-gcc01.prod.protection.outlook.com]',
    UNKNOWN,
  ],
  [
    'microsoft-365',
    '550 5.7.606 Access denied, banned sending IP [192.0.2.1]. To request removal from this list please visit https://sender.office.com/ and follow the directions. AS(1430)',
    BLOCKED,
  ],
  ['microsoft-365', '550 5.7.708 Access denied, traffic not accepted from this IP.', BLOCKED],
  [
    'microsoft-365',
    '550 5.7.1 Service unavailable, Client host [192.0.2.1] blocked using Spamhaus. To request removal from this list see https://www.spamhaus.org/query/ip/192.0.2.1 (AS3130)',
    BLOCKED,
  ],
  [
    'microsoft-365',
    '451 4.7.500 Server busy. Please try again later from [192.0.2.1]. (AS761) [BN1NAM02FT012.eop-nam02.prod.protection.outlook.com]',
    SLOW,
  ],
  ['microsoft-365', '421 4.3.2 The maximum number of concurrent connections has exceeded a limit, closing transmission channel', SLOW],
  ['microsoft-365', '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup', UNKNOWN],
  // Outlook.com
  [
    'outlook-com',
    '550 5.5.0 Requested action not taken: mailbox unavailable (S2017062302). [AM0PR01MB1234.eurprd01.prod.exchangelabs.com]',
    UNKNOWN,
  ],
  [
    'outlook-com',
    "550 5.7.1 Unfortunately, messages from [192.0.2.1] weren't sent. Please contact your Internet service provider since part of their network is on our block list (S3150).",
    BLOCKED,
  ],
  ['outlook-com', '421 4.7.650 The mail server [192.0.2.1] has been temporarily rate limited due to IP reputation.', SLOW],
  // Yahoo / AOL (never probed at RCPT; the mapping serves banners and MAIL FROM)
  [
    'yahoo',
    "553 5.7.1 [BL21] Connections will not be accepted from 192.0.2.1, because the ip is in Spamhaus's list; see https://postmaster.yahooinc.com/error-codes",
    BLOCKED,
  ],
  ['yahoo', '421 4.7.1 [TS03] All messages from 192.0.2.1 will be permanently deferred; Retrying will NOT succeed.', BLOCKED_4XX],
  [
    'yahoo',
    '421 4.7.0 [TSS04] Messages from 192.0.2.1 temporarily deferred due to unexpected volume or user complaints - 4.16.55.1; see https://postmaster.yahooinc.com/error-codes',
    SLOW,
  ],
  // iCloud
  ['icloud', '550 5.1.1 <nobody@icloud.com>: user does not exist', UNKNOWN],
  ['icloud', '550 5.7.1 [CS01] Message rejected due to local policy. Please visit https://support.apple.com/en-us/HT204137', BLOCKED],
  [
    'icloud',
    '421 4.7.1 Messages to alice@icloud.com deferred due to excessive volume. Try again later - https://support.apple.com/en-us/HT204137',
    SLOW,
  ],
  ['icloud', '451 4.7.1 Service unavailable - try again later', SLOW],
  // Mimecast (no enhanced codes)
  ['mimecast', '550 Invalid Recipient - https://community.mimecast.com/docs/DOC-1369#550 [Zs6PjXrGNVW9dE1dQ.uk12]', UNKNOWN],
  [
    'mimecast',
    '550 csi.mimecast.org Poor Reputation Sender. - https://community.mimecast.com/docs/DOC-1369#550 [6ATVl4DjOvSA6XNsWGoUFw.us31]',
    BLOCKED,
  ],
  ['mimecast', '550 Envelope blocked - User Entry - https://community.mimecast.com/docs/DOC-1369#550', BLOCKED],
  ['mimecast', '451 Internal resources are temporarily unavailable - https://community.mimecast.com/docs/DOC-1369#451 [x.us50]', SLOW],
  ['mimecast', '421 Unable to process connection at this time - https://community.mimecast.com/docs/DOC-1369#421', SLOW],
  // Proofpoint
  ['proofpoint', '550 5.1.1 User Unknown', UNKNOWN],
  ['proofpoint', '550 5.7.1 Recipient address rejected: User email address is marked as invalid', UNKNOWN],
  ['proofpoint', '554 Blocked - see https://ipcheck.proofpoint.com/?ip=192.0.2.1', BLOCKED],
  [
    'proofpoint',
    '550 5.7.0 Mail from 192.0.2.1 refused by Proofpoint Reputation Services. See https://support.proofpoint.com/dnsbl-lookup.cgi?ip=192.0.2.1',
    BLOCKED,
  ],
  ['proofpoint', '421 4.3.2 Connection rate limit exceeded.', SLOW],
  ['proofpoint', '421 4.3.2 Too many open connections.', SLOW],
  // Barracuda
  ['barracuda', '550 No such user (nobody@acme.com)', UNKNOWN],
  ['barracuda', '550 cuda_nsu 5.1.1 <nobody@acme.com>: Recipient address rejected: User unknown', UNKNOWN],
  [
    'barracuda',
    '554 Service unavailable; Client host [192.0.2.1] blocked using Barracuda Reputation; http://www.barracudanetworks.com/reputation/?r=1&ip=192.0.2.1',
    BLOCKED,
  ],
  ['barracuda', '421 Rate limit exceeded, try again later', SLOW],
];

describe('provider reply mappings', () => {
  it.each(cases)('%s: %s', (id, wire, expected) => {
    expect(judged(id, wire)).toEqual(expected);
  });

  it('a refusal of us or a request to slow down is never proof against the address, at any provider', () => {
    for (const [id, wire, expected] of cases) {
      if (!expected.signal) continue;
      for (const profile of PROFILES) {
        const { class: c } = classifyRcptReply(reply(wire), profile.replies);
        expect([profile.id, id, c]).not.toEqual([profile.id, id, 'no-mailbox']);
      }
    }
  });

  it("Microsoft 365's 5.4.1 is proof only where Directory-Based Edge Blocking sends it", () => {
    const dbeb = reply('550 5.4.1 Recipient address rejected: Access denied. AS(201806281)');
    expect(classifyRcptReply(dbeb).class).toBe('rejected-other');
    expect(classifyRcptReply(dbeb, mapping('google')).class).toBe('rejected-other');
    expect(classifyRcptReply(dbeb, mapping('microsoft-365')).class).toBe('no-mailbox');
    // The same words naming a block list are a refusal of us, never proof.
    expect(
      classifyRcptReply(reply('550 5.4.1 Recipient address rejected: Access denied, listed on zen.spamhaus.org'), mapping('microsoft-365'))
        .class,
    ).toBe('policy');
  });

  it("without a profile's mapping, the standard rules decide (no signal)", () => {
    expect(classifyRcptReply(reply('421 4.7.0 Try again later, closing connection. - gsmtp'))).toEqual({
      class: 'temporary',
      greylisted: false,
    });
    expect(classifyRcptReply(reply('550 5.7.1 [CS01] Message rejected due to local policy.'))).toEqual({
      class: 'policy',
      greylisted: false,
    });
  });

  it('an accepted recipient stays accepted whatever the mapping', () => {
    for (const profile of PROFILES)
      expect(classifyRcptReply(reply('250 2.1.5 Recipient OK, blocked list checked'), profile.replies).class).toBe('accepted');
  });

  it('envelope refusals carry the signal too (MAIL FROM, banner)', () => {
    expect(
      classifyEnvelopeReply(
        reply('421 4.7.0 [TSS04] Messages from 192.0.2.1 temporarily deferred due to unexpected volume or user complaints'),
        mapping('yahoo'),
      ),
    ).toEqual({
      class: 'temporary',
      greylisted: false,
      signal: 'throttled',
    });
    expect(classifyEnvelopeReply(reply('554 Blocked - see https://ipcheck.proofpoint.com/?ip=192.0.2.1'), mapping('proofpoint'))).toEqual({
      class: 'policy',
      greylisted: false,
      signal: 'blocked',
    });
    expect(classifyEnvelopeReply(reply('554 no SMTP service here'), mapping('proofpoint'))).toEqual({ class: 'policy', greylisted: false });
  });
});
