import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openMemoryStorage } from '../../storage/open-storage.js';
import { importActivity } from './import-activity.js';

const dir = mkdtempSync(join(tmpdir(), 'mailsure-activity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const now = new Date('2024-06-15T12:00:00Z');
const windows = { since6m: '2023-12-15', since12m: '2023-06-15' };

async function run(name: string, text: string | Buffer, storage = openMemoryStorage()) {
  const path = join(dir, name);
  writeFileSync(path, text);
  const out: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
  try {
    const result = await importActivity(storage, path, { now });
    return { storage, result, lines: out.join('').trimEnd().split('\n') };
  } finally {
    spy.mockRestore();
  }
}

describe('importActivity', () => {
  it('loads CSV events, ignoring repeats, and reports bad rows', async () => {
    const csv = [
      'email,source,seen_at,event',
      'A@Example.com,news,2024-03-05,open',
      'a@example.com,news,2024-03-05T18:00:00Z,open',
      'a@example.com,shop,2023-01-10,seen',
      'a@example.com,,2024-01-01,seen',
      'b@example.com,news,2031-01-01,seen',
      'b@example.com,news,2024-02-30,click',
      'b@example.com,news',
    ].join('\n');
    const { result, lines, storage } = await run('events.csv', csv);
    expect(result).toMatchObject({ status: 'finished', loaded: 3, added: 2, rejected: 4 });
    expect(lines).toEqual([
      'activity from CSV: 3 loaded (2 new), 4 rejected',
      '  line 5: source: missing',
      '  line 6: seen_at: "2031-01-01" is in the future',
      '  line 7: seen_at: "2024-02-30" is not an ISO date or date-time; event: "click" is not seen or open',
      '  line 8: columns length is 4, got 2 on line 8',
    ]);
    const stats = await storage.activity.statsFor(['a@example.com'], windows);
    expect(stats.get('a@example.com')).toEqual({ firstSeen: '2023-01-10', events6m: 1, sources12m: 1, lastOpen12m: '2024-03-05' });
  });

  it('loads NDJSON and rejects hostile records', async () => {
    const text = [
      '{"email":"a@example.com","source":"s","seen_at":"2024-01-01","event":"seen"}',
      '{"email":"a@example.com","source":"s","seen_at":"2024-01-01","event":"seen","__proto__":{"x":1}}',
      '{"email":"a@example.com","source":{"$ne":1},"seen_at":20240101,"event":"seen"}',
      '\u0000\u0001garbage',
    ].join('\n');
    const { result, lines } = await run('events.ndjson', text);
    expect(result).toMatchObject({ loaded: 1, added: 1, rejected: 3 });
    expect(lines.slice(1)).toEqual([
      '  line 2: __proto__: unknown field',
      '  line 3: source: an object is not text; seen_at: 20240101 is not text',
      '  line 4: not valid JSON',
    ]);
  });

  it('re-imports without duplicating and accepts an empty file', async () => {
    const storage = openMemoryStorage();
    const text = '{"email":"a@example.com","source":"s","seen_at":"2024-01-01","event":"open"}\n';
    expect((await run('once.ndjson', text, storage)).lines[0]).toBe('activity from NDJSON: 1 loaded (1 new), 0 rejected');
    expect((await run('twice.ndjson', text, storage)).lines[0]).toBe('activity from NDJSON: 1 loaded (0 new), 0 rejected');
    expect((await run('empty.csv', '')).lines).toEqual(['activity from CSV: 0 loaded (0 new), 0 rejected']);
  });
});
