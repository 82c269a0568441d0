/**
 * Secrets kept in the database (webhook signing secrets) sealed with AES-256-GCM, so a database
 * dump or backup alone does not reveal them. The key is `MAILSURE_SECRET_KEY` (32 bytes, base64
 * or hex) or, when unset, `secret.key` in the data directory, made on first use, owner-only.
 * Sealed values read `v1:<base64 of iv | tag | ciphertext>`; a value without that prefix was
 * stored before sealing existed and is read as it is (openStorage seals those at start).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StartupError } from '../core/startup-error.js';

export interface SecretBox {
  seal(plain: string): string;
  /** The plain secret; throws when the value was sealed with another key. */
  open(stored: string): string;
}

const PREFIX = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SECRET_KEY_FILE = 'secret.key';

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new RangeError('the secret key must be 32 bytes');
  return {
    seal(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    open(stored) {
      if (!isSealed(stored)) return stored;
      const raw = Buffer.from(stored.slice(PREFIX.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}

/** 32 bytes from base64 or hex text; undefined when it is neither. */
export function parseSecretKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-f]{64}$/i.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const bytes = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return bytes.length === 32 ? bytes : undefined;
  }
  return undefined;
}

/**
 * The configured key, or the data directory's key file (made owner-only on first use). Two
 * processes starting at once agree: each writes a key whole to a file of its own and links it to
 * the key file's name, which only one link can take, so no process reads a half-written key.
 */
export async function loadSecretKey(configured: string | undefined, dataDir: string): Promise<Buffer> {
  if (configured !== undefined) {
    const key = parseSecretKey(configured);
    if (!key) throw new StartupError('MAILSURE_SECRET_KEY must be 32 bytes, as base64 or hex (e.g. `openssl rand -base64 32`)');
    return key;
  }
  const file = join(dataDir, SECRET_KEY_FILE);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const existing = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (existing === undefined) await createKeyFile(file);
  const key = parseSecretKey(existing ?? (await readFile(file, 'utf8')));
  if (!key) throw new StartupError(`${file} does not hold a 32-byte key; restore it, or set MAILSURE_SECRET_KEY`);
  return key;
}

async function createKeyFile(file: string): Promise<void> {
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  await writeFile(draft, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  try {
    await link(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(draft);
  }
}
