/**
 * The ListFiles contract (contract/list-files-contract.ts) against the directory and against the
 * object store: a real S3-protocol server (s3rver) on loopback, two "processes" with data
 * directories of their own on one bucket. Then what only the object store has: the sweep of
 * unfinished multipart uploads, presigned result links, and a store that refuses.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateMultipartUploadCommand, ListMultipartUploadsCommand, S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3_TEST_CREDENTIALS, S3_TEST_REGION, startTestS3, type TestS3 } from '../../test/helpers/s3-server.js';
import { createDirectoryListFiles } from '../lists/pipeline/directory-list-files.js';
import { runListFilesContract } from './contract/list-files-contract.js';
import { createS3ListFiles, type S3ListFilesOptions } from './s3/s3-list-files.js';

const PART_SIZE = 5 * 1024 * 1024;

runListFilesContract('directory', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'mailsure-files-'));
  return {
    files: createDirectoryListFiles(dataDir),
    other: createDirectoryListFiles(dataDir),
    async crashWhileStoringResults(listId) {
      // The results writer's partial file (results-file.ts), never renamed into place.
      const path = await createDirectoryListFiles(dataDir).resultsPath(listId);
      await writeFile(`${path}.partial`, 'half a zi');
    },
    async leftovers() {
      const found: string[] = [];
      for (const name of await readdir(join(dataDir, 'lists')).catch(() => [] as string[])) {
        for (const file of await readdir(join(dataDir, 'lists', name)).catch(() => [] as string[]))
          if (file.endsWith('.partial')) found.push(`${name}/${file}`);
      }
      return found;
    },
    close: () => rm(dataDir, { recursive: true, force: true }),
  };
});

describe('object store', () => {
  let s3: TestS3;
  let client: S3Client;
  let run = 0;
  beforeAll(async () => {
    s3 = await startTestS3();
    client = testClient(s3);
  });
  afterAll(async () => {
    client?.destroy();
    await s3?.close();
  });

  /** Two processes on one bucket under a prefix of this test's own. */
  const openPair = async (more: Partial<S3ListFilesOptions> = {}) => {
    const prefix = `run-${++run}/mailsure`;
    const dirs = [await mkdtemp(join(tmpdir(), 'mailsure-s3a-')), await mkdtemp(join(tmpdir(), 'mailsure-s3b-'))];
    const clients: S3Client[] = [];
    const make = (dataDir: string, keepReceivedUploads: boolean) => {
      const own = testClient(s3);
      clients.push(own);
      return createS3ListFiles({ client: own, bucket: s3.bucket, prefix, dataDir, keepReceivedUploads, partSize: PART_SIZE, ...more });
    };
    return {
      prefix,
      // The receiving process does not run lists; the other reads what it needs from the store.
      files: make(dirs[0]!, false),
      other: make(dirs[1]!, true),
      async close() {
        for (const c of clients) c.destroy();
        await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
      },
    };
  };
  const unfinished = async (prefix: string) =>
    ((await client.send(new ListMultipartUploadsCommand({ Bucket: s3.bucket, Prefix: prefix }))).Uploads ?? []).map((u) => u.Key!);
  /** What a process killed mid-upload leaves: a multipart upload begun, a part stored, never completed. */
  const beginUpload = async (key: string) => {
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: key }));
    await client.send(new UploadPartCommand({ Bucket: s3.bucket, Key: key, UploadId, PartNumber: 1, Body: Buffer.alloc(PART_SIZE, 1) }));
  };

  runListFilesContract('S3 (s3rver on loopback)', async () => {
    const pair = await openPair();
    return {
      ...pair,
      crashWhileStoringResults: (listId) => beginUpload(`${pair.prefix}/lists/${listId}/results.zip`),
      leftovers: () => unfinished(`${pair.prefix}/`),
    };
  });

  it('the daily sweep aborts unfinished uploads older than its cut-off, of any list, and the server keeps no part', async () => {
    const pair = await openPair();
    try {
      await beginUpload(`${pair.prefix}/lists/21/results.zip`);
      await beginUpload(`${pair.prefix}/lists/22/upload.csv`);
      // Another deployment's prefix in the same bucket is not ours to touch.
      await beginUpload(`elsewhere/lists/21/results.zip`);
      await pair.files.sweepIncoming(Date.now() - 60_000);
      expect(await unfinished(`${pair.prefix}/`)).toHaveLength(2);
      expect(await s3.uploadsOnDisk()).toHaveLength(3);
      await pair.files.sweepIncoming(Date.now() + 60_000);
      expect(await unfinished(`${pair.prefix}/`)).toEqual([]);
      expect(await unfinished('elsewhere/')).toEqual(['elsewhere/lists/21/results.zip']);
      expect(await s3.uploadsOnDisk()).toHaveLength(1);
    } finally {
      await pair.close();
    }
  });

  it('answers a short-lived link to the results, with their download name, when asked to', async () => {
    const pair = await openPair({ linkSeconds: 300 });
    try {
      const incoming = await pair.files.incomingPath();
      await writeFile(incoming, 'email\na@b.com\n');
      await pair.files.keepUpload(5, 'csv', incoming);
      expect(await pair.files.resultsLink!(5, 'list-5-Service.zip')).toBeUndefined();
      await writeFile(await pair.other.resultsPath(5), 'zip bytes');
      await pair.other.keepResults(5);
      const link = await pair.files.resultsLink!(5, 'Ünïcode list-5-Service.zip');
      expect(link).toMatch(new RegExp(`^${s3.endpoint}/${s3.bucket}/${pair.prefix}/lists/5/results\\.zip\\?.*X-Amz-Expires=300`));
      const answer = await fetch(link!);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/zip');
      expect(answer.headers.get('content-disposition')).toBe(
        `attachment; filename="_n_code list-5-Service.zip"; filename*=UTF-8''%C3%9Cn%C3%AFcode%20list-5-Service.zip`,
      );
      expect(await answer.text()).toBe('zip bytes');
    } finally {
      await pair.close();
    }
  });

  it('answers a short-lived link to the evidence, with its download name, beside the results’', async () => {
    const pair = await openPair({ linkSeconds: 300 });
    try {
      const incoming = await pair.files.incomingPath();
      await writeFile(incoming, 'email\na@b.com\n');
      await pair.files.keepUpload(6, 'csv', incoming);
      await writeFile(await pair.other.resultsPath(6), 'zip bytes');
      expect(await pair.files.resultsLink!(6, 'list-6-Evidence.zip', 'evidence')).toBeUndefined();
      await writeFile(await pair.other.resultsPath(6, 'evidence'), 'evidence bytes');
      await pair.other.keepResults(6);
      const link = await pair.files.resultsLink!(6, 'list-6-Evidence.zip', 'evidence');
      expect(link).toMatch(new RegExp(`^${s3.endpoint}/${s3.bucket}/${pair.prefix}/lists/6/evidence\\.zip\\?.*X-Amz-Expires=300`));
      const answer = await fetch(link!);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/zip');
      expect(answer.headers.get('content-disposition')).toBe(
        `attachment; filename="list-6-Evidence.zip"; filename*=UTF-8''list-6-Evidence.zip`,
      );
      expect(await answer.text()).toBe('evidence bytes');
    } finally {
      await pair.close();
    }
  });

  it('offers no link unless asked to: the download streams', async () => {
    const pair = await openPair();
    try {
      expect(pair.files.resultsLink).toBeUndefined();
    } finally {
      await pair.close();
    }
  });

  it('fails a read of an upload the store does not hold, naming the object', async () => {
    const pair = await openPair();
    try {
      await expect(pair.other.uploadPath(404, 'csv')).rejects.toThrow(
        `the object s3://${s3.bucket}/${pair.prefix}/lists/404/upload.csv is missing`,
      );
    } finally {
      await pair.close();
    }
  });

  it('fails a store to a bucket that does not exist, and leaves the received file for the caller to clean', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mailsure-s3c-'));
    const files = createS3ListFiles({ client, bucket: 'no-such-bucket', prefix: '', dataDir, partSize: PART_SIZE });
    try {
      const incoming = await files.incomingPath();
      await writeFile(incoming, 'email\na@b.com\n');
      await expect(files.keepUpload(1, 'csv', incoming)).rejects.toMatchObject({ name: 'NoSuchBucket' });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

function testClient(s3: TestS3): S3Client {
  return new S3Client({
    endpoint: s3.endpoint,
    region: S3_TEST_REGION,
    forcePathStyle: true,
    credentials: S3_TEST_CREDENTIALS,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
