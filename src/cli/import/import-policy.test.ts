import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openMemoryStorage } from '../../storage/open-storage.js';
import { importPolicy } from './import-policy.js';

const dir = mkdtempSync(join(tmpdir(), 'mailsure-policy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

async function run(name: string, text: string | Buffer) {
  const storage = openMemoryStorage();
  const out: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
  try {
    const counts = await importPolicy(storage, 'trap', file(name, text));
    return { storage, counts, out: out.join('') };
  } finally {
    spy.mockRestore();
  }
}

describe('importPolicy', () => {
  it('loads CSV rows and reports bad ones with their line', async () => {
    const { storage, counts, out } = await run(
      'traps.csv',
      'email,domain\nTrap@Example.com,\n,spamtrap.net\nbroken..@x.com,\n"unterminated,\nsecond@example.com,\n',
    );
    expect(counts).toEqual({ loaded: 2, added: 2, rejected: 2 });
    expect(out).toContain('policy trap from CSV: 2 loaded (2 new), 2 rejected');
    expect(out).toContain('line 4: email is not a valid address');
    expect(out).toMatch(/line \d+: .*quote/i);
    expect(await storage.policy.match('trap@example.com', 'example.com')).toEqual([{ kind: 'trap', value: 'trap@example.com' }]);
    expect(await storage.policy.match('x@spamtrap.net', 'spamtrap.net')).toEqual([{ kind: 'trap', value: 'spamtrap.net' }]);
  });

  it('loads NDJSON, skipping blank lines and reporting junk', async () => {
    const { counts, out } = await run(
      'traps.ndjson',
      '{"email":"a@example.com"}\n\nnot json\n[1,2]\n{"domain":"b.org"}\n{"email":"a@example.com"}\n',
    );
    expect(counts).toEqual({ loaded: 3, added: 2, rejected: 2 });
    expect(out).toContain('line 3: not valid JSON');
    expect(out).toContain('line 4: not a JSON object');
  });

  it('detects NDJSON without an extension', async () => {
    expect((await run('noext', '{"email":"a@example.com"}\n')).out).toContain('from NDJSON');
  });

  it('accepts an empty file and a header-only file', async () => {
    expect((await run('empty.csv', '')).counts).toEqual({ loaded: 0, added: 0, rejected: 0 });
    expect((await run('header.csv', 'email\n')).counts).toEqual({ loaded: 0, added: 0, rejected: 0 });
  });

  it('rejects rows of a file without the expected columns', async () => {
    const { counts, out } = await run('wrong.csv', 'name,phone\nJane,555\n');
    expect(counts.rejected).toBe(1);
    expect(out).toContain('line 2: no email or domain');
  });

  it('survives binary garbage', async () => {
    const garbage = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 73) % 256));
    const { counts } = await run('garbage.csv', garbage);
    expect(counts.loaded).toBe(0);
  });
});
