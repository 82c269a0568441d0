/**
 * The mailbox an address reaches, for look-ups by a plain email address (postal append, a
 * person's profile, activity): `j.o.h.n.smith+news@googlemail.com` and `johnsmith@gmail.com` are
 * one Gmail mailbox. Only domains in mailbox-rules.ts have a mailbox key; any other address has
 * none and is found as written only. Pure.
 *
 * A hash (SHA-1, MD5) of an address cannot be canonicalised: it is matched as given, so the hash
 * of `john.smith@gmail.com` finds only a stored `john.smith@gmail.com`.
 */
import { normalizeEmail } from './email-hash.js';
import { MAILBOX_RULES } from './mailbox-rules.js';

/**
 * The canonical spelling of the address's mailbox (`johnsmith@gmail.com`) when its domain has a
 * rule; undefined for every other domain, for a quoted local part, and for what is not an address.
 */
export function mailboxKey(email: string): string | undefined {
  const address = normalizeEmail(email);
  const at = address.lastIndexOf('@');
  if (at <= 0) return undefined;
  const domain = address.slice(at + 1);
  const rule = MAILBOX_RULES.get(domain);
  if (rule === undefined) return undefined;
  let local = address.slice(0, at);
  // A quoted local part ("john smith"@…) is rare and its rules are the server's: leave it.
  if (local.includes('"') || local.includes('@') || /\s/.test(local)) return undefined;
  if (rule.plusTags) {
    const plus = local.indexOf('+');
    if (plus >= 0) local = local.slice(0, plus);
  }
  if (rule.ignoresDots) local = local.replaceAll('.', '');
  if (local === '') return undefined;
  return `${local}@${rule.sameAs ?? domain}`;
}
