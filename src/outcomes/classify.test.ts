import { describe, expect, it } from 'vitest';
import { classifyOutcome } from './classify.js';
import type { OutcomeEffect, OutcomeEvent, OutcomeKind } from './outcome-event.js';
import { replyCodes } from './outcome-fields.js';

function event(kind: OutcomeKind, diagnostic?: string, status?: string): OutcomeEvent {
  const codes = replyCodes(diagnostic);
  const enhancedStatus = status ?? codes.enhancedStatus;
  return {
    source: 'dsn',
    eventId: 'e',
    email: 'someone@receiver.example',
    kind,
    ...(enhancedStatus ? { enhancedStatus } : {}),
    ...(codes.smtpCode !== undefined ? { smtpCode: codes.smtpCode } : {}),
    ...(diagnostic ? { diagnostic } : {}),
    occurredAt: new Date(0),
  };
}

// Real-world reply texts of permanent bounces, paraphrased from the receivers' and ESPs' published examples.
const hardBounces: [OutcomeEffect, string, string?][] = [
  // the mailbox does not exist: proof
  [
    'add-bouncer',
    "550 5.1.1 The email account that you tried to reach does not exist. Please try double-checking the recipient's email address",
  ],
  ['add-bouncer', 'smtp; 550 5.1.1 <nobody@receiver.example>: Recipient address rejected: User unknown in virtual mailbox table'],
  ['add-bouncer', '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup'],
  ['add-bouncer', "554 delivery error: dd This user doesn't have a yahoo.com account (someone@yahoo.com) [0]"],
  ['add-bouncer', '550 5.5.0 Requested action not taken: mailbox unavailable'],
  ['add-bouncer', '511 sorry, no mailbox here by that name (#5.1.1 - chkuser)'],
  ['add-bouncer', 'smtp; 550 Unrouteable address'],
  ['add-bouncer', 'Amazon SES reported the address as not existing', '5.1.1'],
  ['add-bouncer', '550 #5.1.0 Address rejected'],
  // disabled: proof
  ['add-bouncer', '550 5.2.1 The email account that you tried to reach is disabled.'],
  ['add-bouncer', '550 Mailbox disabled for this recipient'],
  ['add-bouncer', '554 5.0.0 This account has been disabled or discontinued'],
  ['add-bouncer', '554 30 mailbox is disabled'],
  // policy, reputation, content: never proof, whatever the code says
  ['count-only', '554 5.7.1 Service unavailable; Client host [192.0.2.25] blocked using zen.spamhaus.org'],
  ['count-only', '550 5.7.1 Our system has detected that this message is likely unsolicited mail.'],
  ['count-only', '550 5.7.26 This message does not pass authentication checks (SPF and DKIM both do not pass).'],
  ['count-only', '550 5.1.1 Recipient rejected: blocked by spam filter'],
  ['count-only', '552 5.7.0 This message was blocked because its content presents a potential security issue.'],
  ['count-only', '550 5.7.606 Access denied, banned sending IP [192.0.2.25].'],
  ['count-only', '554 5.2.1 Message rejected as spam by Content Filtering.'],
  ['count-only', '550 5.2.1 The user you are trying to contact is receiving mail at a rate that prevents additional messages'],
  // a full mailbox exists; other permanent failures prove nothing about it
  ['count-only', '552 5.2.2 The email account that you tried to reach is over quota.'],
  ['count-only', '554 5.4.7 [internal] exceeded max time without successful delivery'],
  ['count-only', '550 5.4.1 Recipient address rejected: Access denied'],
  ['count-only', '552 5.3.4 Message size exceeds fixed limit'],
  ['count-only', 'Unable to deliver'],
  // an ESP that called it permanent on a temporary reply
  ['count-only', '421 4.4.2 Connection dropped'],
  // the sender's own address refused (5.1.7 / 5.1.8): not the recipient
  ['count-only', '550 5.1.8 <bounce@sender.example>: Sender address rejected: Domain not found'],
];

describe('classifyOutcome', () => {
  it.each(hardBounces)('a permanent bounce: %s for %s', (effect, diagnostic, status) => {
    expect(classifyOutcome(event('bounce', diagnostic, status))).toBe(effect);
  });

  it.each([
    ['complaint', 'add-complainer'],
    ['delivery', 'remove-outcome-entries'],
  ] as const)('%s: %s', (kind, effect) => {
    expect(classifyOutcome(event(kind))).toBe(effect);
  });

  it.each(['deferral', 'blocked'] as const)('a %s only counts, even when its text names an unknown user', (kind) => {
    expect(classifyOutcome(event(kind, '550 5.1.1 User unknown'))).toBe('count-only');
  });

  it('a permanent bounce with nothing to read proves nothing', () => {
    expect(classifyOutcome(event('bounce'))).toBe('count-only');
  });
});
