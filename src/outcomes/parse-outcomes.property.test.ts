/**
 * Whatever arrives, parseOutcomes answers: events or a refusal, never an exception; and every
 * event it gives has what ingestion keys on (an address, an id) and no more text than it may keep.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { delivery, fixture, fixtureJson } from '../../test/fixtures/outcomes/load-fixture.js';
import { makeSigner, signSns, snsNotification, type TestSigner } from '../../test/fixtures/outcomes/sns-signing.js';
import { OUTCOME_SOURCES, type OutcomeDelivery, type OutcomeParse, type OutcomeSource } from './outcome-event.js';
import { parseOutcomes } from './parse-outcomes.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const STATUSES = new Set([400, 401, 413, 415, 422]);
let signer: TestSigner;

beforeAll(async () => {
  signer = await makeSigner();
});

/** What must hold of any answer; checked without `expect` per event (a 10 MB batch holds 50,000). */
function holds(result: OutcomeParse): void {
  if (!result.ok) {
    expect(STATUSES.has(result.refusal.status)).toBe(true);
    expect(result.refusal.message.length).toBeGreaterThan(0);
    // The catch-all for a parser's own bug (parse-outcomes.ts): no input may reach it.
    expect(result.refusal.message).not.toMatch(/^the \w+ body could not be read$/);
    expect(result).not.toHaveProperty('events');
    return;
  }
  const bad = result.events.filter(
    (event) =>
      event.email.trim() !== event.email ||
      !event.email.includes('@') ||
      event.eventId.length === 0 ||
      (event.diagnostic !== undefined && (event.diagnostic.length === 0 || event.diagnostic.length > 500)) ||
      Number.isNaN(event.occurredAt.getTime()),
  );
  expect(bad).toEqual([]);
}

const parse = (source: OutcomeSource, given: OutcomeDelivery) => parseOutcomes(source, given, {}, NOW, signer.ports());

const JSON_FIXTURES: [OutcomeSource, string][] = [
  ['sendgrid', 'sendgrid-events.json'],
  ['mailgun', 'mailgun-failed-permanent.json'],
  ['mailgun', 'mailgun-delivered.json'],
  ['postmark', 'postmark-hard-bounce.json'],
  ['postmark', 'postmark-delivery.json'],
  ['sparkpost', 'sparkpost-events.json'],
  ['ses', 'ses-bounce-permanent.json'],
  ['ses', 'ses-complaint.json'],
  ['ses', 'ses-delivery.json'],
];
const MIME_FIXTURES: [OutcomeSource, string][] = [
  ['dsn', 'dsn-failed.eml'],
  ['dsn', 'dsn-base64.eml'],
  ['arf', 'arf-abuse.eml'],
  ['arf', 'arf-redacted-rcpt.eml'],
];

/** Every path to a value inside a JSON document (objects and arrays both). */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const own = at.length > 0 ? [at] : [];
  if (Array.isArray(value)) return [...own, ...value.flatMap((item, index) => paths(item, [...at, index]))];
  if (typeof value === 'object' && value !== null)
    return [...own, ...Object.entries(value).flatMap(([key, item]) => paths(item, [...at, key]))];
  return own;
}

function replaced(document: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(document) as Record<string | number, unknown>;
  let node = copy;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  node[path.at(-1)!] = value;
  return copy;
}

/** A fixture as its source would post it; SES's inner notification is wrapped and signed like SNS does. */
function posted(source: OutcomeSource, document: unknown): OutcomeDelivery {
  if (source === 'ses') {
    const message = typeof document === 'string' ? document : JSON.stringify(document);
    return delivery(JSON.stringify(signSns(snsNotification(message), signer.privateKey)), 'text/plain; charset=UTF-8');
  }
  return delivery(JSON.stringify(document));
}

