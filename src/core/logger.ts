/**
 * pino, with the request serializer that keeps addresses and keys out of logs: query values are
 * logged only for the harmless parameters below.
 */
import { createRequire } from 'node:module';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogFormat } from './config.js';

const LOGGABLE_PARAMS = new Set(['timeout', 'fields', 'format', 'header', 'delimiter', 'email_column', 'report', 'limit', 'page']);

/**
 * `format`: `json` (one object per line, for collectors), `pretty` (one readable line per entry),
 * `auto` (pretty when stdout is a terminal). An explicit `destination` (tests) takes JSON unless
 * `pretty` is asked for.
 */
export function createLogger(level: string, destination?: DestinationStream, format: LogFormat = 'auto'): Logger {
  const pretty = format === 'pretty' || (format === 'auto' && destination === undefined && process.stdout.isTTY === true);
  return pino(
    {
      level,
      base: undefined,
      serializers: {
        // Fastify logs every request through this: method, redacted URL, never headers.
        req: (request: { method: string; url: string }) => ({ method: request.method, url: redactUrl(request.url) }),
        err: pino.stdSerializers.err,
      },
    },
    pretty ? prettyStream(destination) : destination,
  );
}

/**
 * pino-pretty, loaded only when wanted (it is not on the JSON path, nor in every CLI start), writing
 * synchronously so nothing is lost on exit. One line per entry: a request's and a list's fields are
 * already in the message, the rest follow on the same line.
 */
function prettyStream(destination?: DestinationStream): DestinationStream {
  const build = createRequire(import.meta.url)('pino-pretty') as (options: Record<string, unknown>) => DestinationStream;
  return build({
    sync: true,
    singleLine: true,
    colorize: destination === undefined && process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'method,url,status,ms',
    ...(destination ? { destination } : {}),
  });
}

/** An outcome webhook's path carries the key's ingestion token (`/v5/outcomes/<token>/<source>`). */
const OUTCOME_TOKEN_PATH = /^(\/v5\/outcomes\/)[^/?#]*/i;

/** The URL with the outcome ingestion token and every query value outside LOGGABLE_PARAMS replaced by `~`. */
export function redactUrl(given: string): string {
  const url = OUTCOME_TOKEN_PATH.test(given) ? given.replace(OUTCOME_TOKEN_PATH, '$1~') : given;
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      if (LOGGABLE_PARAMS.has(name)) return pair;
      // A bare value (`?a@b.com`) could itself be an address.
      return eq < 0 ? '~' : `${name}=~`;
    });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}

/** `local@domain` → `…@domain`: enough to follow a domain problem, never the mailbox. */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0 ? '…' : `…@${address.slice(at + 1)}`;
}

export type { Logger };
