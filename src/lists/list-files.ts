/**
 * Where a list's files live: its upload and its results zip. Every process reaches them through
 * this interface. The default (pipeline/directory-list-files.ts) is a directory: the data
 * directory, a shared mount in scale-out. An object store implements the same methods: the paths
 * it hands out are local working copies (an upload fetched once to read, results written locally
 * then stored by `keepResults`), because the readers need random access (zip) and the results
 * writer renames its file into place.
 */
import type { Readable } from 'node:stream';
import type { InputFormat } from './list-record.js';

export interface ListFiles {
  /** A new local path to receive an upload into, before the list (and its id) exists. */
  incomingPath(): Promise<string>;
  /** Makes a received upload the list's input; the incoming path is gone afterwards. */
  keepUpload(listId: number, format: InputFormat, incomingPath: string): Promise<void>;
  /** A local path to read the list's upload from. */
  uploadPath(listId: number, format: InputFormat): Promise<string>;
  /** A local path to write the results zip to; `keepResults` makes it the list's results. */
  resultsPath(listId: number): Promise<string>;
  keepResults(listId: number): Promise<void>;
  /** The results zip for download; undefined when there is none (not written, or deleted by retention). */
  openResults(listId: number): Promise<{ size: number; stream: Readable } | undefined>;
  /** Deletes the list's files (retention); false when it had none. */
  remove(listId: number): Promise<boolean>;
  /** Deletes uploads a killed process left half-received before `before` (ms since the epoch). */
  sweepIncoming(before: number): Promise<void>;
}
