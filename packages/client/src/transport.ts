/**
 * One HTTP(S) exchange with a Mailsure server over node:https (so a private CA or the server's
 * self-signed certificate can be trusted per client), with the retries the server asks for: a 429
 * or 503 that carries `Retry-After` is tried again after that many seconds, when the request's
 * body can be sent again.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { fail, ok, type Failure, type Result } from './errors.js';

export interface TransportOptions {
  /** `https://host:port` (a path prefix is kept). */
  baseUrl: string;
  /** PEM certificate(s) to trust besides the system's: the server's self-signed one, or a private CA. */
  ca?: string | Buffer;
  /** false accepts any certificate (a lab only). Default true. */
  rejectUnauthorized?: boolean;
  /** No byte for this long ends a request. Default 60 s. */
  timeoutMs?: number;
  /** Tries after a 429 or 503 with Retry-After. Default 3. */
  maxRetries?: number;
  /** A longer Retry-After than this is not waited for: the 429 is answered. Default 60 s. */
  maxRetryWaitMs?: number;
  /** Told before each wait for a retry. */
  onRetry?: (retry: { status: number; waitMs: number; attempt: number }) => void;
}

export interface RequestBody {
  contentType: string;
  length?: number;
  chunks(): AsyncIterable<Buffer>;
  /** False for a stream the caller gave: it cannot be sent twice, so it is never retried. */
  replayable: boolean;
}

export interface Exchange {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  body?: RequestBody;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: IncomingMessage;
}

const RETRIED = new Set([429, 503]);

export class Transport {
  private readonly agent: http.Agent;

  constructor(private readonly options: TransportOptions) {
    const url = new URL(options.baseUrl);
    this.agent =
      url.protocol === 'https:'
        ? new https.Agent({
            keepAlive: true,
            ...(options.ca !== undefined ? { ca: options.ca } : {}),
            rejectUnauthorized: options.rejectUnauthorized ?? true,
          })
        : new http.Agent({ keepAlive: true });
  }

  /** The answer, whatever its status, after the retries a 429 or 503 asked for. */
  async send(exchange: Exchange): Promise<Result<Answer>> {
    const maxRetries = this.options.maxRetries ?? 3;
    for (let attempt = 1; ; attempt++) {
      const answer = await this.once(exchange);
      if (!answer.ok || !RETRIED.has(answer.value.status)) return answer;
      const waitMs = retryAfterSeconds(answer.value.headers) * 1000;
      const canRetry =
        attempt <= maxRetries && (exchange.body?.replayable ?? true) && waitMs > 0 && waitMs <= (this.options.maxRetryWaitMs ?? 60_000);
      if (!canRetry) return answer;
      answer.value.body.resume();
      this.options.onRetry?.({ status: answer.value.status, waitMs, attempt });
      await sleep(waitMs);
    }
  }

  /** The JSON answer of a 2xx, or the failure the server (or the network) gave. */
  async json<T>(exchange: Exchange): Promise<Result<{ value: T; headers: IncomingHttpHeaders }>> {
    const answer = await this.send(exchange);
    if (!answer.ok) return answer;
    if (answer.value.status >= 300) return fail(await failureOf(answer.value));
    const text = await readText(answer.value.body);
    if (!text.ok) return text;
    try {
      return ok({ value: JSON.parse(text.value) as T, headers: answer.value.headers });
    } catch {
      return fail({ kind: 'network', message: `the answer is not JSON (HTTP ${answer.value.status})` });
    }
  }

  close(): void {
    this.agent.destroy();
  }

  private once(exchange: Exchange): Promise<Result<Answer>> {
    const url = new URL(this.options.baseUrl.replace(/\/$/, '') + exchange.path);
    for (const [name, value] of Object.entries(exchange.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { accept: 'application/json', ...exchange.headers };
    if (exchange.body) {
      headers['content-type'] = exchange.body.contentType;
      if (exchange.body.length !== undefined) headers['content-length'] = String(exchange.body.length);
    }
    const timeout = this.options.timeoutMs ?? 60_000;
    return new Promise((resolve) => {
      let settled = false;
      const settle = (result: Result<Answer>) => {
        if (settled) return;
        settled = true;
        resolve(result);
      };
      const request = (url.protocol === 'https:' ? https : http).request(
        url,
        { method: exchange.method, headers, agent: this.agent, timeout },
        (response) => settle(ok({ status: response.statusCode ?? 0, headers: response.headers, body: response })),
      );
      request.on('timeout', () => request.destroy(new Error(`no answer within ${timeout} ms`)));
      request.on('error', (error: NodeJS.ErrnoException) => settle(fail({ kind: 'network', message: error.message, cause: error })));
      const body = exchange.body;
      if (!body) return void request.end();
      void (async () => {
        for await (const chunk of body.chunks()) {
          // Answered already (a refusal before the body was read): the rest is not wanted.
          if (settled || request.destroyed) break;
          if (!request.write(chunk)) await drainedOrClosed(request);
        }
        request.end();
      })().catch((error: unknown) => {
        settle(
          fail({
            kind: 'network',
            message: `reading the file failed: ${error instanceof Error ? error.message : String(error)}`,
            cause: error,
          }),
        );
        request.destroy();
      });
    });
  }
}

/**
 * The request takes more bytes again, or is gone. Whichever comes first removes the other's
 * listener: an upload of megabytes waits thousands of times, and a listener left behind by each
 * wait piled up on the request (Node's MaxListenersExceededWarning after ten).
 */
function drainedOrClosed(request: http.ClientRequest): Promise<void> {
  return new Promise((go) => {
    const done = () => {
      request.off('drain', done);
      request.off('close', done);
      go();
    };
    request.once('drain', done);
    request.once('close', done);
  });
}

export function retryAfterSeconds(headers: IncomingHttpHeaders): number {
  const value = Number(headers['retry-after']);
  return Number.isFinite(value) && value >= 0 ? value : 0;
}

/** The failure a non-2xx answer stands for: the server's `error_msg`, or its plain text. */
export async function failureOf(answer: Answer): Promise<Failure> {
  const text = await readText(answer.body);
  let message = text.ok ? text.value.trim() : '';
  try {
    const parsed = JSON.parse(message) as { error_msg?: unknown };
    if (typeof parsed.error_msg === 'string') message = parsed.error_msg;
  } catch {
    // Plain text (a bad key on /v5/ev), kept as it is.
  }
  const retryAfter = answer.headers['retry-after'] !== undefined ? retryAfterSeconds(answer.headers) : undefined;
  return {
    kind: 'http',
    status: answer.status,
    message: message || `HTTP ${answer.status}`,
    ...(retryAfter !== undefined ? { retryAfter } : {}),
  };
}

async function readText(stream: IncomingMessage): Promise<Result<string>> {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return ok(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    return fail({
      kind: 'network',
      message: `the answer was cut off: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
}
