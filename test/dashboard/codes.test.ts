/** Issue 26: the list report's status codes get a few words each; the catalogue's meaning goes on hover. */
import { describe, expect, it } from 'vitest';
import { CODE_LABELS, CODE_MEANINGS } from '../../dashboard/src/codes.js';
import { CODE_ENTRIES } from '../../src/verification/codes.js';

describe('CODE_LABELS', () => {
  it('has a short label of its own for every code of the catalogue', () => {
    for (const code of CODE_ENTRIES.keys()) {
      const label = CODE_LABELS.get(code);
      expect(label, String(code)).toBeDefined();
      expect(label!.length, `${code} ${label}`).toBeLessThanOrEqual(26);
      expect(label, String(code)).not.toMatch(/[`()]/);
    }
    expect(new Set(CODE_LABELS.values()).size).toBe(CODE_ENTRIES.size);
  });

  it('says 505 in a list owner’s words, its meaning whole beside it', () => {
    expect(CODE_LABELS.get(505)).toBe('misspelt or refused domain');
    expect(CODE_MEANINGS.get(505)).toBe(
      "domain not accepted: a large provider's domain misspelt (every key; the fix in email_corrections when it verifies), or (legacy variant) a disposable domain",
    );
  });
});
