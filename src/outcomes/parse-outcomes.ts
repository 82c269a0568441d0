/**
 * One webhook delivery in, the outcome events it reports out: the entry point ingestion calls.
 * Total: whatever the body, the answer is events or a refusal (status and message), never an
 * exception (but CertificateUnavailable, when the certificate port fails), and a refused delivery yields no event at all (an ESP retries on 4xx, and half a
 * batch stored would then be stored twice).
 *
 * Asynchronous for two sources only: DSN and ARF reports are read by a MIME parser that is, and
 * an SNS message's signing certificate comes through the `fetchCertificate` port (the one outbound
 * call, to a pinned Amazon host; see sns.ts). The JSON webhooks are parsed synchronously.
 */
import { parseDsn, parseArf } from './mime-reports.js';
import type { OutcomeDelivery, OutcomeEvent, OutcomeParse, OutcomeSecrets, OutcomeSource } from './outcome-event.js';
import { refusal, Refused } from './outcome-fields.js';
import { parseMailgun } from './mailgun.js';
import { parsePostmark } from './postmark.js';
import { parseSendgrid } from './sendgrid.js';
import { CertificateUnavailable, parseSes, type SnsCertificates } from './sns.js';
import { parseSparkpost } from './sparkpost.js';

export interface OutcomePorts {
  /** Amazon SNS signing certificates (PEM) by URL; only URLs on Amazon SNS hosts are ever asked for. */
  fetchCertificate?: SnsCertificates['fetchCertificate'];
}

export interface ParsedDelivery {
  events: OutcomeEvent[];
  subscribeUrl?: string;
}

type Parser = (
  delivery: OutcomeDelivery,
  secrets: OutcomeSecrets,
  now: Date,
  ports: OutcomePorts,
) => OutcomeEvent[] | Promise<ParsedDelivery>;

const PARSERS: Record<OutcomeSource, Parser> = {
  ses: (delivery, _secrets, now, ports) => parseSes(delivery, now, ports),
  sendgrid: parseSendgrid,
  mailgun: parseMailgun,
  postmark: parsePostmark,
  sparkpost: parseSparkpost,
  dsn: parseDsn,
  arf: parseArf,
};

export async function parseOutcomes(
  source: OutcomeSource,
  delivery: OutcomeDelivery,
  secrets: OutcomeSecrets,
  now: Date,
  ports: OutcomePorts = {},
): Promise<OutcomeParse> {
  // The source comes from the URL: never a prototype's property.
  if (!Object.hasOwn(PARSERS, source)) return refusal(422, `unknown outcome source ${JSON.stringify(String(source).slice(0, 40))}`);
  const parser = PARSERS[source];
  try {
    const parsed = await parser(delivery, secrets, now, ports);
    return Array.isArray(parsed) ? { ok: true, events: parsed } : { ok: true, ...parsed };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, refusal: error.refusal };
    // The certificate port failed: not the body's fault; the caller answers 5xx and SNS retries.
    if (error instanceof CertificateUnavailable) throw error;
    // A parser bug must not become a 500 that the ESP retries forever: the body is refused, and
    // the message names no part of it (it may hold addresses).
    return refusal(422, `the ${source} body could not be read`);
  }
}
