/**
 * ListFiles in an object store speaking the S3 API (lists/list-files.ts), for scale-out across
 * machines: `<prefix>/lists/<id>/upload.<ext>`, `<prefix>/lists/<id>/results.zip` and (a list
 * with evidence) `<prefix>/lists/<id>/evidence.zip` in one bucket, every process with a data directory of its own for working copies.
 *
 * - An upload is received into a local file (the readers need random access), then streamed to
 *   the store with a multipart upload; a process that runs lists keeps that file as its working
 *   copy, any other fetches the object once into its own data directory when it first reads it.
 * - The results zip (and the evidence zip) is written locally, then streamed to the store with a multipart upload, which
 *   the store makes visible only once complete: no partial results are ever served.
 * - Nothing sits whole in memory: parts of `partSize` bytes, a few at a time, both ways.
 * - A process killed mid-upload leaves an unfinished multipart upload: invisible, but holding its
 *   parts. Retention aborts those of a deleted list, and the daily sweep every unfinished upload
 *   older than its cut-off (a store without ListMultipartUploads is said so in the log once; a
 *   bucket lifecycle rule then does it).
 * - A store that does not answer (connection refused or reset, past the client's deadlines, a 5xx
 *   or 429 answer) fails the call with ListFilesUnavailable: the caller answers 503, a list waits.
 * Local files hold personal data: folders 0700, files 0600, as the directory store's.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Logger } from '../../core/logger.js';
import {
  attachmentDisposition,
  incomingDir,
  listDir,
  ListFilesUnavailable,
  resultsPath,
  uploadPath,
  type ListFiles,
  type ListOutput,
} from '../../lists/list-files.js';
import type { InputFormat } from '../../lists/list-record.js';

export interface S3ListFilesOptions {
  client: S3Client;
  bucket: string;
  /** Key prefix without leading or trailing slash; '' for the bucket's root. */
  prefix: string;
  /** This process's own data directory: working copies only. */
  dataDir: string;
  /** Keep a received upload as this process's working copy (true for a process that runs lists). */
  keepReceivedUploads?: boolean;
  /** Results answered as a presigned link living this many seconds; unset: the download streams. */
  linkSeconds?: number;
  /** Bytes per part of a multipart upload (default 8 MiB; S3's minimum is 5 MiB). */
  partSize?: number;
  logger?: Logger;
}

const OWNER_ONLY = 0o700;
const DEFAULT_PART_SIZE = 8 * 1024 * 1024;
/** Parts in flight at once per upload: memory is about this times the part size. */
const PARTS_IN_FLIGHT = 4;

