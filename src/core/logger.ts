/**
 * pino, with the request serializer that keeps addresses and keys out of logs: query values are
 * logged only for the harmless parameters below.
 */
import { pino, type DestinationStream, type Logger } from 'pino';

const LOGGABLE_PARAMS = new Set(['timeout', 'fields', 'format', 'header', 'delimiter', 'email_column', 'report', 'limit', 'page']);

export function createLogger(level: string, destination?: DestinationStream): Logger {
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
    destination,
  );
}

/** The URL with every query value outside LOGGABLE_PARAMS replaced by `~`. */
export function redactUrl(url: string): string {
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
