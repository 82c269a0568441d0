/**
 * The tables as kysely sees them. Rows keep the storage shapes (JSON text, 0/1 flags, ISO-8601
 * text timestamps) so one set of queries runs on SQLite and PostgreSQL; the stores map rows to
 * domain records.
 */
import { PostgresAdapter, SqliteAdapter, type Generated, type Kysely } from 'kysely';

export interface ApiKeysTable {
  id: Generated<number>;
  name: string;
  key_hash: string;
  key_prefix: string;
  webhook_secret: string;
  /** JSON array of service names. */
  services: string;
  variant: string;
  /** JSON array of field names; null means every field. */
  fields: string | null;
  quota: number | null;
  rate: number;
  /** 0 or 1: the same integer on both engines keeps the queries identical. */
  trial: number;
  /** 0 or 1 (migration 0003). */
  bouncers: Generated<number>;
  /** Records a second on real-time and bulk endpoints; null: no such limit (migration 0010). */
  record_rate: number | null;
  /** 0 or 1: may ask for a verdict's evidence (migration 0012). */
  evidence: Generated<number>;
  /** 1 for the demo key a first start made (migration 0011); `mailsure demo remove` deletes it. */
  demo: Generated<number>;
  calls_used: Generated<number>;
  created_at: string;
  revoked_at: string | null;
}

export interface UsageDailyTable {
  key_id: number;
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  unit: string;
  count: number;
}

export interface ClientListEntriesTable {
  key_id: number;
  kind: string;
  value: string;
}

export interface PolicyEntriesTable {
  kind: string;
  value: string;
}

/** A person (migration 0004). `*_norm` columns hold person-key.ts normalisations for exact lookups. */
export interface PeopleTable {
  id: Generated<number>;
  person_key: string;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  /** Empty when the person has no ZIP. */
  zip5: string;
  first_norm: string;
  last_norm: string;
  street_norm: string;
  city_norm: string;
  /** Identity blocking keys (identity/match/blocking.ts); empty when unknown. */
  house_number: string;
  last_phonetic: string;
  /** JSON object of enrichment values by API field name. */
  fields: string;
  /** JSON array of interest names. */
  interests: string;
  /** The person's full enrichment record as /v5/td answers it, ready (enrichment/project.ts prepareRecord). */
  record: string;
  /** Its top-level field count. */
  record_fields: number;
  updated_at: string;
  /** 1 for the synthetic demo people (migration 0011); an import of the person makes it 0. */
  demo: Generated<number>;
}

/** The version of the code that derived a stored column the live code re-derives (migration 0017). */
export interface DerivedVersionsTable {
  name: string;
  version: number;
}

/** An address belongs to one person; `position` keeps the order the person listed them in. */
export interface PersonEmailsTable {
  email: string;
  person_id: number;
  position: number;
  sha1: string;
  md5: string;
  /** The canonical spelling of the address's mailbox where its domain has a rule (people/mailbox.ts), else null (migration 0014). */
  mailbox: string | null;
}

export interface ActivityEventsTable {
  email: string;
  source: string;
  /** `YYYY-MM-DD`, UTC. */
  seen_on: string;
  /** `seen` or `open`. */
  event: string;
  /** 1 for the demo people's events (migration 0011); the same event imported makes it 0. */
  demo: Generated<number>;
  /** As person_emails.mailbox (migration 0014). */
  mailbox: string | null;
}

/** A submitted list (migration 0006); JSON text in `services`, `fields`, `plan`, `purchase`. */
export interface ListsTable {
  id: Generated<number>;
  key_id: number;
  name: string;
  format: string;
  delimiter: string | null;
  /** 0 or 1. */
  header: number;
  email_column: number | null;
  /** 0 or 1. */
  report: number;
  fields: string | null;
  callback_url: string | null;
  /** bigint: pg returns it as a string. */
  size_bytes: number | string;
  status: string;
  error: string | null;
  records: number;
  services: string;
  plan: string | null;
  purchase: string | null;
  /** 0 or 1. */
  billed: Generated<number>;
  /** 0 or 1: the rows' evidence is kept with the chunks and served as a file (migration 0013). */
  evidence: Generated<number>;
  /** One more at every update: the compare-and-set of a transition (migration 0016). */
  version: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface ListChunksTable {
  list_id: number;
  chunk_index: number;
  records: number;
  counts: string;
  results: string;
  /** The rows' evidence, JSON text (migration 0013); null when the list asked for none, or forgotten. */
  evidence: Generated<string | null>;
}

export interface ListChunkClaimsTable {
  list_id: number;
  chunk_index: number;
  worker: string;
  /** ISO 8601. */
  expires_at: string;
}

export interface ListCallbacksTable {
  list_id: number;
  at: string;
  status: number | null;
  error: string | null;
}

/** A key's outcome ingestion settings (migration 0015). */
export interface OutcomeKeysTable {
  key_id: number;
  /** SHA-256 of the ingestion token; null until one is made. */
  token_hash: string | null;
  /** JSON of OutcomeSecrets, sealed (secret-box.ts) when the storage has a box. */
  secrets: string | null;
  /** An SNS SubscribeURL awaiting the operator's confirmation. */
  sns_subscribe_url: string | null;
  /** 0 or 1. */
  share: Generated<number>;
}

/** An address a key's outcomes put on its bouncers or complainers (migration 0015). */
export interface OutcomeEntriesTable {
  key_id: number;
  kind: string;
  value: string;
  /** 0 or 1. */
  shared: number;
  event_at: string;
  expires_at: string;
}

export interface OutcomeEventsSeenTable {
  key_id: number;
  event_id: string;
  seen_at: string;
}

export interface OutcomeDomainCountsTable {
  key_id: number;
  domain: string;
  day: string;
  kind: string;
  /** bigint: pg returns it as a string. */
  count: number | string;
}

export interface OutcomeAccuracyTable {
  key_id: number;
  day: string;
  code: number;
  kind: string;
  source: string;
  /** bigint: pg returns it as a string. */
  count: number | string;
}

/** The last verdict per key and address, by HMAC id (migration 0015). */
export interface VerdictRecordsTable {
  key_id: number;
  id: string;
  code: number;
  at: string;
}

export interface Database {
  api_keys: ApiKeysTable;
  usage_daily: UsageDailyTable;
  client_list_entries: ClientListEntriesTable;
  policy_entries: PolicyEntriesTable;
  people: PeopleTable;
  person_emails: PersonEmailsTable;
  lists: ListsTable;
  list_chunks: ListChunksTable;
  list_callbacks: ListCallbacksTable;
  list_chunk_claims: ListChunkClaimsTable;
  activity_events: ActivityEventsTable;
  outcome_keys: OutcomeKeysTable;
  outcome_entries: OutcomeEntriesTable;
  outcome_events_seen: OutcomeEventsSeenTable;
  outcome_domain_counts: OutcomeDomainCountsTable;
  outcome_accuracy: OutcomeAccuracyTable;
  verdict_records: VerdictRecordsTable;
  derived_versions: DerivedVersionsTable;
}

export type Engine = 'sqlite' | 'postgres';

/**
 * Which engine a kysely instance talks to. Kysely has no public getter for this; its own Migrator
 * reads the executor's adapter the same way, and it also works on transaction-bound instances.
 */
export function engineOf<DB>(db: Kysely<DB>): Engine {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof SqliteAdapter) return 'sqlite';
  if (adapter instanceof PostgresAdapter) return 'postgres';
  throw new Error(`unsupported kysely dialect: ${adapter.constructor.name}`);
}
