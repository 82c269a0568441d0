/**
 * A sender's outcome for one address, as an email service provider (or a raw DSN / ARF report)
 * told it: the only ground truth about addresses there is. Parsers (one per ESP format) turn a
 * webhook body into these; classification decides what an event may change (a key's bouncers or
 * complainers, or only the per-domain deliverability counts); ingestion stores the decisions.
 * Only these parsed fields are kept, never the original message.
 */

/** The formats an ingestion endpoint accepts, one per ESP webhook shape plus raw reports. */
export const OUTCOME_SOURCES = ['ses', 'sendgrid', 'mailgun', 'postmark', 'sparkpost', 'dsn', 'arf'] as const;
export type OutcomeSource = (typeof OUTCOME_SOURCES)[number];

/**
 * What happened, as the ESP reported it (before our own classification):
 * - `bounce`: the ESP called it permanent (hard); its status and text decide whether it proves the mailbox;
 * - `deferral`: a temporary failure (soft bounce, deferred, delayed);
 * - `blocked`: the ESP itself says policy/reputation/content (e.g. SendGrid "blocked", SparkPost "policy_rejection");
 * - `complaint`: the recipient marked it as spam (feedback loop, ARF abuse report);
 * - `delivery`: accepted by the recipient's server.
 */
export type OutcomeKind = 'bounce' | 'deferral' | 'blocked' | 'complaint' | 'delivery';

export interface OutcomeEvent {
  source: OutcomeSource;
  /** The ESP's own id for this event (for idempotent redelivery); for DSN/ARF a digest of the report's fields. */
  eventId: string;
  /** The recipient address the event is about, as the ESP wrote it (trimmed). */
  email: string;
  kind: OutcomeKind;
  /** RFC 3463 enhanced status code when the event carries one (`5.1.1`), else undefined. */
  enhancedStatus?: string;
  /** The SMTP reply code when the event carries one (550), else undefined. */
  smtpCode?: number;
  /** The diagnostic text (remote server's reply or the ESP's reason), at most 500 characters. */
  diagnostic?: string;
  occurredAt: Date;
}

/** What classification decides an event may do (classification is pure: src/outcomes/classify.ts). */
export type OutcomeEffect =
  /** A permanent failure that proves the mailbox does not exist or is disabled (5.1.x, mailbox disabled): bouncers (520). */
  | 'add-bouncer'
  /** A spam complaint: complainers (525). */
  | 'add-complainer'
  /** A delivery: removes the address from lists it entered by outcomes (never operator imports). */
  | 'remove-outcome-entries'
  /** Policy/reputation/content blocks, soft bounces, unproven hard bounces: counted per domain only. */
  | 'count-only';

/** One webhook delivery as the ingestion endpoint received it (the HTTP layer fills it; parsers never see Fastify). */
export interface OutcomeDelivery {
  /** The raw body, at most the endpoint's body limit. */
  body: Buffer;
  /** The Content-Type header, lower-cased, without parameters (`application/json`). */
  contentType: string;
  /** The full Content-Type header (for a multipart boundary). */
  contentTypeHeader: string;
  /** Request headers, names lower-cased (signature headers, Authorization). */
  headers: Readonly<Record<string, string | undefined>>;
}

/**
 * The secrets a key's operator set for checking an ESP's own authentication offline (each optional:
 * without it, only the ingestion token in the URL authenticates).
 */
export interface OutcomeSecrets {
  /** Mailgun's HTTP webhook signing key (HMAC-SHA256 over timestamp + token). */
  mailgunSigningKey?: string;
  /** SendGrid's signed event webhook verification key (ECDSA P-256 public key, base64 DER). */
  sendgridPublicKey?: string;
  /** Postmark webhook basic-auth credentials, `user:password`. */
  postmarkBasicAuth?: string;
}

/** Why a delivery was refused: the endpoint answers `status` with `message` and stores nothing. */
export interface OutcomeRefusal {
  status: 400 | 401 | 413 | 415 | 422;
  message: string;
}

export type OutcomeParse =
  | {
      ok: true;
      events: OutcomeEvent[];
      /** SNS SubscriptionConfirmation: handed to the operator, never followed here. */ subscribeUrl?: string;
    }
  | { ok: false; refusal: OutcomeRefusal };
