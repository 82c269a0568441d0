/**
 * A real S3-protocol server on loopback for tests and benches: s3rver (npm), storing objects in a
 * temporary directory, reached over HTTP with path-style addressing and its own credentials.
 *
 * s3rver implements multipart uploads (initiate, upload part, complete) but answers
 * NotImplemented / MethodNotAllowed to two operations of the same family that the list store
 * relies on to clean up after a crash: ListMultipartUploads (`GET /bucket?uploads`) and
 * AbortMultipartUpload (`DELETE /bucket/key?uploadId=`). They are added here over s3rver's own
 * store of pending uploads (one folder per upload holding its key and parts), in the S3 API's
 * wire format, behind s3rver's signature check, so the SDK client talks to one server over one
 * socket for every operation.
 */
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';

const require = createRequire(import.meta.url);

/** What these tests use of s3rver (it ships no types of its own). */
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: { closeAllConnections(): void };
  store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
}
interface KoaContext {
  method: string;
  query: Record<string, string | undefined>;
  params: Record<string, string | undefined>;
  store: S3rverInstance['store'];
  status: number;
  type: string;
  body: unknown;
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;
interface RouterLayer {
  name?: string | null;
  stack: { name?: string }[];
}
interface KoaRouter {
  stack: RouterLayer[];
  use(path: string, middleware: Middleware): KoaRouter;
}

export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
export const S3_TEST_REGION = 'us-east-1';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The server's directory: what a test may look at to see what the server holds. */
  directory: string;
  /** The keys of the objects under `prefix`, sorted. */
  keys(prefix: string): Promise<string[]>;
  /** Multipart uploads begun and neither completed nor aborted, as the server holds them on disk (their parts). */
  uploadsOnDisk(): Promise<string[]>;
  /** Environment of a `mailsure` process storing lists here under `prefix`. */
  env(prefix: string): Record<string, string>;
  /** An outage: the server stops listening and drops every connection (connections are refused). */
  stop(): Promise<void>;
  /** The outage over: a server again on the same port, over the same objects. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestS3(bucket = 'mailsure-test'): Promise<TestS3> {
  addMultipartHousekeeping();
  const S3rver = require('s3rver') as new (options: object) => S3rverInstance;
  const directory = await mkdtemp(join(tmpdir(), 'mailsure-s3-'));
  const make = (port: number) => new S3rver({ address: '127.0.0.1', port, silent: true, directory, configureBuckets: [{ name: bucket }] });
  let server = make(0);
  const { port } = await server.run();
  let running = true;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    directory,
    async keys(prefix) {
      const client = new S3Client({ endpoint, region: S3_TEST_REGION, forcePathStyle: true, credentials: S3_TEST_CREDENTIALS });
      try {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
        return (page.Contents ?? []).map((o) => o.Key!).sort();
      } finally {
        client.destroy();
      }
    },
    uploadsOnDisk: () => readdir(server.store.getResourcePath(bucket, undefined, 'uploads')).catch(() => []),
    env: (prefix) => ({
      MAILSURE_LIST_STORE: `s3://${bucket}/${prefix}`,
      MAILSURE_LIST_STORE_ENDPOINT: endpoint,
      MAILSURE_LIST_STORE_REGION: S3_TEST_REGION,
      MAILSURE_LIST_STORE_PATH_STYLE: '1',
      AWS_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
      // Never ask an instance-metadata address for credentials: only loopback is a target here.
      AWS_EC2_METADATA_DISABLED: 'true',
    }),
    async stop() {
      if (!running) return;
      running = false;
      const closed = server.close();
      server.httpServer?.closeAllConnections();
      await closed;
    },
    async restart() {
      if (running) return;
      server = make(port);
      await server.run();
      running = true;
    },
    async close() {
      if (running) await server.close();
      running = false;
      await rm(directory, { recursive: true, force: true });
    },
  };
}

let added = false;

/** ListMultipartUploads and AbortMultipartUpload on s3rver's router, right after its signature check. */
function addMultipartHousekeeping(): void {
  if (added) return;
  added = true;
  const router = require('s3rver/lib/routes.js') as KoaRouter;
  router.use('/:bucket/:key*', multipartHousekeeping);
  const layer = router.stack.pop()!;
  const auth = router.stack.findIndex((l) => l.stack.some((m) => m.name === 'authentication'));
  if (auth < 0) throw new Error('s3rver changed: no authentication layer in its router');
  router.stack.splice(auth + 1, 0, layer);
}

async function multipartHousekeeping(ctx: KoaContext, next: () => Promise<void>): Promise<void> {
  const bucket = ctx.params.bucket!;
  const key = ctx.params.key ?? '';
  const uploadsDir = ctx.store.getResourcePath(bucket, undefined, 'uploads');
  if (ctx.method === 'GET' && key === '' && 'uploads' in ctx.query) {
    const prefix = ctx.query.prefix ?? '';
    const uploads: { key: string; id: string; initiated: Date }[] = [];
    for (const id of await readdir(uploadsDir).catch(() => [] as string[])) {
      const uploadKey = await readFile(join(uploadsDir, id, 'key'), 'utf8').catch(() => undefined);
      if (uploadKey === undefined || !uploadKey.startsWith(prefix)) continue;
      uploads.push({ key: uploadKey, id, initiated: (await stat(join(uploadsDir, id, 'key'))).mtime });
    }
    uploads.sort((a, b) => a.key.localeCompare(b.key) || a.id.localeCompare(b.id));
    ctx.type = 'application/xml';
    ctx.body =
      `<?xml version="1.0" encoding="UTF-8"?>\n<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">` +
      `<Bucket>${xml(bucket)}</Bucket><KeyMarker></KeyMarker><UploadIdMarker></UploadIdMarker><Prefix>${xml(prefix)}</Prefix>` +
      `<MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>` +
      uploads
        .map(
          (u) =>
            `<Upload><Key>${xml(u.key)}</Key><UploadId>${u.id}</UploadId><Initiated>${u.initiated.toISOString()}</Initiated><StorageClass>STANDARD</StorageClass></Upload>`,
        )
        .join('') +
      `</ListMultipartUploadsResult>`;
    return;
  }
  const uploadId = ctx.query.uploadId;
  if (ctx.method === 'DELETE' && key !== '' && uploadId !== undefined) {
    const dir = join(uploadsDir, uploadId.replace(/[^0-9a-f]/g, ''));
    const uploadKey = await readFile(join(dir, 'key'), 'utf8').catch(() => undefined);
    if (uploadKey !== key) {
      ctx.status = 404;
      ctx.type = 'application/xml';
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>`;
      return;
    }
    await rm(dir, { recursive: true, force: true });
    ctx.status = 204;
    return;
  }
  await next();
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
