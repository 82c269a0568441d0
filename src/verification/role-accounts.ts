// Role accounts: mailboxes for a job or a group (info@, sales@, noreply@) rather than a person.
// The list is the `role-based-email-addresses` package (Mixmax, MIT): an array of lower-case
// local parts. It ships CommonJS without types, hence createRequire and the cast.

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ROLE_NAMES: ReadonlySet<string> = new Set(require('role-based-email-addresses') as readonly string[]);

/**
 * `local` is a mailbox name as a person reads it (unquoted). Case and a `+tag` do not change
 * whose mailbox it is: `Sales+2024` is still the sales team.
 */
export function isRoleAccount(local: string): boolean {
  const plus = local.indexOf('+');
  const name = plus === -1 ? local : local.slice(0, plus);
  if (name.length === 0) return false;
  return ROLE_NAMES.has(isLowerAscii(name) ? name : name.toLowerCase());
}

function isLowerAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80 || (c >= 0x41 && c <= 0x5a)) return false;
  }
  return true;
}
