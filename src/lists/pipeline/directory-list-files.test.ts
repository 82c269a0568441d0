import { mkdtemp, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ListFiles } from '../list-files.js';
import { createDirectoryListFiles } from './directory-list-files.js';

let dataDir: string;
let files: ListFiles;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mailsure-files-'));
  files = createDirectoryListFiles(dataDir);
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

describe('ListFiles in a directory', () => {
  it('keeps a received upload as the list’s input and serves its results once written', async () => {
    const incoming = await files.incomingPath();
    expect(incoming).not.toBe(await files.incomingPath());
    await writeFile(incoming, 'email\na@b.com\n');
    await files.keepUpload(7, 'csv', incoming);
    await expect(readFile(incoming)).rejects.toThrow();
    expect(await readFile(await files.uploadPath(7, 'csv'), 'utf8')).toBe('email\na@b.com\n');

    expect(await files.openResults(7)).toBeUndefined();
    await writeFile(await files.resultsPath(7), 'zip bytes');
    await files.keepResults(7);
    const results = await files.openResults(7);
    expect(results?.size).toBe(9);
    expect(await text(results!.stream)).toBe('zip bytes');
  });

  it('removes a list’s files once (retention) and sweeps only old incoming uploads', async () => {
    const incoming = await files.incomingPath();
    await writeFile(incoming, 'x');
    await files.keepUpload(3, 'txt', incoming);
    expect(await files.remove(3)).toBe(true);
    expect(await files.remove(3)).toBe(false);
    expect(await files.remove(99)).toBe(false);
    expect(await files.openResults(3)).toBeUndefined();

    const stale = await files.incomingPath();
    const current = await files.incomingPath();
    await writeFile(stale, 'x');
    await writeFile(current, 'x');
    await utimes(stale, new Date('2020-01-01'), new Date('2020-01-01'));
    await files.sweepIncoming(Date.parse('2021-01-01'));
    expect(await readdir(join(dataDir, 'lists', 'incoming'))).toEqual([current.slice(current.lastIndexOf('/') + 1)]);
    // Nothing received yet: nothing to sweep, no error.
    await createDirectoryListFiles(join(dataDir, 'empty')).sweepIncoming(Date.now());
  });
});
