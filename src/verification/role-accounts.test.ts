import { describe, expect, it } from 'vitest';
import { isRoleAccount } from './role-accounts.js';

describe('isRoleAccount', () => {
  it.each(['info', 'INFO', 'sales+2024', 'postmaster', 'abuse', 'no-reply', 'webmaster'])('%s is a role account', (local) => {
    expect(isRoleAccount(local)).toBe(true);
  });

  it.each(['jane', 'j.doe', 'informatics', '+info', '', 'ｉｎｆｏ'])('%j is not', (local) => {
    expect(isRoleAccount(local)).toBe(false);
  });
});
