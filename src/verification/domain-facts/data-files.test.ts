import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loadList, parseList } from './load-list.js';

const here = new URL('./', import.meta.url);
const files = readdirSync(here).filter((f) => f.endsWith('.txt'));
const load = (file: string) => loadList(new URL(file, here));
const rawEntries = (file: string) =>
  readFileSync(new URL(file, here), 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line !== '');

describe('data files', () => {
  it('are all present', () => {
    expect(files.sort()).toEqual([
      'disposable-mx-domains.txt',
      'free-webmail-domains.txt',
      'paid-isp-domains.txt',
      'parking-hosts.txt',
      'privacy-domains.txt',
      'wireless-domains.txt',
    ]);
  });

  it.each(files)('%s: has a source header, no duplicates, no entry shadowed by its parent', (file) => {
    const text = readFileSync(new URL(file, here), 'utf8');
    expect(text.startsWith('#')).toBe(true);
    expect(text).toMatch(/Source:/);
    expect(text).toMatch(/snapshot \d{4}-\d{2}-\d{2}/);
    const entries = rawEntries(file);
    const set = load(file);
    expect(set.size).toBe(entries.length);
    for (const name of set) {
      for (let dot = name.indexOf('.'); dot !== -1; dot = name.indexOf('.', dot + 1)) {
        expect([name, set.has(name.slice(dot + 1))]).toEqual([name, false]);
      }
    }
  });

  it('the README describes every data file', () => {
    const readme = readFileSync(new URL('README.md', here), 'utf8');
    for (const file of files) expect(readme).toContain(file);
  });

  it('curated type lists do not overlap', () => {
    const lists = ['privacy-domains.txt', 'wireless-domains.txt', 'paid-isp-domains.txt', 'free-webmail-domains.txt'];
    const owner = new Map<string, string>();
    for (const file of lists) {
      for (const name of load(file)) {
        expect([name, owner.get(name)]).toEqual([name, undefined]);
        owner.set(name, file);
      }
    }
  });

  it('every disposable MX service is a known disposable domain (mailchecker)', () => {
    const mailchecker = (createRequire(import.meta.url)('mailchecker') as { blacklist(): Set<string> }).blacklist();
    for (const name of load('disposable-mx-domains.txt')) expect([name, mailchecker.has(name)]).toEqual([name, true]);
  });

  it('sizes stay in a plausible range', () => {
    expect(load('wireless-domains.txt').size).toBeGreaterThan(80);
    expect(load('paid-isp-domains.txt').size).toBeGreaterThan(100);
    expect(load('free-webmail-domains.txt').size).toBeGreaterThan(100);
    expect(load('privacy-domains.txt').size).toBeGreaterThan(15);
    expect(load('parking-hosts.txt').size).toBeGreaterThan(15);
  });
});

describe('parseList', () => {
  it('skips comments and blank lines, strips inline comments', () => {
    expect([...parseList('# header\n\nfoo.com\n  bar.net  # note\r\n#baz.org\n', 'x')]).toEqual(['foo.com', 'bar.net']);
  });

  it('rejects malformed entries with file and line', () => {
    expect(() => parseList('ok.com\nBad.com\n', 'list.txt')).toThrow('list.txt:2');
    expect(() => parseList('com\n', 'list.txt')).toThrow('list.txt:1');
    expect(() => parseList('a b.com\n', 'list.txt')).toThrow();
    expect(() => parseList('-a.com\n', 'list.txt')).toThrow();
  });
});