describe('parseOutcomes on any input', () => {
  it('answers any bytes under any content type, for every source', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...OUTCOME_SOURCES),
        fc.oneof(
          fc.uint8Array({ maxLength: 400 }).map((bytes) => Buffer.from(bytes)),
          fc.string({ maxLength: 400 }).map((text) => Buffer.from(text)),
        ),
        fc.constantFrom('application/json', 'text/plain', 'message/rfc822', 'multipart/report; boundary=x', 'text/html', ''),
        async (source, body, contentType) => holds(await parse(source, delivery(body, contentType))),
      ),
      { numRuns: 400 },
    );
  });

  it('answers any JSON value, for every JSON source', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<OutcomeSource>('ses', 'sendgrid', 'mailgun', 'postmark', 'sparkpost'),
        fc.jsonValue(),
        async (source, value) => holds(await parse(source, posted(source, value))),
      ),
      { numRuns: 400 },
    );
  });

  it('answers a documented webhook with any of its fields replaced by any JSON value', async () => {
    const cases = JSON_FIXTURES.map(([source, name]) => ({ source, document: fixtureJson(name) as unknown }));
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...cases)
          .chain(({ source, document }) =>
            fc.tuple(
              fc.constant(source),
              fc.constant(document),
              fc.array(fc.tuple(fc.constantFrom(...paths(document)), fc.jsonValue({ maxDepth: 2 })), { minLength: 1, maxLength: 3 }),
            ),
          ),
        async ([source, document, changes]) => {
          let changed = document;
          for (const [path, value] of changes) {
            try {
              changed = replaced(changed, path, value);
            } catch {
              // an earlier change removed the path: keep what there is
            }
          }
          holds(await parse(source, posted(source, changed)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('answers a report message with lines removed, repeated or replaced by any text', async () => {
    const cases = MIME_FIXTURES.map(([source, name]) => ({ source, lines: fixture(name).toString('utf8').split('\n') }));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...cases),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom('drop', 'repeat', 'replace'), fc.string({ maxLength: 80 })), {
          minLength: 1,
          maxLength: 6,
        }),
        async ({ source, lines }, edits) => {
          const edited = [...lines];
          for (const [at, edit, text] of edits) {
            const index = at % edited.length;
            if (edit === 'drop') edited.splice(index, 1);
            else if (edit === 'repeat') edited.splice(index, 0, edited[index]!);
            else edited[index] = text;
          }
          holds(await parse(source, delivery(edited.join('\n'), 'message/rfc822')));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('parseOutcomes on an unknown source', () => {
  it.each(['smtp', '__proto__', 'constructor', 'toString'])('refuses %s (422), naming it', async (source) => {
    const result = await parseOutcomes(source as OutcomeSource, delivery('[]'), {}, NOW);
    expect(result).toEqual({ ok: false, refusal: { status: 422, message: `unknown outcome source "${source}"` } });
  });
});

describe('parseOutcomes on a 10 MB body', () => {
  const TEN_MB = 10 * 1024 * 1024;
  const sendgridEvent = JSON.stringify({ event: 'bounce', email: 'a@b.example', sg_event_id: 'x', reason: '550 5.1.1 User unknown' });

  it.each<[string, OutcomeSource, () => Buffer, string]>([
    [
      'a SendGrid batch of ~50,000 events',
      'sendgrid',
      () =>
        Buffer.from(
          `[${Array(Math.floor(TEN_MB / (sendgridEvent.length + 1)))
            .fill(sendgridEvent)
            .join(',')}]`,
        ),
      'application/json',
    ],
    ['nested arrays', 'sparkpost', () => Buffer.from(`${'['.repeat(TEN_MB / 2)}${']'.repeat(TEN_MB / 2)}`), 'application/json'],
    [
      'one long reason',
      'mailgun',
      () =>
        Buffer.from(JSON.stringify({ 'event-data': { event: 'failed', id: 'x', recipient: 'a@b.example', reason: 'x'.repeat(TEN_MB) } })),
      'application/json',
    ],
    ['an unterminated string', 'postmark', () => Buffer.from(`{"RecordType":"${'a'.repeat(TEN_MB)}`), 'application/json'],
    [
      'a DSN with a huge diagnostic',
      'dsn',
      () =>
        Buffer.from(
          fixture('dsn-failed.eml')
            .toString()
            .replace('Recipient address', `Recipient ${'address '.repeat(TEN_MB / 8)}`),
        ),
      'message/rfc822',
    ],
    [
      'MIME nested past any limit',
      'arf',
      () =>
        Buffer.from(
          `Content-Type: multipart/report; report-type=feedback-report; boundary=b0\n\n${Array.from({ length: 2000 }, (_, i) => `--b${i}\nContent-Type: multipart/mixed; boundary=b${i + 1}\n\n`).join('')}${'x'.repeat(TEN_MB)}`,
        ),
      'message/rfc822',
    ],
    ['binary noise', 'ses', () => Buffer.alloc(TEN_MB, 0xfe), 'text/plain'],
  ])('%s: answers without throwing', async (_name, source, body, contentType) => {
    const result = await parse(source, delivery(body(), contentType));
    holds(result);
    if (source === 'sendgrid') expect(result.ok && result.events.length).toBeGreaterThan(40_000);
    if (source === 'dsn') expect(result.ok && result.events[0]!.diagnostic).toHaveLength(500);
  });
});
