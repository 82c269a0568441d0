/** A multipart/form-data body of one file part, streamed (a list can be gigabytes). */
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';

export interface MultipartBody {
  contentType: string;
  /** Known when the file's size is: a file on disk or a buffer. */
  length?: number;
  chunks(): AsyncIterable<Buffer>;
}

/** `file`: its bytes, and its size when known. */
export function multipartFile(field: string, fileName: string, file: { open(): Readable | Buffer; size?: number }): MultipartBody {
  const boundary = `----mailsure-${randomBytes(12).toString('hex')}`;
  const safeName = fileName.replace(/["\r\n\\]/g, '_');
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${safeName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    ...(file.size !== undefined ? { length: head.length + file.size + tail.length } : {}),
    async *chunks() {
      yield head;
      const content = file.open();
      if (Buffer.isBuffer(content)) yield content;
      else for await (const chunk of content) yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      yield tail;
    },
  };
}
