import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { DANGEROUS_MAILBOXES, isDangerousMailbox } from './dangerous-mailboxes.js';

describe('isDangerousMailbox', () => {
  it.each(['abuse', 'postmaster', 'hostmaster', 'noc', 'mailer-daemon', 'spam', 'spamtrap', 'spam-trap'])('%s is dangerous', (local) => {
    expect(isDangerousMailbox(local)).toBe(true);
  });

  it('ignores case and a +tag', () => {
    expect(isDangerousMailbox('Abuse')).toBe(true);
    expect(isDangerousMailbox('POSTMASTER')).toBe(true);
    expect(isDangerousMailbox('abuse+reports')).toBe(true);
    expect(isDangerousMailbox('Postmaster+x+y')).toBe(true);
  });

  it.each([
    'webmaster',
    'security',
    'admin',
    'root',
    'info',
    'sales',
    'noreply',
    'nobody',
    'john.smith',
    'abuser',
    'abuse.team',
    'spammer',
    'my-abuse',
    '',
    '+abuse',
  ])('%s is not', (local) => {
    expect(isDangerousMailbox(local)).toBe(false);
  });

  it('stays short, lower-case, and every entry a role account too', () => {
    const roles = new Set(createRequire(import.meta.url)('role-based-email-addresses') as string[]);
    expect(DANGEROUS_MAILBOXES.length).toBeLessThanOrEqual(10);
    for (const name of DANGEROUS_MAILBOXES) {
      expect(name).toBe(name.toLowerCase());
      if (!name.startsWith('spam')) expect([name, roles.has(name)]).toEqual([name, true]);
    }
  });
});