export function createS3ListFiles(options: S3ListFilesOptions): ListFiles {
  const { client, bucket, dataDir } = options;
  const base = options.prefix === '' ? '' : `${options.prefix}/`;
  const listsPrefix = `${base}lists/`;
  const keyOfList = (listId: number) => `${listsPrefix}${listId}/`;
  const uploadKey = (listId: number, format: InputFormat) => `${keyOfList(listId)}upload.${format}`;
  const resultsKey = (listId: number, output: ListOutput = 'results') => `${keyOfList(listId)}${output}.zip`;
  /** Downloads of uploads under way in this process, so concurrent readers share one. */
  const fetching = new Map<string, Promise<void>>();
  let warnedNoListing = false;

  const put = async (key: string, file: string, contentType: string) => {
    const upload = new Upload({
      client,
      params: { Bucket: bucket, Key: key, Body: createReadStream(file), ContentType: contentType },
      partSize: options.partSize ?? DEFAULT_PART_SIZE,
      queueSize: PARTS_IN_FLIGHT,
      // A failed upload is aborted at once (its parts deleted); only a killed process leaves one.
      leavePartsOnError: false,
    });
    await upload.done();
  };

  const download = async (key: string, local: string) => {
    await mkdir(dirname(local), { recursive: true, mode: OWNER_ONLY });
    const partial = `${local}.${randomUUID()}.partial`;
    try {
      const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key })).catch((error: unknown) => {
        throw isMissing(error) ? new Error(`the object s3://${bucket}/${key} is missing`, { cause: error }) : error;
      });
      await pipeline(object.Body as Readable, createWriteStream(partial, { mode: 0o600 }));
      await rename(partial, local);
    } finally {
      await rm(partial, { force: true });
    }
  };

  /** Every unfinished multipart upload under `prefix`, page by page; none when the store cannot list them. */
  async function* unfinishedUploads(prefix: string): AsyncGenerator<{ key: string; uploadId: string; initiated: number }> {
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      let page;
      try {
        page = await client.send(
          new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }),
        );
      } catch (error) {
        if (!isNotImplemented(error)) throw error;
        if (!warnedNoListing) {
          warnedNoListing = true;
          options.logger?.warn(
            { bucket },
            'the object store cannot list unfinished multipart uploads: give the bucket a lifecycle rule that aborts them after a day',
          );
        }
        return;
      }
      for (const upload of page.Uploads ?? []) {
        if (upload.Key && upload.UploadId)
          yield { key: upload.Key, uploadId: upload.UploadId, initiated: upload.Initiated?.getTime() ?? Number.POSITIVE_INFINITY }; // undated: never taken for old
      }
      if (!page.IsTruncated) return;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    }
  }

  const abort = (key: string, uploadId: string) =>
    client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId })).catch((error: unknown) => {
      if (!isMissing(error)) throw error; // already completed or aborted by someone else
    });

  async function* objects(prefix: string): AsyncGenerator<string> {
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
      for (const object of page.Contents ?? []) if (object.Key) yield object.Key;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  const files: ListFiles = {
    async incomingPath() {
      await mkdir(incomingDir(dataDir), { recursive: true, mode: OWNER_ONLY });
      return join(incomingDir(dataDir), randomUUID());
    },
    async keepUpload(listId, format, incoming) {
      await put(uploadKey(listId, format), incoming, 'application/octet-stream');
      if (options.keepReceivedUploads) {
        await mkdir(listDir(dataDir, listId), { recursive: true, mode: OWNER_ONLY });
        await rename(incoming, uploadPath(dataDir, listId, format));
      } else {
        await rm(incoming, { force: true });
      }
    },
    async uploadPath(listId, format) {
      const local = uploadPath(dataDir, listId, format);
      // Touched on every use: the sweep deletes working copies nobody used for a day.
      const now = new Date();
      if (
        await utimes(local, now, now).then(
          () => true,
          () => false,
        )
      )
        return local;
      let pending = fetching.get(local);
      if (!pending) {
        pending = download(uploadKey(listId, format), local).finally(() => fetching.delete(local));
        fetching.set(local, pending);
      }
      await pending;
      return local;
    },
    async resultsPath(listId, output) {
      await mkdir(listDir(dataDir, listId), { recursive: true, mode: OWNER_ONLY });
      return resultsPath(dataDir, listId, output);
    },
    async keepResults(listId) {
      // The evidence first: once the results are stored the list's files are complete.
      const evidence = resultsPath(dataDir, listId, 'evidence');
      if (
        await stat(evidence).then(
          () => true,
          () => false,
        )
      )
        await put(resultsKey(listId, 'evidence'), evidence, 'application/zip');
      await put(resultsKey(listId), resultsPath(dataDir, listId), 'application/zip');
      // The list is done with its working copies here.
      await rm(listDir(dataDir, listId), { recursive: true, force: true });
    },
    async openResults(listId, output) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: resultsKey(listId, output) }));
        return { size: object.ContentLength ?? 0, stream: object.Body as Readable };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async remove(listId) {
      let had = false;
      for await (const key of objects(keyOfList(listId))) {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
        had = true;
      }
      for await (const upload of unfinishedUploads(keyOfList(listId))) await abort(upload.key, upload.uploadId);
      await rm(listDir(dataDir, listId), { recursive: true, force: true });
      return had;
    },
    async sweepIncoming(before) {
      await sweepLocal(dataDir, before);
      for await (const upload of unfinishedUploads(listsPrefix)) {
        if (upload.initiated < before) await abort(upload.key, upload.uploadId);
      }
    },
  };
  if (options.linkSeconds !== undefined) {
    const expiresIn = options.linkSeconds;
    files.resultsLink = async (listId, fileName, output) => {
      const key = resultsKey(listId, output);
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      const get = new GetObjectCommand({
        Bucket: bucket,
        Key: key,
        ResponseContentType: 'application/zip',
        ResponseContentDisposition: attachmentDisposition(fileName),
      });
      return getSignedUrl(client, get, { expiresIn });
    };
  }
  return guardOutages(files);
}

