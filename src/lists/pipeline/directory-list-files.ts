/**
 * ListFiles in a directory (list-files.ts): `<data dir>/lists/<id>/upload.<ext>`, `results.zip`
 * and `evidence.zip`, uploads received into `lists/incoming/` first. In scale-out the data directory
 * is a mount every process shares; a rename within it is atomic, so no process ever reads half
 * an upload or half a results file. Uploads and results hold personal data: the folders are
 * owner-only (0700).
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { incomingDir, listDir, resultsPath, uploadPath, type ListFiles } from '../list-files.js';

const OWNER_ONLY = 0o700;

export function createDirectoryListFiles(dataDir: string): ListFiles {
  const exists = (path: string) =>
    stat(path).then(
      () => true,
      () => false,
    );
  return {
    async incomingPath() {
      await mkdir(incomingDir(dataDir), { recursive: true, mode: OWNER_ONLY });
      return join(incomingDir(dataDir), randomUUID());
    },
    async keepUpload(listId, format, incoming) {
      await mkdir(listDir(dataDir, listId), { recursive: true, mode: OWNER_ONLY });
      await rename(incoming, uploadPath(dataDir, listId, format));
    },
    async uploadPath(listId, format) {
      return uploadPath(dataDir, listId, format);
    },
    async resultsPath(listId, output) {
      await mkdir(listDir(dataDir, listId), { recursive: true, mode: OWNER_ONLY });
      return resultsPath(dataDir, listId, output);
    },
    async keepResults() {
      // Written in place (the writer renames its finished file into it).
    },
    async openResults(listId, output) {
      const path = resultsPath(dataDir, listId, output);
      const size = await stat(path).then(
        (s) => s.size,
        () => undefined,
      );
      return size === undefined ? undefined : { size, stream: createReadStream(path) };
    },
    async remove(listId) {
      const dir = listDir(dataDir, listId);
      if (!(await exists(dir))) return false;
      await rm(dir, { recursive: true, force: true });
      return true;
    },
    async sweepIncoming(before) {
      // Only old ones: in scale-out the directory is shared, and another process may be receiving a file right now.
      const dir = incomingDir(dataDir);
      for (const name of await readdir(dir).catch(() => [] as string[])) {
        const path = join(dir, name);
        const info = await stat(path).catch(() => undefined);
        if (info && info.mtimeMs < before) await rm(path, { force: true });
      }
    },
  };
}
