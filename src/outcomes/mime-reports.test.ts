import { describe, expect, it } from 'vitest';
import { delivery, eventsOf, fixture, refusalOf } from '../../test/fixtures/outcomes/load-fixture.js';
import { classifyOutcome } from './classify.js';
import type { OutcomeSource } from './outcome-event.js';
import { parseOutcomes } from './parse-outcomes.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const parse = (source: OutcomeSource, body: Buffer | string, contentType = 'message/rfc822') =>
  parseOutcomes(source, delivery(body, contentType), {}, NOW);

/** A report posted as its body alone, its headers (the boundary) in the request's Content-Type. */
function asReportBody(message: Buffer): { body: Buffer; contentType: string } {
  const text = message.toString('utf8');
  const split = text.indexOf('\n\n');
  const headers = text.slice(0, split).replace(/\n[ \t]+/g, ' ');
  const contentType = /^Content-Type:\s*(.*)$/im.exec(headers)![1]!;
  return { body: Buffer.from(text.slice(split + 2)), contentType };
}

describe('delivery status notifications (RFC 3464)', () => {
  it('gives one event per recipient, by its Action', async () => {
    const events = eventsOf(await parse('dsn', fixture('dsn-failed.eml')));
    expect(events.map((event) => [event.email, event.kind, event.enhancedStatus, classifyOutcome(event)])).toEqual([
      ['gone@receiver.example', 'bounce', '5.1.1', 'add-bouncer'],
      ['listed@receiver.example', 'bounce', '5.7.1', 'count-only'],
      ['slow@receiver.example', 'deferral', '4.4.1', 'count-only'],
    ]);
    expect(events[0]).toMatchObject({
      source: 'dsn',
      smtpCode: 550,
      diagnostic: '550 5.1.1 <*@receiver.example>: Recipient address rejected: User unknown in local recipient table',
      occurredAt: new Date('2026-01-15T08:30:58Z'),
    });
  });

  it('names each event by a SHA-256 of its fields: the same report gives the same ids, each recipient its own', async () => {
    const first = eventsOf(await parse('dsn', fixture('dsn-failed.eml')));
    const again = eventsOf(await parse('dsn', fixture('dsn-failed.eml')));
    expect(first.map((event) => event.eventId)).toEqual(again.map((event) => event.eventId));
    expect(new Set(first.map((event) => event.eventId)).size).toBe(3);
    for (const event of first) expect(event.eventId).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reads the report posted as multipart/report (the boundary in the request header)', async () => {
    const { body, contentType } = asReportBody(fixture('dsn-failed.eml'));
    const events = eventsOf(await parse('dsn', body, contentType));
    expect(events.map((event) => event.email)).toEqual(['gone@receiver.example', 'listed@receiver.example', 'slow@receiver.example']);
  });

  it('decodes a base64 delivery-status part; a disabled mailbox (5.2.1) proves it', async () => {
    const [event] = eventsOf(await parse('dsn', fixture('dsn-base64.eml')));
    expect(event).toMatchObject({ email: 'disabled@receiver.example', kind: 'bounce', enhancedStatus: '5.2.1' });
    expect(classifyOutcome(event!)).toBe('add-bouncer');
  });

  it('refuses a report without a delivery-status part (422), whatever its text says', async () => {
    const refusal = refusalOf(await parse('dsn', fixture('dsn-without-status.eml')));
    expect(refusal).toEqual({ status: 422, message: expect.stringMatching(/no message\/delivery-status part/) });
  });

  it.each([
    ['a plain message', 'From: a@b.example\nTo: c@d.example\nSubject: hi\n\nhello\n', /expected a multipart\/report/],
    ['an abuse report', fixture('arf-abuse.eml').toString(), /expected report-type=delivery-status/],
  ])('refuses %s (422)', async (_name, body, message) => {
    expect(refusalOf(await parse('dsn', body))).toMatchObject({ status: 422, message: expect.stringMatching(message) });
  });

  it('refuses a JSON body (415)', async () => {
    expect(refusalOf(await parse('dsn', '{}', 'application/json')).status).toBe(415);
  });
});

describe('abuse reports (ARF, RFC 5965)', () => {
  it('an abuse report is a complaint about its Original-Rcpt-To', async () => {
    const events = eventsOf(await parse('arf', fixture('arf-abuse.eml')));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ source: 'arf', email: 'annoyed@receiver.example', kind: 'complaint' });
    expect(events[0]!.occurredAt).toEqual(new Date('2026-01-16T09:58:00Z'));
    expect(events[0]!.eventId).toMatch(/^[0-9a-f]{64}$/);
    expect(classifyOutcome(events[0]!)).toBe('add-complainer');
  });

  it('without Original-Rcpt-To, takes the To of the original message', async () => {
    const events = eventsOf(await parse('arf', fixture('arf-redacted-rcpt.eml')));
    expect(events.map((event) => event.email)).toEqual(['other@receiver.example']);
  });

  it('without Original-Rcpt-To, reads the To of an attached message/rfc822 too', async () => {
    const body = fixture('arf-abuse.eml')
      .toString()
      .replace(/^Original-Rcpt-To: .*\n/m, '');
    expect(body).not.toContain('Original-Rcpt-To');
    expect(eventsOf(await parse('arf', body)).map((event) => event.email)).toEqual(['annoyed@receiver.example']);
  });

  it('a not-spam report changes nothing', async () => {
    expect(eventsOf(await parse('arf', fixture('arf-not-spam.eml')))).toEqual([]);
  });

  it('refuses an abuse report that names no recipient', async () => {
    const body = fixture('arf-redacted-rcpt.eml')
      .toString()
      .replace(/^To: "Someone Annoyed".*$/m, 'X-Redacted: yes');
    expect(refusalOf(await parse('arf', body))).toMatchObject({ status: 422, message: expect.stringMatching(/no recipient/) });
  });

  it('refuses a DSN posted as an abuse report', async () => {
    expect(refusalOf(await parse('arf', fixture('dsn-failed.eml'))).status).toBe(422);
  });
});
