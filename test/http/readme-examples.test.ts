/**
 * The README's examples, run as written against the data a first start loads (the demo people,
 * src/cli/demo-data.ts): every enrichment and append example must find its person, and the
 * answer shown for the demo curl line must be the body, byte for byte.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../src/cli/demo-data.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { ROOT } from '../helpers/cli.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** Each `curl` command of the README's sh blocks, continuation lines joined. */
function curlCommands(): string[] {
  const blocks = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks.flatMap((block) => block.replace(/\\\n\s*/g, ' ').split('\n')).filter((line) => line.trimStart().startsWith('curl '));
}

interface Example {
  command: string;
  method: 'GET' | 'POST';
  url: string;
  body?: string;
}

function example(command: string): Example {
  const url = /"https:\/\/localhost:8443(\/[^"]+)"/.exec(command)![1]!;
  const body = /-d '([^']*)'/.exec(command)?.[1];
  return { command, method: /-X POST/.test(command) ? 'POST' : 'GET', url, ...(body !== undefined ? { body } : {}) };
}

const PEOPLE_PATHS = /^\/v5\/(td|ei\/bulk|eppend|eppend\/bulk)\?/;
const examples = curlCommands()
  .map(example)
  .filter((e) => PEOPLE_PATHS.test(e.url));

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await makeTestApp();
  await loadDemoData(t.storage, '2026-11-25');
  key = (await t.key('demo', { services: 'all' })).key;
});
afterAll(() => t.close());

describe('README examples', () => {
  it('has enrichment and append examples to run', () => {
    expect(examples.map((e) => e.url.replace(/\?.*/, ''))).toEqual(
      expect.arrayContaining(['/v5/td', '/v5/ei/bulk', '/v5/eppend', '/v5/eppend/bulk']),
    );
  });

  it.each(examples.map((e) => [e.url, e] as const))('%s answers data from the demo people', async (_url, e) => {
    const res = await t.app.inject({
      method: e.method,
      url: e.url.replace('$KEY', key),
      ...(e.body !== undefined ? { headers: { 'content-type': 'application/json' }, payload: e.body } : {}),
    });
    expect(res.statusCode, e.command).toBe(200);
    // format=html is the same record, pretty-printed: checked as JSON.
    const json = e.url.includes('format=html')
      ? (await t.app.inject({ url: e.url.replace('format=html&', '').replace('$KEY', key) })).json()
      : res.json();
    const answers = (Array.isArray(json) ? json : [json]) as Record<string, unknown>[];
    for (const answer of answers) {
      // Activity metrics alone come back for any address: a person must have been found.
      expect(
        Object.keys(answer).filter((k) => k !== 'eam'),
        e.command,
      ).not.toEqual([]);
      expect(answer, e.command).not.toHaveProperty('error_code');
    }
  });

  it('says what the code does about purchasing a finished list (200, idempotent; 409 only for Invalid, Cancelled, Error)', () => {
    const row = README.split('\n').find((line) => line.startsWith('| 409 |'))!;
    expect(row).not.toMatch(/purchasing a list that is already finished/);
    expect(row).toMatch(/purchasing an `Invalid`, `Cancelled` or `Error` list/);
    expect(row).toMatch(/`Results` answers 200/);
  });

  it('gives each systemd unit of docs/scale-out.md a working directory (systemd starts in /, and ./data would be /data)', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'scale-out.md'), 'utf8');
    const units = doc
      .split('[Service]')
      .slice(1)
      .map((unit) => unit.split(/\n\n|```/)[0]!);
    expect(units).toHaveLength(2);
    for (const unit of units) expect(unit).toMatch(/^WorkingDirectory=\/\S+$/m);
  });

  it('shows the demo curl line’s answer exactly as it is sent', async () => {
    const shown = /curl -k "https:\/\/localhost:8443(\/v5\/ev\?[^"]+)"\n# (\{.*\})/.exec(README)!;
    // The demo key's corrections service would add a fix where gmail.com's servers answer; without it the body is the one shown.
    const plain = (await t.key('plain', { services: 'verification' })).key;
    const res = await t.app.inject({ url: shown[1]!.replace('<demo key>', plain) });
    expect(res.body).toBe(shown[2]);
  });
});
