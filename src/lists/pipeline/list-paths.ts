/** Where a list's files live under the data directory (a shared directory in scale-out). */
import { join } from 'node:path';
import type { ListOutput } from '../list-files.js';
import type { InputFormat } from '../list-record.js';

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
