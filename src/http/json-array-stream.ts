/**
 * A JSON array of elements already serialised, sent as a stream of chunks of about 64 KB: a
 * 5,000-record answer (several megabytes) written at once is encrypted by TLS in one block that
 * holds the event loop; chunk by chunk, every other request is served in between.
 */
import { Readable } from 'node:stream';

const CHUNK_CHARS = 64 * 1024;

export function jsonArrayStream(elements: readonly string[]): Readable {
  function* chunks(): Generator<string> {
    let chunk = '[';
    for (let i = 0; i < elements.length; i++) {
      chunk += i === 0 ? elements[i] : `,${elements[i]}`;
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
    yield `${chunk}]`;
  }
  return Readable.from(chunks(), { objectMode: false });
}
