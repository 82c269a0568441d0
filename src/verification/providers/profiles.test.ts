/** The table's own rules: every row complete, cited, unambiguous, and its patterns safe to reuse. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ReplyPattern } from './profile.js';
import { DEFAULT_PROFILE, PROFILES } from './profiles.js';

const ALL = [...PROFILES, DEFAULT_PROFILE];
const patterns = (mapping: (typeof ALL)[number]['replies']): ReplyPattern[] => [
  ...mapping.unknownUser,
  ...mapping.blocked,
  ...mapping.slowDown,
];

describe('provider profiles table', () => {
  it('names every provider the issue asks for, plus a default', () => {
    const ids = PROFILES.map((p) => p.id);
    for (const wanted of ['google', 'microsoft-365', 'outlook-com', 'yahoo', 'icloud', 'mimecast', 'proofpoint', 'barracuda'])
      expect(ids).toContain(wanted);
    expect(DEFAULT_PROFILE.rcpt).toBe('mailbox');
  });

  it('has unique ids, and no domain or MX name claimed by two rows', () => {
    expect(new Set(ALL.map((p) => p.id)).size).toBe(ALL.length);
    const domains = PROFILES.flatMap((p) => p.domains);
    expect(new Set(domains).size).toBe(domains.length);
    const suffixes = PROFILES.flatMap((p) => p.mxSuffixes);
    expect(new Set(suffixes).size).toBe(suffixes.length);
    for (const name of [...domains, ...suffixes]) expect(name).toBe(name.toLowerCase());
  });

  it('cites a source per row and sets every limit to a positive whole number', () => {
    for (const profile of ALL) {
      expect(profile.sources.length, profile.id).toBeGreaterThan(0);
      for (const value of Object.values(profile.limits)) expect(Number.isInteger(value) && value > 0, `${profile.id}: ${value}`).toBe(true);
    }
  });

  it('lets no gateway prove a mailbox by its acceptance', () => {
    for (const profile of PROFILES.filter((p) => p.kind === 'gateway'))
      expect([profile.id, profile.rcpt]).toEqual([profile.id, 'refusals-only']);
  });

  it('writes patterns that are stateless and well-formed (no /g or /y, enhanced codes as x.y.z or x.y.)', () => {
    for (const profile of ALL) {
      for (const pattern of patterns(profile.replies)) {
        expect(pattern.code !== undefined || pattern.enhanced !== undefined || pattern.text !== undefined).toBe(true);
        if (pattern.text) expect(pattern.text.flags, `${profile.id} ${pattern.text}`).not.toMatch(/[gy]/);
        if (pattern.enhanced) expect(pattern.enhanced).toMatch(/^[45]\.\d{1,3}\.(\d{1,3})?$/);
      }
    }
  });

  it('never calls a temporary reply an unknown user', () => {
    for (const profile of ALL)
      for (const pattern of profile.replies.unknownUser) expect(pattern.code === undefined || pattern.code >= 500).toBe(true);
  });
});

describe('docs/verification.md "Provider profiles" and the table', () => {
  const doc = readFileSync(new URL('../../../docs/verification.md', import.meta.url), 'utf8');
  const start = doc.indexOf('## Provider profiles');
  const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
  const PROVES: Record<string, string> = { mailbox: 'mailbox', 'refusals only': 'refusals-only', 'nothing (never probed)': 'none' };
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| provider') && !line.startsWith('|---'))
    .map((line) => line.split('|').map((cell) => cell.trim()));

  it('names every profile once, with what its 250 proves and its limits', () => {
    const seen = new Set<string>();
    for (const cells of rows) {
      const [, names, , proves, , , , limits] = cells;
      const profiles = names === 'anything else' ? [DEFAULT_PROFILE] : PROFILES.filter((p) => names!.split(', ').includes(p.name));
      expect(profiles.length, names).toBeGreaterThan(0);
      for (const profile of profiles) {
        seen.add(profile.id);
        expect([profile.id, PROVES[proves!]]).toEqual([profile.id, profile.rcpt]);
        const { sessionsPerHost, rcptsPerSession, connectionsPerMinute } = profile.limits;
        expect([profile.id, limits]).toEqual([profile.id, `${sessionsPerHost} / ${rcptsPerSession} / ${connectionsPerMinute}`]);
      }
    }
    expect([...seen].sort()).toEqual(ALL.map((p) => p.id).sort());
  });
});
