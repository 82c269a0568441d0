/**
 * A text file written into a zip of one file (zip-writer.ts) on disk, piece by piece: the results
 * file and the evidence file are both written this way. The zip is written beside its final path
 * (`.partial`, owner-only: it holds personal data) and renamed into place when complete, so a crash
 * never leaves a truncated file that looks finished. Deflate runs at `RESULTS_DEFLATE_LEVEL`.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { zipOneFile } from './zip-writer.js';

/** On a million rows level 6 (zlib's default) took 0.8 s of a core for a file 13 % smaller than level 3's 0.4 s. */
export const RESULTS_DEFLATE_LEVEL = 3;

export interface ZippedText {
  /**
   * Adds a piece of the text (large pieces: zlib deflates each write on the thread pool, and one
   * write per row made a million-row file take half a minute, almost all of it waiting); resolves
   * when the zip can take more.
   */
  write(text: string): Promise<void>;
  /** Ends the file and renames it into place; answers its size in bytes. */
  finish(): Promise<number>;
  /** Stops writing and leaves no file behind. */
  abort(): Promise<void>;
}

export function openZippedText(zipPath: string, innerName: string): ZippedText {
  const partial = `${zipPath}.partial`;
  const zip = zipOneFile(innerName, { level: RESULTS_DEFLATE_LEVEL });
  const out = createWriteStream(partial, { mode: 0o600 }); // personal data: owner-only
  const written = pipeline(zip.output, out);
  // A failure downstream (disk full) is reported through `written`; it must also end any wait
  // for 'drain'.
  let failure: Error | undefined;
  written.catch((err: Error) => {
    failure = err;
    zip.destroy(err);
  });
  return {
    async write(text) {
      if (failure) throw failure;
      if (!zip.write(Buffer.from(text, 'utf8'))) await Promise.race([once(zip.input, 'drain'), written]);
    },
    async finish() {
      zip.end();
      await written;
      await rename(partial, zipPath);
      return (await stat(zipPath)).size;
    },
    async abort() {
      zip.destroy();
      out.destroy();
      await written.catch(() => {});
      await rm(partial, { force: true });
    },
  };
}
