import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayPrefix, generateApiKey, hashApiKey, looksLikeApiKey, sameHash } from './api-key.js';

describe('api keys', () => {
  it('are URL-safe, long and distinct', () => {
    const keys = Array.from({ length: 200 }, generateApiKey);
    for (const key of keys) {
      expect(key).toMatch(/^ms_[A-Za-z0-9_-]{32}$/);
      expect(encodeURIComponent(key)).toBe(key);
      expect(looksLikeApiKey(key)).toBe(true);
    }
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('hash to a stable SHA-256 hex digest', () => {
    expect(hashApiKey('ms_test')).toBe(hashApiKey('ms_test'));
    expect(hashApiKey('ms_test')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey('ms_test')).not.toBe(hashApiKey('ms_tesu'));
  });

  it('compare hashes only when equal', () => {
    const h = hashApiKey('a-key-value-1234');
    expect(sameHash(h, h)).toBe(true);
    expect(sameHash(h, hashApiKey('a-key-value-1235'))).toBe(false);
    expect(sameHash(h, '')).toBe(false);
    expect(sameHash('', '')).toBe(false);
  });

  it('show only a short prefix', () => {
    expect(displayPrefix('ms_abcdefghijklmnop')).toBe('ms_abcdef');
  });

  it('reject junk before any lookup', () => {
    for (const bad of ['', 'short', 'has space in it xxxxx', '<script>alert(1)</script>', 'k'.repeat(129), 'ключключключключключ']) {
      expect(looksLikeApiKey(bad)).toBe(false);
    }
    fc.assert(fc.property(fc.string(), (s) => looksLikeApiKey(s) === /^[A-Za-z0-9_-]{16,128}$/.test(s)));
  });
});
