import { describe, expect, it } from 'vitest';
import { md5Hex, normalizeEmail, sha1Hex } from './email-hash.js';

describe('email hashes', () => {
  it('normalise by trimming and lower-casing only', () => {
    expect(normalizeEmail('  Jane.Doe+Tag@Example.COM\t')).toBe('jane.doe+tag@example.com');
  });

  it('hash the normalised address (known vectors)', () => {
    // printf 'test@example.com' | sha1sum / md5sum
    expect(sha1Hex('test@example.com')).toBe('567159d622ffbb50b11b0efd307be358624a26ee');
    expect(md5Hex('test@example.com')).toBe('55502f40dc8b7c769880b10874abc9d0');
    expect(sha1Hex(' TEST@Example.com ')).toBe(sha1Hex('test@example.com'));
    expect(md5Hex('Test@Example.com')).toBe(md5Hex('test@example.com'));
  });
});
