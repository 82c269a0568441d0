// Username rules of large mailbox providers (code 125): an address these providers could never
// have issued is invalid even though the RFCs allow it. Each rule is the provider's published
// sign-up rule. We call an address invalid only on proof, so where a provider delivers variants
// (sub-addresses, disposable aliases) we accept them, and unknown cases stay valid.

import { CODE } from './codes.js';
import { fault, type SyntaxFault } from './syntax-verdict.js';

export interface UsernameRule {
  provider: string;
  domains: readonly string[];
  /**
   * Separator of delivered variants, removed before the rule applies: `+` for sub-addressing,
   * `-` for Yahoo's disposable addresses (`basename-keyword`), null when neither is delivered.
   */
  tag: '+' | '-' | null;
  minLength: number;
  maxLength: number;
  /** Allowed besides a–z and 0–9. */
  extraChars: string;
  mustStartWithLetter: boolean;
  /** Gmail ignores dots, and its length limits do not count them. */
  dotsCount: boolean;
  maxDots: number;
  /** Characters the username may not end with. */
  notLast: string;
  /** Human summary, used in the reason. */
  summary: string;
  source: string;
}

export const USERNAME_RULES: readonly UsernameRule[] = [
  {
    provider: 'Gmail',
    domains: ['gmail.com', 'googlemail.com'],
    tag: '+',
    minLength: 6,
    maxLength: 30,
    extraChars: '.',
    mustStartWithLetter: false,
    dotsCount: false,
    maxDots: Infinity,
    notLast: '.',
    summary: '6 to 30 letters or digits, dots allowed',
    source:
      'Google Account Help "Create a Gmail address" (6–30 characters; letters, numbers and periods; ' +
      'periods are ignored) and "Create task-specific email addresses" (username+anything)',
  },
  {
    provider: 'Yahoo',
    domains: ['yahoo.com', 'ymail.com', 'rocketmail.com'],
    tag: '-',
    minLength: 4,
    maxLength: 32,
    extraChars: '._',
    mustStartWithLetter: true,
    dotsCount: true,
    maxDots: 1,
    notLast: '._',
    summary: '4 to 32 characters starting with a letter: letters, digits, underscores and one dot',
    source:
      'Yahoo Help "Yahoo ID requirements" (4–32 characters, starts with a letter, letters, numbers, ' +
      'underscores and one period, not ending in a period or underscore) and "Disposable email ' +
      'addresses in Yahoo Mail" (basename-keyword; no plus addressing)',
  },
  {
    provider: 'Outlook.com',
    domains: ['outlook.com', 'hotmail.com', 'live.com', 'msn.com'],
    tag: '+',
    minLength: 1,
    maxLength: 64,
    extraChars: '._-',
    mustStartWithLetter: true,
    dotsCount: true,
    maxDots: Infinity,
    notLast: '.',
    summary: 'starting with a letter: letters, digits, dots, underscores and hyphens',
    source:
      'Microsoft account sign-up rules (starts with a letter; letters, numbers, periods, underscores ' +
      'and hyphens; up to 64 characters) and Outlook.com plus addressing',
  },
  {
    provider: 'AOL',
    domains: ['aol.com', 'aim.com'],
    tag: null,
    minLength: 3,
    maxLength: 32,
    extraChars: '._',
    mustStartWithLetter: true,
    dotsCount: true,
    maxDots: Infinity,
    notLast: '',
    summary: '3 to 32 characters starting with a letter: letters, digits, underscores and dots',
    source: 'AOL Help "Username requirements" (3–32 characters, starts with a letter, letters, numbers, underscores, periods)',
  },
  {
    provider: 'iCloud',
    domains: ['icloud.com', 'me.com', 'mac.com'],
    tag: '+',
    minLength: 3,
    maxLength: 20,
    extraChars: '._',
    mustStartWithLetter: true,
    dotsCount: true,
    maxDots: Infinity,
    notLast: '',
    summary: '3 to 20 characters starting with a letter: letters, digits, dots and underscores',
    source:
      'Apple Support "Create a primary email address for iCloud Mail" (3–20 characters, starts with a ' +
      'letter; letters, numbers, periods, underscores) and iCloud Mail plus addressing',
  },
];

interface CompiledRule {
  rule: UsernameRule;
  fault: SyntaxFault;
  extra: Uint8Array;
}

const BY_DOMAIN = new Map<string, CompiledRule>();
for (const rule of USERNAME_RULES) {
  const extra = new Uint8Array(128);
  for (const ch of rule.extraChars) extra[ch.charCodeAt(0)] = 1;
  const compiled = {
    rule,
    extra,
    fault: fault(CODE.providerUsername, 'provider-username', `not a possible ${rule.provider} username (${rule.summary})`),
  };
  for (const domain of rule.domains) BY_DOMAIN.set(domain, compiled);
}

/**
 * Code 125 for a syntactically valid address at a provider with a known rule. `local` is the
 * standardized (lower-case) username; quoted and non-ASCII usernames are never issued by these
 * providers.
 */
export function providerFault(local: string, asciiDomain: string): SyntaxFault | null {
  const compiled = BY_DOMAIN.get(asciiDomain);
  if (compiled === undefined) return null;
  const { rule, extra } = compiled;
  let user = local;
  let tagged = false;
  if (rule.tag !== null) {
    const at = user.indexOf(rule.tag);
    if (at !== -1) {
      user = user.slice(0, at);
      tagged = true;
    }
  }
  if (user.length === 0) return compiled.fault;
  let dots = 0;
  for (let i = 0; i < user.length; i++) {
    const c = user.charCodeAt(i);
    const alnum = (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a);
    if (!alnum && (c >= 0x80 || extra[c] !== 1)) return compiled.fault;
    if (c === 0x2e) dots++;
  }
  // Yahoo's disposable base names follow rules of their own that Yahoo does not publish in
  // full: with a keyword present, only the character set is certain.
  if (tagged && rule.tag === '-') return null;
  const length = rule.dotsCount ? user.length : user.length - dots;
  if (length < rule.minLength || length > rule.maxLength) return compiled.fault;
  if (dots > rule.maxDots) return compiled.fault;
  const first = user.charCodeAt(0);
  if (rule.mustStartWithLetter && !(first >= 0x61 && first <= 0x7a)) return compiled.fault;
  if (rule.notLast.includes(user[user.length - 1] as string)) return compiled.fault;
  return null;
}
