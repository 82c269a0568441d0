/**
 * Migration 0014's own copy of the people model's `mailboxKey` (people/mailbox.ts) and its rule
 * table (people/mailbox-rules.ts, where the sources are), as they stood when 0014 was written:
 * what 0014 writes for an address already stored must not change when the live table does. A
 * later change to the rules comes with a migration of its own that rewrites the column. Frozen:
 * never edit this file.
 */
interface Rule {
  ignoresDots: boolean;
  plusTags: boolean;
  sameAs?: string;
}

const GMAIL: Rule = { ignoresDots: true, plusTags: true };
const PLUS: Rule = { ignoresDots: false, plusTags: true };

const RULES: ReadonlyMap<string, Rule> = new Map<string, Rule>([
  ['gmail.com', GMAIL],
  ['googlemail.com', { ...GMAIL, sameAs: 'gmail.com' }],
  ...['outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'icloud.com', 'me.com', 'mac.com'].map((d) => [d, PLUS] as const),
  ...['fastmail.com', 'fastmail.fm', 'protonmail.com', 'protonmail.ch', 'proton.me', 'pm.me'].map((d) => [d, PLUS] as const),
]);

export function mailboxKey0014(email: string): string | undefined {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0) return undefined;
  const domain = address.slice(at + 1);
  const rule = RULES.get(domain);
  if (rule === undefined) return undefined;
  let local = address.slice(0, at);
  if (local.includes('"') || local.includes('@') || /\s/.test(local)) return undefined;
  if (rule.plusTags) {
    const plus = local.indexOf('+');
    if (plus >= 0) local = local.slice(0, plus);
  }
  if (rule.ignoresDots) local = local.replaceAll('.', '');
  if (local === '') return undefined;
  return `${local}@${rule.sameAs ?? domain}`;
}
