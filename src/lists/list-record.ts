/**
 * A list as the pipeline and the store see it (api-reference "List resource", decisions §6).
 * Progress and reporting live in committed chunks, not on the list, so that two workers on one
 * list never write the same row and a resumed list counts nothing twice.
 */
export const LIST_STATUSES = ['Pending', 'Processed', 'Processing', 'Results', 'Cancelled', 'Invalid', 'Error'] as const;
export type ListStatus = (typeof LIST_STATUSES)[number];

export const SERVICE_STATUSES = ['Pending', 'Processing', 'Completed', 'Cancelled', 'Error'] as const;
export type ServiceStatus = (typeof SERVICE_STATUSES)[number];

export const LIST_SERVICES = ['email_validation', 'email_intelligence', 'email_append'] as const;
export type ListServiceName = (typeof LIST_SERVICES)[number];

export type InputFormat = 'csv' | 'txt' | 'zip';

export interface NewList {
  keyId: number;
  name: string;
  format: InputFormat;
  /** The `delimiter` parameter; null applies the default of the (inner) file's extension. */
  delimiter: string | null;
  header: boolean;
  /** 1-based, as the parameter. */
  emailColumn: number | null;
  report: boolean;
  /** The `fields` parameter; null means every field the key allows. */
  fields: string[] | null;
  callbackUrl: string | null;
  /**
   * Keep each verified row's evidence and serve it as a file (`evidence=true` from a key with the
   * evidence permission); absent: false.
   */
  evidence?: boolean;
  sizeBytes: number;
  /** ISO 8601, UTC. */
  createdAt: string;
}

export interface ListServiceState {
  status: ServiceStatus;
  inputCount: number;
  /** Set once the service is complete; while it runs, progress is the committed chunks' sum. */
  completedCount?: number;
  /** The reference's reporting object, once the service is complete. */
  reporting?: unknown;
}

export interface ListRow extends NewList {
  id: number;
  evidence: boolean;
  status: ListStatus;
  /** Why the list is Invalid or Error. */
  error: string | null;
  /** Non-blank data records (header excluded); 0 until parsed. */
  records: number;
  services: Partial<Record<ListServiceName, ListServiceState>>;
  /** What parsing decided (columns, chunk offsets…), opaque to the store; null until parsed. */
  plan: unknown;
  /** The purchase made after a match report; null until purchased. */
  purchase: unknown;
  updatedAt: string;
  /** One more at every update: what a compare-and-set of the whole row checks. */
  version: number;
}

export type ListPatch = Partial<Pick<ListRow, 'status' | 'error' | 'records' | 'services' | 'plan' | 'purchase'>>;

/** One committed chunk of records: its per-service counters and its rows' appended values. */
export interface ListChunk {
  index: number;
  /** Records in the chunk. */
  records: number;
  /** Per-service counters (lists/reporting.ts), opaque to the store. */
  counts: unknown;
  /** The chunk's result rows, serialised by the pipeline, opaque to the store. */
  results: string;
  /**
   * The chunk's rows' evidence, serialised by the pipeline, opaque to the store: committed in the
   * same write as `results`, so neither is ever stored without the other. Absent for a list without
   * evidence.
   */
  evidence?: string;
}

/** A committed chunk's evidence; null when it holds none (a list without evidence, or forgotten by retention). */
export interface ChunkEvidence {
  index: number;
  records: number;
  evidence: string | null;
}

export interface CallbackAttempt {
  at: string;
  /** HTTP status of the answer, or null when none came. */
  status: number | null;
  /** Why the try failed; null for a delivery. */
  error: string | null;
}

export interface ListStore {
  create(list: NewList): Promise<ListRow>;
  get(id: number): Promise<ListRow | undefined>;
  /**
   * Deletes a list that never got going (Pending, not parsed): a submit whose upload could not be
   * stored. False when the list is gone or has started.
   */
  discard(id: number): Promise<boolean>;
  /** The key's lists, newest first. */
  listForKey(keyId: number, page: { limit: number; offset: number }): Promise<{ lists: ListRow[]; total: number }>;
  /**
   * Applies the patch when the list's status is one of `onlyFrom` (any status when omitted);
   * answers the updated list, or undefined when the list is missing or the status did not allow.
   * With `version`, only when the list is still that version (nothing changed it since it was
   * read). This compare-and-set is how cancel, purchase and a worker's transitions never
   * overwrite each other. Every update adds one to the version.
   */
  update(id: number, patch: ListPatch, onlyFrom?: readonly ListStatus[], version?: number): Promise<ListRow | undefined>;
  /** Marks the list billed; true only for the one call that changed it (bill after, never twice). */
  markBilled(id: number): Promise<boolean>;
  /**
   * Claims a chunk (or a step: -1 results, -2 parsing, -3 a callback try) for a worker until `until` (ISO 8601):
   * true when it was free, its claim had expired at `now`, or the worker holds it already (a
   * renewal). Claims are how several workers share a list without doing a chunk twice.
   */
  claim(listId: number, index: number, worker: string, now: string, until: string): Promise<boolean>;
  /** Commits a chunk once: false when that index was already committed (a resumed worker). */
  commitChunk(listId: number, chunk: ListChunk): Promise<boolean>;
  /** Committed chunks' counters, by index: progress and reporting are their sums. */
  chunkCounts(listId: number): Promise<{ index: number; records: number; counts: unknown }[]>;
  /** Records committed so far, for each list given that has any: one query, for progress on a page of lists. */
  committedRecords(listIds: readonly number[]): Promise<Map<number, number>>;
  /** Committed chunks with their results (without their evidence), `from` ≤ index < `to`, in index order. */
  chunkResults(listId: number, from: number, to: number): Promise<ListChunk[]>;
  /** Committed chunks' evidence, `from` ≤ index < `to`, in index order. */
  chunkEvidence(listId: number, from: number, to: number): Promise<ChunkEvidence[]>;
  addCallbackAttempt(listId: number, attempt: CallbackAttempt): Promise<void>;
  callbackAttempts(listId: number): Promise<CallbackAttempt[]>;
  /**
   * Lists in Results, Invalid or Error with a callback URL, no delivered attempt (one without an
   * error) and fewer than `maxAttempts` attempts, by id: the callbacks a process resumes at start.
   */
  pendingCallbacks(maxAttempts: number): Promise<ListRow[]>;
  /** Lists in Pending, Processed or Processing: what a worker looks at after a restart. */
  unfinished(): Promise<ListRow[]>;
  /**
   * The key's lists that wait for or hold work: Pending, Processing, and Processed unless it
   * waits for a purchase (a report the customer has not bought holds no work).
   */
  waitingForKey(keyId: number): Promise<number>;
  /** Lists created before the instant (ISO 8601), for retention. */
  createdBefore(instant: string): Promise<ListRow[]>;
  /**
   * Retention: forgets the processed records a list's chunks hold (its rows, addresses, names,
   * and their evidence), keeping each chunk's counts (the reports and progress stay). Answers how many chunks still
   * held records; 0 once forgotten.
   */
  forgetRecords(listId: number): Promise<number>;
  /** Bytes of the key's uploads created at or after the instant (ISO 8601): what it keeps stored. */
  storedBytes(keyId: number, since: string): Promise<number>;
  /** How many lists of every key are in each status (metrics); statuses with none are absent. */
  countByStatus(): Promise<Partial<Record<ListStatus, number>>>;
}
