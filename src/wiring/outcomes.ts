/**
 * Outcome ingestion over the stores: the parsers and classification of src/outcomes/, the
 * record's HMAC ids, and the one outbound call ingestion makes: Amazon SNS signing certificates,
 * fetched over HTTPS only from a pinned Amazon SNS host, bounded in time and size, cached by URL
 * (outcomes/sns-certificates.ts).
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { classifyOutcome } from '../outcomes/classify.js';
import { createOutcomeIngest, type OutcomeIngest } from '../outcomes/ingest-outcomes.js';
import { parseOutcomes, type OutcomePorts } from '../outcomes/parse-outcomes.js';
import { snsCertificateSource } from '../outcomes/sns-certificates.js';
import type { VerdictIdOf } from '../outcomes/verdict-record.js';
import type { Storage } from '../storage/interfaces.js';

export function createOutcomeIngestFor(deps: {
  storage: Pick<Storage, 'outcomeKeys' | 'outcomes' | 'verdictRecords'>;
  clock: Clock;
  logger: Logger;
  verdictIdOf: VerdictIdOf;
  /** The SNS certificate port (tests give their own); by default HTTPS to Amazon, cached a day. */
  ports?: OutcomePorts;
}): OutcomeIngest {
  const { storage } = deps;
  const certificates = snsCertificateSource();
  const ports: OutcomePorts = deps.ports ?? { fetchCertificate: (url) => certificates.fetchCertificate(url) };
  return createOutcomeIngest({
    keys: storage.outcomeKeys,
    outcomes: storage.outcomes,
    verdictRecords: storage.verdictRecords,
    parse: (source, delivery, secrets, now) => parseOutcomes(source, delivery, secrets, now, ports),
    classify: classifyOutcome,
    verdictIdOf: deps.verdictIdOf,
    clock: deps.clock,
    onSubscription: async (keyId, subscribeUrl) => {
      await storage.outcomeKeys.setSnsSubscription(keyId, subscribeUrl);
      deps.logger.warn({ key_id: keyId }, 'SNS subscription received: confirm it with `mailsure outcomes confirm`');
    },
  });
}
