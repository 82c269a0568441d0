import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StartupError } from '../core/startup-error.js';
import { createSecretBox, isSealed, loadSecretKey, parseSecretKey, SECRET_KEY_FILE } from './secret-box.js';

const dirs: string[] = [];
afterEach(async () => Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true }))));

describe('createSecretBox', () => {
  it('opens what it sealed, for any text, and never stores it readable', () => {
    const box = createSecretBox(randomBytes(32));
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (plain) => {
        const sealed = box.seal(plain);
        expect(isSealed(sealed)).toBe(true);
        expect(box.open(sealed)).toBe(plain);
        if (plain.length >= 4) expect(sealed).not.toContain(plain);
      }),
    );
  });

  it('seals one secret differently each time (a fresh IV)', () => {
    const box = createSecretBox(randomBytes(32));
    expect(box.seal('whsec_same')).not.toBe(box.seal('whsec_same'));
  });

  it('refuses a value sealed with another key or tampered with', () => {
    const sealed = createSecretBox(randomBytes(32)).seal('whsec_1');
    expect(() => createSecretBox(randomBytes(32)).open(sealed)).toThrow();
    const box = createSecretBox(randomBytes(32));
    const good = box.seal('whsec_1');
    const bytes = Buffer.from(good.slice(3), 'base64');
    bytes[bytes.length - 1]! ^= 1;
    expect(() => box.open(`v1:${bytes.toString('base64')}`)).toThrow();
  });

  it('reads a secret stored before sealing existed as it is', () => {
    expect(createSecretBox(randomBytes(32)).open('whsec_plain')).toBe('whsec_plain');
  });
});

describe('parseSecretKey', () => {
  it('takes 32 bytes as base64, base64url or hex, and nothing else', () => {
    const key = randomBytes(32);
    expect(parseSecretKey(key.toString('base64'))).toEqual(key);
    expect(parseSecretKey(key.toString('base64url'))).toEqual(key);
    expect(parseSecretKey(key.toString('hex'))).toEqual(key);
    expect(parseSecretKey(`${key.toString('base64')}\n`)).toEqual(key);
    for (const bad of ['', 'short', randomBytes(16).toString('base64'), randomBytes(31).toString('hex'), 'x'.repeat(64)])
      expect(parseSecretKey(bad)).toBeUndefined();
  });
});

describe('loadSecretKey', () => {
  it('makes an owner-only key file on first use and reads the same key after', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mailsure-secret-'));
    dirs.push(dir);
    const first = await loadSecretKey(undefined, join(dir, 'data'));
    expect((await stat(join(dir, 'data', SECRET_KEY_FILE))).mode & 0o777).toBe(0o600);
    expect(await loadSecretKey(undefined, join(dir, 'data'))).toEqual(first);
    const [a, b] = await Promise.all([loadSecretKey(undefined, join(dir, 'race')), loadSecretKey(undefined, join(dir, 'race'))]);
    expect(a).toEqual(b);
  });

  it('gives every one of many simultaneous first starts the same whole key, leaving only the key file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mailsure-secret-'));
    dirs.push(dir);
    const keys = await Promise.all(Array.from({ length: 24 }, () => loadSecretKey(undefined, join(dir, 'crowd'))));
    for (const key of keys) expect(key).toEqual(keys[0]);
    expect(await readdir(join(dir, 'crowd'))).toEqual([SECRET_KEY_FILE]);
  });

  it('prefers the configured key, and says which setting is wrong', async () => {
    const key = randomBytes(32);
    expect(await loadSecretKey(key.toString('hex'), '/nonexistent')).toEqual(key);
    await expect(loadSecretKey('not-a-key', '/nonexistent')).rejects.toThrow(
      new StartupError('MAILSURE_SECRET_KEY must be 32 bytes, as base64 or hex (e.g. `openssl rand -base64 32`)'),
    );
    const dir = await mkdtemp(join(tmpdir(), 'mailsure-secret-'));
    dirs.push(dir);
    await writeFile(join(dir, SECRET_KEY_FILE), 'garbage');
    await expect(loadSecretKey(undefined, dir)).rejects.toThrow(
      /secret\.key does not hold a 32-byte key; restore it, or set MAILSURE_SECRET_KEY/,
    );
    expect(await readFile(join(dir, SECRET_KEY_FILE), 'utf8')).toBe('garbage');
  });
});
