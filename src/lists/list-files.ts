/**
 * Where a list's files live: its upload, its results zip and, for a list submitted with
 * `evidence=true`, its evidence zip. Every process reaches them through
 * this interface. The default (pipeline/directory-list-files.ts) is a directory: the data
 * directory, a shared mount in scale-out. The object store (storage/s3/s3-list-files.ts)
 * implements the same methods: the paths it hands out are local working copies (an upload
 * fetched once to read, results written locally then stored by `keepResults`), because the
 * readers need random access (zip) and the results writer renames its file into place.
 * Both pass the same contract tests (storage/contract/list-files-contract.ts), and both lay a
 * list's files out under a data directory as `listDir` and its neighbours below say.
 */
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { InputFormat } from './list-record.js';

/** A file a finished list is served: its results, or its rows' evidence. */
export type ListOutput = 'results' | 'evidence';

export interface ListFiles {
  /** A new local path to receive an upload into, before the list (and its id) exists. */
  incomingPath(): Promise<string>;
  /** Makes a received upload the list's input; the incoming path is gone afterwards. */
  keepUpload(listId: number, format: InputFormat, incomingPath: string): Promise<void>;
  /** A local path to read the list's upload from. */
  uploadPath(listId: number, format: InputFormat): Promise<string>;
  /**
   * A local path to write the results zip (or, `output` 'evidence', the evidence zip) to;
   * `keepResults` makes it the list's.
   */
  resultsPath(listId: number, output?: ListOutput): Promise<string>;
  /** Makes the zips written at `resultsPath` the list's: the results, and the evidence when one was written. */
  keepResults(listId: number): Promise<void>;
  /** The results (or evidence) zip for download; undefined when there is none (not written, or deleted by retention). */
  openResults(listId: number, output?: ListOutput): Promise<{ size: number; stream: Readable } | undefined>;
  /**
   * Where a client may fetch the results (or evidence) zip itself (a short-lived link to the
   * store), when the store offers that and the operator chose it; undefined otherwise or when
   * there is none.
   */
  resultsLink?(listId: number, fileName: string, output?: ListOutput): Promise<string | undefined>;
  /** Deletes the list's files, evidence included (retention, cancellation); false when it had none. */
  remove(listId: number): Promise<boolean>;
  /**
   * Deletes what a killed process left half-done before `before` (ms since the epoch): uploads
   * half-received, and in an object store unfinished multipart uploads and stale working copies.
   */
  sweepIncoming(before: number): Promise<void>;
}

/**
 * The place the files live did not answer (refused the connection, passed its deadline, or said
 * it is unavailable): a passing outage like a stalled database, not a fault of the list. Callers
 * answer 503 with Retry-After, and a list waits and goes on (MAILSURE_LIST_STORE_WAIT_MINUTES).
 */
export class ListFilesUnavailable extends Error {
  override readonly name = 'ListFilesUnavailable';
}

export const isListFilesUnavailable = (error: unknown): error is ListFilesUnavailable => error instanceof ListFilesUnavailable;

/** The Content-Disposition of the results (and evidence) download (RFC 6266): a plain ASCII fallback, and the exact name percent-encoded. */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Where a list's files lie under a data directory: the directory's own files, and the object
 * store's working copies.
 */
export function listDir(dataDir: string, listId: number): string {
  return join(dataDir, 'lists', String(listId));
}

export function uploadPath(dataDir: string, listId: number, format: InputFormat): string {
  return join(listDir(dataDir, listId), `upload.${format}`);
}

/** `results.zip`, or `evidence.zip` for the rows' evidence. */
export function resultsPath(dataDir: string, listId: number, output: ListOutput = 'results'): string {
  return join(listDir(dataDir, listId), `${output}.zip`);
}

/** Uploads land here first, before the list (and so its id) exists. */
export function incomingDir(dataDir: string): string {
  return join(dataDir, 'lists', 'incoming');
}
