/**
 * The List API: submit a file or a stream, follow a list until it finishes (with progress from
 * its counts), and fetch its results as a zip or unzipped, and the evidence of a list submitted with
 * `evidence: true`. The key goes in the `api_key` header.
 */
import { once } from 'node:events';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, rename, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { fail, fileFailure, ok, type Result } from './errors.js';
import { multipartFile } from './multipart.js';
import { progressOf, type Progress } from './progress.js';
import { failureOf, retryAfterSeconds, type Exchange, type Transport } from './transport.js';
import type { ListPage, ListResource, ListStatus, PurchaseRequest, SubmitParams, SubmittedList } from './types.js';
import { unzipSingle } from './unzip.js';

/** What a list is submitted from: a file path, its bytes, or a stream (sent once, never retried). */
export type ListSource = string | Buffer | Readable;

export interface WaitOptions {
  /** Told at every poll. */
  onProgress?: (progress: Progress) => void;
  /** Between polls when the server does not say (it says 5 s). */
  intervalMs?: number;
  /**
   * A list submitted with `report=true` stops in `Processed` once its reports are in, until it is
   * purchased: true returns there too (otherwise waiting would not end before a purchase).
   */
  untilReport?: boolean;
  signal?: AbortSignal;
}

/** Lists end in one of these; `Results` is the only one with a results file. */
export const FINISHED_STATUSES: readonly ListStatus[] = ['Results', 'Cancelled', 'Invalid', 'Error'];

/** A list's zip as the server sends it. */
export interface ListFile {
  stream: Readable;
  fileName: string;
  size?: number;
}

/** Files the results land in hold personal data: only their owner reads them. */
const OWNER_ONLY = 0o600;

export class ListsApi {
  constructor(
    private readonly transport: Transport,
    private readonly apiKey: string,
  ) {}

  /** `POST /v5/list`: the file is streamed; `fileName` names a Buffer or stream (default: the path's name). */
  async submit(
    source: ListSource,
    params: SubmitParams = {},
    options: { fileName?: string } = {},
  ): Promise<Result<SubmittedList & { location: string }>> {
    const fileName = options.fileName ?? (typeof source === 'string' ? basename(source) : (params.name ?? 'list.csv'));
    let file: { open(): Readable | Buffer; size?: number };
    if (typeof source === 'string') {
      const size = await readableSize(source);
      if (!size.ok) return size;
      file = { open: () => createReadStream(source), size: size.value };
    } else if (Buffer.isBuffer(source)) {
      file = { open: () => source, size: source.length };
    } else {
      file = { open: () => source };
    }
    const body = multipartFile('file', fileName, file);
    const answer = await this.transport.json<SubmittedList>({
      ...this.exchange('POST', '/v5/list', params),
      body: { ...body, chunks: () => body.chunks(), replayable: typeof source === 'string' || Buffer.isBuffer(source) },
    });
    if (!answer.ok) return answer;
    return ok({ ...answer.value.value, location: String(answer.value.headers.location ?? `/v5/list/${answer.value.value.list_id}`) });
  }

  /** `GET /v5/list/{id}`, with the seconds the server asks before the next poll (while unfinished). */
  async status(listId: number | string): Promise<Result<ListResource & { retryAfter?: number }>> {
    const answer = await this.transport.json<ListResource>(this.exchange('GET', `/v5/list/${encodeURIComponent(String(listId))}`));
    if (!answer.ok) return answer;
    const retryAfter = answer.value.headers['retry-after'] !== undefined ? retryAfterSeconds(answer.value.headers) : undefined;
    return ok({ ...answer.value.value, ...(retryAfter !== undefined ? { retryAfter } : {}) });
  }

  /** `GET /v5/list`: this key's lists, newest first. */
  async list(options: { page?: number; perPage?: number } = {}): Promise<Result<ListPage>> {
    return valueOf(
      await this.transport.json<ListPage>(this.exchange('GET', '/v5/list', { page: options.page, per_page: options.perPage })),
    );
  }

  /** `DELETE /v5/list/{id}`. */
  async cancel(listId: number | string): Promise<Result<ListResource>> {
    return valueOf(await this.transport.json<ListResource>(this.exchange('DELETE', `/v5/list/${encodeURIComponent(String(listId))}`)));
  }

  /** `POST /v5/list/{id}/purchase`: buy what `report=true` held back. */
  async purchase(listId: number | string, request: PurchaseRequest = {}): Promise<Result<ListResource>> {
    const json = Buffer.from(JSON.stringify(request));
    return valueOf(
      await this.transport.json<ListResource>({
        ...this.exchange('POST', `/v5/list/${encodeURIComponent(String(listId))}/purchase`),
        body: {
          contentType: 'application/json',
          length: json.length,
          replayable: true,
          chunks: async function* () {
            yield json;
          },
        },
      }),
    );
  }

  /** Polls until the list is finished (Results, Cancelled, Invalid or Error), as often as the server allows. */
  async wait(listId: number | string, options: WaitOptions = {}): Promise<Result<ListResource>> {
    for (;;) {
      const current = await this.status(listId);
      if (!current.ok) return current;
      const { retryAfter, ...list } = current.value;
      options.onProgress?.(progressOf(list));
      if (FINISHED_STATUSES.includes(list.status) || (options.untilReport && awaitsPurchase(list))) return ok(list);
      try {
        await sleep(
          retryAfter !== undefined ? retryAfter * 1000 : (options.intervalMs ?? 5_000),
          undefined,
          options.signal ? { signal: options.signal } : {},
        );
      } catch (error) {
        return fail({ kind: 'network', message: 'stopped waiting', cause: error });
      }
    }
  }

