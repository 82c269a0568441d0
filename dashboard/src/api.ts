/**
 * Calls to the API from the browser, same origin: every call is an ordinary API call with the
 * signed-in key (the `api_key` header for the List API, the `api_key` parameter elsewhere, as the
 * API reference says). Failures become an ApiError carrying the API's own message.
 */
import type { AppendAnswer, ListPage, ListResource, SubmittedList, VerifyAnswer } from '../../packages/client/src/types.js';

export type { AppendAnswer, ListPage, ListResource, SubmittedList, VerifyAnswer };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Seconds the server asked us to wait (a 429's Retry-After). */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
}

/** Seconds to wait before polling again when the answer says nothing (the reference's 5 s). */
export const DEFAULT_POLL_SECONDS = 5;

async function failure(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let message = text.trim();
  try {
    const body = JSON.parse(text) as { error_msg?: unknown };
    if (typeof body.error_msg === 'string') message = body.error_msg;
  } catch {
    // Plain text (the 401 of the single-record endpoints): the text is the message.
  }
  return new ApiError(
    response.status,
    message || `The server answered ${response.status} ${response.statusText}`,
    retryAfterSeconds(response.headers.get('retry-after')),
  );
}

/** What a redirect means here: the results of a server with MAILSURE_LIST_STORE_REDIRECT, in an object store on another origin. */
const REDIRECTED =
  'The server hands these results out from its object store (MAILSURE_LIST_STORE_REDIRECT), which this page does not reach: download them with `mailsure lists download` or the API.';

async function call(path: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    // Never follow a redirect: the page talks to this origin only (its CSP says so too).
    response = await fetch(path, { ...init, credentials: 'omit', redirect: 'manual' });
  } catch {
    throw new ApiError(0, 'The server could not be reached: check that it is running and try again.');
  }
  if (response.type === 'opaqueredirect') throw new ApiError(302, REDIRECTED);
  if (!response.ok) throw await failure(response);
  return response;
}

/** Seconds from a Retry-After header (delta seconds), or null when absent or unreadable. */
export function retryAfterSeconds(value: string | null): number | null {
  if (value === null || !/^\s*\d+\s*$/.test(value)) return null;
  return Number(value);
}

export interface SubmitOptions {
  header: boolean;
  emailColumn?: number;
  /** One character, `tab`, or undefined for the server's default by file extension. */
  delimiter?: string;
  report: boolean;
  fields?: string;
}

export function submitQuery(file: { name: string }, options: SubmitOptions): string {
  const query = new URLSearchParams();
  query.set('name', file.name);
  if (options.header) query.set('header', 'true');
  if (options.emailColumn !== undefined) query.set('email_column', String(options.emailColumn));
  if (options.delimiter) query.set('delimiter', options.delimiter);
  if (options.report) query.set('report', 'true');
  if (options.fields?.trim()) query.set('fields', options.fields.trim());
  return query.toString();
}

export function createApi(key: string) {
  const headers = { api_key: key };
  const json = async <T>(response: Response) => (await response.json()) as T;
  return {
    async lists(perPage = 100): Promise<ListPage> {
      return json(await call(`/v5/list?per_page=${perPage}`, { headers }));
    },
    /** One list and how long to wait before asking again (null once it is finished). */
    async list(id: number): Promise<{ list: ListResource; retryAfter: number | null }> {
      const response = await call(`/v5/list/${id}`, { headers });
      return { list: await json<ListResource>(response), retryAfter: retryAfterSeconds(response.headers.get('retry-after')) };
    },
    async submit(file: File, options: SubmitOptions): Promise<SubmittedList> {
      const body = new FormData();
      body.append('file', file, file.name);
      return json(await call(`/v5/list?${submitQuery(file, options)}`, { method: 'POST', headers, body }));
    },
    async cancel(id: number): Promise<ListResource> {
      return json(await call(`/v5/list/${id}`, { method: 'DELETE', headers }));
    },
    async purchase(id: number): Promise<ListResource> {
      return json(await call(`/v5/list/${id}/purchase`, { method: 'POST', headers }));
    },
    /** The results file and the name the server gives it. */
    async results(id: number): Promise<{ blob: Blob; fileName: string }> {
      const response = await call(`/v5/list/${id}/results`, { headers });
      const disposition = response.headers.get('content-disposition') ?? '';
      const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `list-${id}-results.zip`;
      return { blob: await response.blob(), fileName };
    },
    /** `explain`: the evidence beside the verdict (keys with the evidence permission; others get the verdict alone). */
    async verify(email: string, explain = false): Promise<VerifyAnswer> {
      return json(await call(`/v5/ev?${new URLSearchParams({ email, api_key: key, ...(explain ? { explain: 'true' } : {}) })}`, {}));
    },
    async lookup(email: string): Promise<AppendAnswer> {
      return json(await call(`/v5/eppend?${new URLSearchParams({ email, api_key: key })}`, {}));
    },
  };
}