/** Every call that reaches the store fails with ListFilesUnavailable when the store did not answer. */
function guardOutages(files: ListFiles): ListFiles {
  const guarded = { ...files };
  for (const name of ['keepUpload', 'uploadPath', 'keepResults', 'openResults', 'resultsLink', 'remove', 'sweepIncoming'] as const) {
    const call = files[name] as ((...args: unknown[]) => Promise<unknown>) | undefined;
    if (!call) continue;
    (guarded as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      try {
        return await call(...args);
      } catch (error) {
        throw isOutage(error) ? new ListFilesUnavailable(`the object store did not answer: ${describe(error)}`, { cause: error }) : error;
      }
    };
  }
  return guarded;
}

/** Network failures the SDK passes on (its own retries spent), and answers that say "not now". */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
]);
const NETWORK_NAMES = new Set(['TimeoutError', 'RequestTimeout', 'AbortError', 'SlowDown', 'ServiceUnavailable', 'InternalError']);

function isOutage(error: unknown): boolean {
  const status = statusOf(error);
  if (status !== undefined && (status >= 500 || status === 429)) return true;
  const code = (error as { code?: string })?.code;
  return (code !== undefined && NETWORK_CODES.has(code)) || NETWORK_NAMES.has(nameOf(error) ?? '');
}

function describe(error: unknown): string {
  const status = statusOf(error);
  const code = (error as { code?: string })?.code;
  return status !== undefined ? `HTTP ${status}` : (code ?? nameOf(error) ?? 'no answer');
}

/**
 * Local leftovers older than `before`: half-received uploads, and working copies (touched on
 * every use) of lists nobody here read since; the store still holds the lists' files.
 */
async function sweepLocal(dataDir: string, before: number): Promise<void> {
  const lists = dirname(incomingDir(dataDir));
  for (const name of await readdir(lists).catch(() => [] as string[])) {
    const dir = join(lists, name);
    if (name === 'incoming') {
      for (const file of await readdir(dir).catch(() => [] as string[])) {
        const info = await stat(join(dir, file)).catch(() => undefined);
        if (info && info.mtimeMs < before) await rm(join(dir, file), { force: true });
      }
      continue;
    }
    // The folder's own time too: one made a moment ago is about to receive a file.
    const entries = ['.', ...(await readdir(dir).catch(() => [] as string[]))];
    const times = await Promise.all(
      entries.map((file) =>
        stat(join(dir, file)).then(
          (s) => s.mtimeMs,
          () => 0,
        ),
      ),
    );
    if (times.every((t) => t < before)) await rm(dir, { recursive: true, force: true });
  }
}

const statusOf = (error: unknown): number | undefined => (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
const nameOf = (error: unknown): string | undefined => (error as { name?: string })?.name;

function isMissing(error: unknown): boolean {
  return statusOf(error) === 404 || ['NoSuchKey', 'NotFound', 'NoSuchUpload'].includes(nameOf(error) ?? '');
}

function isNotImplemented(error: unknown): boolean {
  return statusOf(error) === 501 || nameOf(error) === 'NotImplemented';
}
