/**
 * The object store of MAILSURE_LIST_STORE, opened: an S3 client with the standard AWS credential
 * chain (environment, shared profile, web identity, container or instance role) and the
 * configured endpoint, region and addressing, and the ListFiles over it.
 */
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { ObjectStoreConfig } from '../../core/config.js';
import { reasonOf, StartupError } from '../../core/startup-error.js';
import type { Logger } from '../../core/logger.js';
import type { ListFiles } from '../../lists/list-files.js';
import { createS3ListFiles } from './s3-list-files.js';

/**
 * Deadlines of every store call: a connection within 5 s, and no silence longer than 30 s on an
 * open one, while sending or receiving (a slow but moving 8 MiB part or download is not cut; the
 * SDK's `requestTimeout` would bound a whole request, and a results zip can be gigabytes). With
 * the SDK's three attempts a store that stopped answering fails a call within about two minutes,
 * never hangs it.
 */
export const STORE_DEADLINES = { connectionTimeout: 5_000, socketTimeout: 30_000 };

/** A readiness ping gives up after this (below /readyz's own deadline, so the reason is the store's). */
const READINESS_PING_MS = 1_500;

/** Lifetime of a presigned results link (MAILSURE_LIST_STORE_REDIRECT). */
export const RESULTS_LINK_SECONDS = 300;

export function openS3ListFiles(
  store: ObjectStoreConfig,
  options: { dataDir: string; keepReceivedUploads: boolean; logger?: Logger; deadlines?: typeof STORE_DEADLINES },
): { files: ListFiles; check(): Promise<void>; ping(): Promise<void>; close(): void } {
  const client = new S3Client({
    ...(store.endpoint ? { endpoint: store.endpoint } : {}),
    ...(store.region ? { region: store.region } : {}),
    forcePathStyle: store.pathStyle,
    requestHandler: options.deadlines ?? STORE_DEADLINES,
    // Checksums only where the API requires them: many S3-compatible stores refuse the SDK's
    // default trailing checksums (aws-chunked bodies) on uploads.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const files = createS3ListFiles({
    client,
    bucket: store.bucket,
    prefix: store.prefix,
    dataDir: options.dataDir,
    keepReceivedUploads: options.keepReceivedUploads,
    ...(store.redirect ? { linkSeconds: RESULTS_LINK_SECONDS } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  return {
    files,
    // At start: a wrong bucket, endpoint, region or credential is the operator's to fix, said in one line.
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket: store.bucket }));
      } catch (error) {
        throw new StartupError(
          `cannot use the object store s3://${store.bucket}${store.prefix ? `/${store.prefix}` : ''} at ${store.endpoint ?? 'AWS S3'} (${storeReason(error)}); ` +
            'check MAILSURE_LIST_STORE, MAILSURE_LIST_STORE_ENDPOINT, MAILSURE_LIST_STORE_REGION, MAILSURE_LIST_STORE_PATH_STYLE and the AWS credentials',
        );
      }
    },
    // While serving (/readyz): whether the store answers at all, its own error as it came.
    async ping() {
      await client.send(new HeadBucketCommand({ Bucket: store.bucket }), { abortSignal: AbortSignal.timeout(READINESS_PING_MS) });
    },
    close: () => client.destroy(),
  };
}

/** What the store answered (HEAD answers carry no body: the status says it), or why nothing answered. */
function storeReason(error: unknown): string {
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  if (status === 404) return 'HTTP 404: no such bucket';
  if (status === 403) return 'HTTP 403: access denied';
  if (status === 301) return 'HTTP 301: the bucket is in another region';
  if (status !== undefined) return `HTTP ${status}: ${(error as Error).name}`;
  return reasonOf(error);
}