export type Api = ReturnType<typeof createApi>;

/** What the admin API (/v5/admin/…, MAILSURE_ADMIN_TOKEN) answers; see src/http/routes/admin.ts. */
export interface AdminKey {
  name: string;
  key_prefix: string;
  services: string[];
  variant: string;
  fields: string[] | null;
  quota: number | null;
  calls_used: number;
  rate: number;
  /** Records a second; null: no such limit. */
  record_rate: number | null;
  trial: boolean;
  /** May ask for a verdict's evidence (explain=true). */
  evidence: boolean;
  created_at: string;
  revoked_at: string | null;
  usage?: Record<string, number>;
}
export interface Concern {
  state: string;
  evidence: string[];
  hint?: string;
  checked_at?: string;
}
export interface AdminHealth {
  mailbox_verification?: string;
  resolver?: Concern;
  smtp_egress?: Concern;
  identity?: Concern;
  /** Each SMTP egress by label: in rotation or out, and why. */
  smtp_egress_pool?: { label: string; way: string; healthy: boolean; detail?: string; since?: string }[];
}
export type AdminList = ListResource & { key_name: string };
/** Outcomes of each kind (bounce, deferral, blocked, complaint, delivery) by verdict class (50, 45, 20, 5, invalid, other). */
export type ClassCounts = Record<string, Record<string, number>>;
/** GET /v5/admin/outcomes: what ESPs reported after our verdicts, every key, over the last 30 days. */
export interface AdminOutcomes {
  since: string;
  total: number;
  classes: ClassCounts;
  /** The same per ESP (only those that reported any). */
  by_source: Record<string, ClassCounts>;
}

/**
 * Whether the server has the operator view: without a token its admin routes answer 401 when
 * MAILSURE_ADMIN_TOKEN is set (429 while wrong tokens from this address are slowed), and do not
 * exist (404) when it is not.
 */
export async function operatorAvailable(): Promise<boolean> {
  try {
    const response = await fetch('/v5/admin/health', { credentials: 'omit', redirect: 'manual' });
    // 429: wrong tokens from this address are being slowed, so the routes exist.
    return response.status === 401 || response.status === 429;
  } catch {
    return false;
  }
}

export function createAdminApi(token: string) {
  const headers = { authorization: `Bearer ${token}` };
  const json = async <T>(response: Response) => (await response.json()) as T;
  return {
    async keys(): Promise<AdminKey[]> {
      return (await json<{ keys: AdminKey[] }>(await call('/v5/admin/keys', { headers }))).keys;
    },
    async createKey(settings: {
      name: string;
      services: string[];
      quota?: string;
      fields?: string;
      evidence?: boolean;
    }): Promise<AdminKey & { key: string; webhook_secret: string }> {
      return json(
        await call('/v5/admin/keys', {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(settings),
        }),
      );
    },
    async revokeKey(name: string): Promise<AdminKey> {
      return json(await call(`/v5/admin/keys/${encodeURIComponent(name)}`, { method: 'DELETE', headers }));
    },
    async health(): Promise<AdminHealth> {
      return json(await call('/v5/admin/health', { headers }));
    },
    async lists(): Promise<AdminList[]> {
      return (await json<{ lists: AdminList[] }>(await call('/v5/admin/lists', { headers }))).lists;
    },
    async outcomes(): Promise<AdminOutcomes> {
      return json(await call('/v5/admin/outcomes', { headers }));
    },
  };
}

export type AdminApi = ReturnType<typeof createAdminApi>;
