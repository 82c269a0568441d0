/**
 * MAILSURE_LIST_STORE (decisions §2): the object store that holds lists' uploads and results, and
 * the settings that go with it, parsed for loadConfig (config.ts).
 */

/** An S3-compatible object store for list files; credentials come from the standard AWS chain. */
export interface ObjectStoreConfig {
  bucket: string;
  /** Key prefix without leading or trailing slash; '' for the bucket's root. */
  prefix: string;
  /** The store's URL (MinIO, Ceph, R2…) (MAILSURE_LIST_STORE_ENDPOINT); null: AWS S3 itself. */
  endpoint: string | null;
  /** MAILSURE_LIST_STORE_REGION; null: the AWS chain's (AWS_REGION, the profile). */
  region: string | null;
  /** Path-style addressing, `endpoint/bucket/key` (MAILSURE_LIST_STORE_PATH_STYLE), as most self-hosted stores want. */
  pathStyle: boolean;
  /** Results answered with a redirect to a short-lived presigned link (MAILSURE_LIST_STORE_REDIRECT); false: streamed. */
  redirect: boolean;
}

const S3_STORE = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/;
const STORE_SETTINGS = [
  'MAILSURE_LIST_STORE_ENDPOINT',
  'MAILSURE_LIST_STORE_REGION',
  'MAILSURE_LIST_STORE_PATH_STYLE',
  'MAILSURE_LIST_STORE_REDIRECT',
];

/** MAILSURE_LIST_STORE and the settings that go with it; each of those alone is refused by name. */
export function objectStore(
  read: (name: string) => string | undefined,
  fail: <T>(name: string, why: string, fallback: T) => T,
  flag: (name: string) => boolean | null,
  url: (name: string, schemes: string[]) => string | null,
): ObjectStoreConfig | null {
  const raw = read('MAILSURE_LIST_STORE');
  if (raw === undefined) {
    for (const name of STORE_SETTINGS)
      if (read(name) !== undefined) fail(name, 'is a setting of MAILSURE_LIST_STORE, which is not set', null);
    return null;
  }
  const m = S3_STORE.exec(raw);
  if (!m)
    return fail(
      'MAILSURE_LIST_STORE',
      'must be s3://bucket or s3://bucket/prefix (a bucket name: 3 to 63 lower-case letters, digits, dots and dashes)',
      null,
    );
  const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '');
  const region = read('MAILSURE_LIST_STORE_REGION') ?? null;
  if (region !== null && !/^[a-z0-9-]{1,64}$/.test(region))
    fail('MAILSURE_LIST_STORE_REGION', 'must be a region name such as us-east-1', null);
  return {
    bucket: m[1]!,
    prefix,
    endpoint: url('MAILSURE_LIST_STORE_ENDPOINT', ['http:', 'https:']),
    region,
    pathStyle: flag('MAILSURE_LIST_STORE_PATH_STYLE') ?? false,
    redirect: flag('MAILSURE_LIST_STORE_REDIRECT') ?? false,
  };
}
