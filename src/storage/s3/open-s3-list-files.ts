/**
 * The object store of MAILSURE_LIST_STORE, opened: an S3 client with the standard AWS credential
 * chain (environment, shared profile, web identity, container or instance role) and the
 * configured endpoint, region and addressing, and the ListFiles over it.
 */
import { S3Client } from '@aws-sdk/client-s3';
import type { ObjectStoreConfig } from '../../core/config.js';
import type { Logger } from '../../core/logger.js';
import type { ListFiles } from '../../lists/list-files.js';
import { createS3ListFiles } from './s3-list-files.js';

/** Lifetime of a presigned results link (MAILSURE_LIST_STORE_REDIRECT). */
export const RESULTS_LINK_SECONDS = 300;

export function openS3ListFiles(
  store: ObjectStoreConfig,
  options: { dataDir: string; keepReceivedUploads: boolean; logger?: Logger },
): { files: ListFiles; close(): void } {
  const client = new S3Client({
    ...(store.endpoint ? { endpoint: store.endpoint } : {}),
    ...(store.region ? { region: store.region } : {}),
    forcePathStyle: store.pathStyle,
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
  return { files, close: () => client.destroy() };
}
