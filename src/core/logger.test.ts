import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger, maskAddress, redactUrl } from './logger.js';

function capture(): { stream: Writable; lines: () => string[] } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, lines: () => text.split('\n').filter(Boolean) };
}

describe('createLogger', () => {
  it('writes one JSON object per line unless pretty is asked for', () => {
    const out = capture();
    createLogger('info', out.stream).info({ list_id: 7 }, 'list 7 submitted');
    createLogger('info', out.stream, 'json').info('second');
    expect(out.lines().map((line) => JSON.parse(line) as unknown)).toMatchObject([
      { level: 30, list_id: 7, msg: 'list 7 submitted' },
      { msg: 'second' },
    ]);
  });

  it('pretty: one readable line per entry, request fields folded into the message, the rest kept', () => {
    const out = capture();
    const logger = createLogger('info', out.stream, 'pretty');
    logger.info({ method: 'GET', url: '/v5/ev?email=~', status: 200, ms: 1.5, request_id: 'ab-1' }, 'GET /v5/ev?email=~ 200 1.5 ms');
    logger.warn({ list_id: 7, attempt: 2 }, 'list callback not delivered');
    const lines = out.lines();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/v5\/ev\?email=~ 200 1\.5 ms \{"request_id":"ab-1"\}$/);
    expect(lines[1]).toMatch(/WARN: list callback not delivered \{"list_id":7,"attempt":2\}$/);
    expect(lines.join('\n')).not.toContain('\u001b[');
  });
});

describe('redactUrl', () => {
  it('hides addresses and keys but keeps harmless parameters', () => {
    expect(redactUrl('/v5/ev?email=john%40gmail.com&api_key=abc&timeout=5')).toBe('/v5/ev?email=~&api_key=~&timeout=5');
    expect(redactUrl('/v5/td?md5_email=0123&fields=age,eam')).toBe('/v5/td?md5_email=~&fields=age,eam');
  });
  it('hides the ingestion token an outcome webhook carries in its path', () => {
    expect(redactUrl('/v5/outcomes/mso_abcdefghijklmnopqrstuvwxyz012345/sendgrid')).toBe('/v5/outcomes/~/sendgrid');
    expect(redactUrl('/v5/outcomes/mso_secret?x=a@b.com')).toBe('/v5/outcomes/~?x=~');
    expect(redactUrl('/v5/outcomes/mso_secret')).toBe('/v5/outcomes/~');
    expect(redactUrl('/V5/OUTCOMES/mso_secret/ses')).toBe('/V5/OUTCOMES/~/ses');
  });
  it('leaves a URL without a query alone', () => {
    expect(redactUrl('/healthz')).toBe('/healthz');
  });
  it('never lets a value through under an unknown name', () => {
    expect(redactUrl('/x?a@b.com')).toBe('/x?~');
    expect(redactUrl('/x?q=a@b.com&&=x')).toBe('/x?q=~&~&=~');
  });
});

describe('maskAddress', () => {
  it('keeps only the domain', () => {
    expect(maskAddress('john.doe@example.com')).toBe('…@example.com');
    expect(maskAddress('no-at-sign')).toBe('…');
  });
});
