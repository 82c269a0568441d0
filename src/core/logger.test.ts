import { describe, expect, it } from 'vitest';
import { maskAddress, redactUrl } from './logger.js';

describe('redactUrl', () => {
  it('hides addresses and keys but keeps harmless parameters', () => {
    expect(redactUrl('/v5/ev?email=john%40gmail.com&api_key=abc&timeout=5')).toBe('/v5/ev?email=~&api_key=~&timeout=5');
    expect(redactUrl('/v5/td?md5_email=0123&fields=age,eam')).toBe('/v5/td?md5_email=~&fields=age,eam');
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
