import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { personFrom } from '../people/person-record.js';
import { defaultActivityPath, generatePeopleCommand } from './generate.js';
import { CLI_TEST_TIMEOUT } from '../../test/helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'mailsure-generate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const path = (name: string) => join(dir, name);
const lines = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n');

describe('mailsure generate people', () => {
  it('writes people and, beside them, their activity', async () => {
    const result = await generatePeopleCommand({ count: '300', seed: 'cli', today: '2026-11-22', out: path('people.ndjson') });
    expect(result.people).toBe(300);
    expect(result.message).toMatch(/^wrote 300 people to .*people\.ndjson and \d+ activity events to .*people\.activity\.ndjson/);
    const people = lines(path('people.ndjson')).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(people).toHaveLength(300);
    expect(people.filter((p) => 'problems' in personFrom(p))).toEqual([]);
    expect(lines(path('people.activity.ndjson'))).toHaveLength(result.activity);
  });

  it('writes byte-identical files for the same count, seed and today', async () => {
    await generatePeopleCommand({
      count: '500',
      seed: 'same',
      today: '2026-11-22',
      out: path('a.ndjson'),
      activityOut: path('a-events.ndjson'),
    });
    await generatePeopleCommand({
      count: '500',
      seed: 'same',
      today: '2026-11-22',
      out: path('b.ndjson'),
      activityOut: path('b-events.ndjson'),
    });
    expect(readFileSync(path('a.ndjson'))).toEqual(readFileSync(path('b.ndjson')));
    expect(readFileSync(path('a-events.ndjson'))).toEqual(readFileSync(path('b-events.ndjson')));
    expect(existsSync(path('a.activity.ndjson'))).toBe(false);
  });

  it('names the default activity file after the people file', () => {
    expect(defaultActivityPath('data/people.ndjson')).toBe('data/people.activity.ndjson');
    expect(defaultActivityPath('people.jsonl')).toBe('people.activity.ndjson');
    expect(defaultActivityPath('people')).toBe('people.activity.ndjson');
  });

  it('refuses a bad count, date or file pair', async () => {
    await expect(generatePeopleCommand({ count: 'ten', seed: '1' })).rejects.toThrow(/--count/);
    await expect(generatePeopleCommand({ count: '10', seed: '1', today: '2026-13-01' })).rejects.toThrow(/--today/);
    await expect(generatePeopleCommand({ count: '10', seed: '1', out: path('x.ndjson'), activityOut: path('x.ndjson') })).rejects.toThrow(
      /differ/,
    );
  });

  it('reports a file it cannot write', async () => {
    await expect(generatePeopleCommand({ count: '10', seed: '1', out: path('missing/people.ndjson') })).rejects.toThrow(/ENOENT/);
  });

  it('runs from the mailsure command, people on stdout', { timeout: CLI_TEST_TIMEOUT }, async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['bin/mailsure.js', 'generate', 'people', '--count', '25', '--seed', 'bin', '--today', '2026-11-22'],
      { cwd: join(import.meta.dirname, '../..') },
    );
    const records = stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { person_id: string });
    expect(records.map((r) => r.person_id).at(-1)).toBe('P0000025');
    expect(stderr).toMatch(/wrote 25 people to stdout/);
  });
});
