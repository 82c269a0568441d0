/**
 * What every ListFiles (lists/list-files.ts) must do, whatever holds the files: the directory
 * (a shared mount) and the object store run these same tests (list-files-contract.test.ts).
 * "Another process" is a second instance on the same files: for the directory the same folder,
 * for the object store the same bucket and prefix with a data directory of its own.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, rename, utimes, writeFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ListFiles } from '../../lists/list-files.js';

export interface ListFilesHarness {
  /** This process's files. */
  files: ListFiles;
  /** Another process's view of the same files. */
  other: ListFiles;
  /** What a process killed while storing list `listId`'s results leaves behind. */
  crashWhileStoringResults(listId: number): Promise<void>;
  /** Anything a killed writer left that still takes room (half-written files, unfinished uploads). */
  leftovers(): Promise<string[]>;
  close(): Promise<void>;
}

export function runListFilesContract(name: string, open: () => Promise<ListFilesHarness>): void {
  describe(`ListFiles contract: ${name}`, () => {
    let harness: ListFilesHarness;
    beforeEach(async () => {
      harness = await open();
    });
    afterEach(() => harness.close());

    const receive = async (files: ListFiles, listId: number, content: string | Buffer, format: 'csv' | 'txt' = 'csv') => {
      const incoming = await files.incomingPath();
      await writeFile(incoming, content);
      await files.keepUpload(listId, format, incoming);
      return incoming;
    };
    /** The results writer's protocol: a partial file, renamed into place when complete, then kept (with the evidence, if given). */
    const writeResults = async (files: ListFiles, listId: number, content: string | Buffer, evidence?: string) => {
      const outputs = [
        { output: 'results' as const, content },
        ...(evidence !== undefined ? [{ output: 'evidence' as const, content: evidence }] : []),
      ];
      for (const { output, content } of outputs) {
        const path = await files.resultsPath(listId, output);
        await writeFile(`${path}.partial`, content);
        await rename(`${path}.partial`, path);
      }
      await files.keepResults(listId);
    };

    it('keeps a received upload as the list’s input, readable by another process, and the incoming path is gone', async () => {
      const { files, other } = harness;
      const first = await files.incomingPath();
      expect(first).not.toBe(await files.incomingPath());
      const incoming = await receive(files, 7, 'email\na@b.com\n');
      await expect(readFile(incoming)).rejects.toThrow();
      expect(await readFile(await files.uploadPath(7, 'csv'), 'utf8')).toBe('email\na@b.com\n');
      expect(await readFile(await other.uploadPath(7, 'csv'), 'utf8')).toBe('email\na@b.com\n');
      // Asked again (several readers of one list): the same content, fetched or not.
      const [again, concurrent] = await Promise.all([other.uploadPath(7, 'csv'), other.uploadPath(7, 'csv')]);
      expect(again).toBe(concurrent);
      expect(await readFile(again, 'utf8')).toBe('email\na@b.com\n');
    });

    it('serves results only once kept, from any process, and never a half-written file', async () => {
      const { files, other } = harness;
      await receive(files, 8, 'email\na@b.com\n');
      expect(await other.openResults(8)).toBeUndefined();
      const path = await other.resultsPath(8);
      await writeFile(`${path}.partial`, 'half a zi');
      expect(await files.openResults(8)).toBeUndefined();
      expect(await other.openResults(8)).toBeUndefined();
      await writeResults(other, 8, 'zip bytes');
      for (const reader of [files, other]) {
        const results = await reader.openResults(8);
        expect(results?.size).toBe(9);
        expect(await text(results!.stream)).toBe('zip bytes');
      }
    });

    it('serves a list’s evidence kept with its results, from any process; a list without evidence has none', async () => {
      const { files, other } = harness;
      await receive(files, 12, 'email\na@b.com\n');
      await receive(files, 13, 'email\na@b.com\n');
      expect(await other.openResults(12, 'evidence')).toBeUndefined();
      await writeResults(other, 12, 'zip bytes', 'evidence bytes');
      await writeResults(other, 13, 'other zip');
      for (const reader of [files, other]) {
        const evidence = await reader.openResults(12, 'evidence');
        expect(evidence?.size).toBe(14);
        expect(await text(evidence!.stream)).toBe('evidence bytes');
        expect(await text((await reader.openResults(12, 'results'))!.stream)).toBe('zip bytes');
        expect(await reader.openResults(13, 'evidence')).toBeUndefined();
      }
      // Retention and cancellation delete the evidence with the results.
      expect(await files.remove(12)).toBe(true);
      for (const reader of [files, other]) {
        expect(await reader.openResults(12, 'evidence')).toBeUndefined();
        expect(await reader.openResults(12)).toBeUndefined();
      }
    });

    it('carries files of several parts whole, both ways', async () => {
      const { files, other } = harness;
      // 13 MB: several parts of a multipart upload (5 MB each in these tests), the last one short.
      const upload = Buffer.alloc(13 * 1024 * 1024 + 17);
      for (let i = 0; i < upload.length; i += 4096) upload.writeUInt32BE(i, i);
      await receive(files, 9, upload);
      expect(await sha256File(await other.uploadPath(9, 'csv'))).toBe(sha256(upload));
      const results = Buffer.from(upload).reverse();
      await writeResults(other, 9, results);
      const served = await files.openResults(9);
      expect(served?.size).toBe(results.length);
      expect(sha256(Buffer.concat(await chunks(served!.stream)))).toBe(sha256(results));
    });

    it('removes a list’s files once (retention, cancellation), for every process', async () => {
      const { files, other } = harness;
      await receive(files, 3, 'email\nx@y.com\n', 'txt');
      await writeResults(files, 3, 'zip');
      await other.uploadPath(3, 'txt');
      await receive(files, 4, 'email\nkept@y.com\n');
      expect(await other.remove(3)).toBe(true);
      expect(await files.remove(3)).toBe(false);
      expect(await files.remove(99)).toBe(false);
      expect(await files.openResults(3)).toBeUndefined();
      expect(await other.openResults(3)).toBeUndefined();
      // Another list is untouched (list 3's files are not a prefix of list 30's or 4's).
      expect(await readFile(await other.uploadPath(4, 'csv'), 'utf8')).toBe('email\nkept@y.com\n');
    });

    it('leaves nothing visible and nothing retention cannot delete when a writer dies mid-results', async () => {
      const { files } = harness;
      await receive(files, 11, 'email\na@b.com\n');
      await harness.crashWhileStoringResults(11);
      expect(await files.openResults(11)).toBeUndefined();
      expect(await harness.leftovers()).not.toEqual([]);
      // A list that is still running keeps what its writer may be storing right now.
      await files.sweepIncoming(Date.now() - 3_600_000);
      expect(await harness.leftovers()).not.toEqual([]);
      expect(await files.remove(11)).toBe(true);
      expect(await harness.leftovers()).toEqual([]);
    });

    it('sweeps only old half-received uploads', async () => {
      const { files } = harness;
      const stale = await files.incomingPath();
      const current = await files.incomingPath();
      await writeFile(stale, 'x');
      await writeFile(current, 'x');
      await utimes(stale, new Date('2020-01-01'), new Date('2020-01-01'));
      await files.sweepIncoming(Date.parse('2021-01-01'));
      await expect(readFile(stale)).rejects.toThrow();
      expect(await readFile(current, 'utf8')).toBe('x');
    });

    it('sweeps with nothing received yet, without an error', async () => {
      await harness.other.sweepIncoming(Date.now());
    });
  });
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function chunks(stream: NodeJS.ReadableStream): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const chunk of stream) out.push(chunk as Buffer);
  return out;
}