  /** `GET /v5/list/{id}/results` as a stream (401 until the list is in `Results`). */
  async results(listId: number | string): Promise<Result<ListFile>> {
    return this.file(listId, 'results');
  }

  /**
   * `GET /v5/list/{id}/evidence` as a stream: the evidence zip of a list submitted with
   * `evidence: true`, one JSON line per record (401 until the list is in `Results`, or for a key
   * without the evidence permission; 404 for a list without evidence).
   */
  async evidence(listId: number | string): Promise<Result<ListFile>> {
    return this.file(listId, 'evidence');
  }

  /** The results zip written to `path` (or into the directory `path` under the server's file name). */
  async download(listId: number | string, path: string): Promise<Result<{ path: string; bytes: number }>> {
    return saveTo(await this.results(listId), path);
  }

  /** The evidence zip written to `path` (or into the directory `path` under the server's file name, `<name>-<id>-Evidence.zip`). */
  async downloadEvidence(listId: number | string, path: string): Promise<Result<{ path: string; bytes: number }>> {
    return saveTo(await this.evidence(listId), path);
  }

  private async file(listId: number | string, output: 'results' | 'evidence'): Promise<Result<ListFile>> {
    const answer = await this.transport.send(
      this.exchange('GET', `/v5/list/${encodeURIComponent(String(listId))}/${output}`, {}, 'application/zip'),
    );
    if (!answer.ok) return answer;
    if (answer.value.status >= 300) return fail(await failureOf(answer.value));
    const length = Number(answer.value.headers['content-length']);
    return ok({
      stream: answer.value.body,
      fileName: fileNameOf(String(answer.value.headers['content-disposition'] ?? '')) ?? `list-${listId}.zip`,
      ...(Number.isFinite(length) ? { size: length } : {}),
    });
  }

  /** The results file unzipped into `directory`: the path of the one file the zip holds. */
  async downloadAndUnzip(listId: number | string, directory: string): Promise<Result<{ path: string }>> {
    const made = await mkdir(directory, { recursive: true, mode: 0o700 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    if (made !== undefined) return fail(fileFailure(directory, made, 'write'));
    const zip = await this.download(listId, join(directory, `.mailsure-${listId}-${process.pid}.zip`));
    if (!zip.ok) return zip;
    try {
      return ok({ path: await unzipSingle(zip.value.path, directory, OWNER_ONLY) });
    } catch (error) {
      return fail({
        kind: 'network',
        message: `the results zip cannot be read: ${error instanceof Error ? error.message : String(error)}`,
        cause: error,
      });
    } finally {
      await rm(zip.value.path, { force: true });
    }
  }

  private exchange(method: Exchange['method'], path: string, query: Exchange['query'] = {}, accept = 'application/json'): Exchange {
    return { method, path, query, headers: { api_key: this.apiKey, accept } };
  }
}

/** A list's zip written to `path` (or into the directory `path` under the server's file name), owner-only. */
async function saveTo(results: Result<ListFile>, path: string): Promise<Result<{ path: string; bytes: number }>> {
  if (!results.ok) return results;
  const target = (await isDirectory(path)) ? join(path, basename(results.value.fileName)) : path;
  const partial = `${target}.part`;
  const out = createWriteStream(partial, { mode: OWNER_ONLY });
  // A target that cannot be written is the caller's to fix, not a failed download.
  const unwritable = await once(out, 'open').then(
    () => undefined,
    (error: unknown) => error,
  );
  if (unwritable !== undefined) {
    results.value.stream.destroy();
    return fail(fileFailure(target, unwritable, 'write'));
  }
  try {
    await pipeline(results.value.stream, out);
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    return fail({
      kind: 'network',
      message: `the download failed: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
  return ok({ path: target, bytes: (await stat(target)).size });
}

/** Every service has reported and the list waits in Processed: a report=true list before purchase. */
export function awaitsPurchase(list: ListResource): boolean {
  const services = Object.values(list.services).filter((s) => s !== undefined);
  return list.status === 'Processed' && services.length > 0 && services.every((s) => s.status === 'Completed');
}

function valueOf<T>(result: Result<{ value: T }>): Result<T> {
  return result.ok ? ok(result.value.value) : result;
}

/** RFC 6266: `filename*=UTF-8''…` first, else `filename="…"`. */
function fileNameOf(disposition: string): string | undefined {
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (extended) return decodeURIComponent(extended[1]!);
  return /filename="([^"]+)"/i.exec(disposition)?.[1];
}

/** The size of the list at `path`, or why it cannot be sent (missing, a directory, unreadable). */
async function readableSize(path: string): Promise<Result<number>> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) return fail({ kind: 'file', path, message: `${path} is a directory, not a file` });
    await access(path, constants.R_OK);
    return ok(info.size);
  } catch (error) {
    return fail(fileFailure(path, error, 'read'));
  }
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
