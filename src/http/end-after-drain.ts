/**
 * Every answer larger than a socket's buffer ends only once the socket has drained.
 *
 * Node's HTTP server stops reading a keep-alive connection when a request arrives while the last
 * answer's bytes are still queued on the socket (its guard against pipelined floods). Over TLS,
 * the parser then fails the next chunk with `HPE_PAUSED` and the connection is reset: a client
 * that reads a large answer to its end and at once sends its next call on the same connection
 * (any keep-alive agent) sees `ECONNRESET` for one call in a few under load. A client cannot
 * send before the answer's last byte reaches it, so writing that last byte only after the socket
 * has drained leaves nothing queued when the next call arrives.
 */
import type { ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { Readable, Transform, pipeline } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/** Below this an answer is one write that never fills the socket's buffer (its high-water mark). */
const SMALL = 16 * 1024;

export function installEndAfterDrain(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    // inject() answers have no socket to drain (and never emit 'drain').
    if (request.method === 'HEAD' || !(reply.raw.socket instanceof Socket)) return done(null, payload);
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
      if (payload.length <= SMALL) return done(null, payload);
      reply.header('content-length', Buffer.byteLength(payload));
      return done(null, endingAfterDrain(Readable.from([payload], { objectMode: false }), reply.raw));
    }
    if (payload instanceof Readable) return done(null, endingAfterDrain(payload, reply.raw));
    done(null, payload);
  });
}

/** `source` passed through, its end held back until `res` has nothing queued. */
export function endingAfterDrain(source: Readable, res: ServerResponse): Readable {
  const through: Transform = new Transform({
    transform: (chunk: Buffer, _encoding, next) => next(null, chunk),
    flush: (finish) => {
      const check = (): void => {
        if (res.destroyed || (through.readableLength === 0 && !res.writableNeedDrain)) return finish();
        // Bytes still on their way to a socket that has room: look again once they are written.
        if (!res.writableNeedDrain) return void setImmediate(check);
        const again = (): void => {
          res.off('drain', again);
          res.off('close', again);
          // After the pipe's own 'drain' listener has written what it held back.
          setImmediate(check);
        };
        res.once('drain', again);
        res.once('close', again);
      };
      check();
    },
  });
  pipeline(source, through, () => {});
  return through;
}
