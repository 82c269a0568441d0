// Syntax repairs: turn what was typed or pasted into a username and a domain, undoing the usual
// accidents — white space, `mailto:`, a display name or wrapping quotes and brackets, punctuation
// left at either end, `@@`, a comma for a dot, doubled or stray dots, characters no domain may
// hold, and a missing @ before a popular domain (`johngmail.com`). Upper case is not repaired
// here: standardization lower-cases, so it is not a correction.
//
// An address that is already valid gets only the two repairs that are near-certain slips even
// though the characters are legal: a leading backtick (the key beside 1, or markdown residue) and
// a `#` just before the @ (shift-3 beside shift-2).

import { isTrimmable } from '../syntax-chars.js';
import { POPULAR_DOMAINS } from './popular-domains.js';

export interface Repaired {
  local: string;
  domain: string;
  /** 0 when nothing was repaired; otherwise small, to order the variants of one input. */
  cost: number;
}

const EDGE_JUNK = new Set([...'\'"<>()[]{},;:.\\/|`']);
const TRAILING_ONLY_JUNK = new Set(['#']);
const WRAPPERS = new Map([
  ['"', '"'],
  ["'", "'"],
  ['<', '>'],
  ['(', ')'],
  ['[', ']'],
  ['{', '}'],
  ['`', '`'],
]);
/** Never valid in an unquoted username; removed. */
const LOCAL_ILLEGAL = new Set([...'()<>[]:;\\"']);
// Keys beside `m` (`,` and its shifted `<`): `example.co,` was most likely `example.com`. A `.` or
// `>` after `.co` is more likely punctuation or a closing bracket, so there the trimmed form
// comes first (decisions §4: the trimmed address is suggested).
const M_NEIGHBOURS = new Set([',', '<']);

const POPULAR_BY_LENGTH = POPULAR_DOMAINS.map((p) => p.domain).sort((a, b) => b.length - a.length);

/** Past this, the input is not a typed address (those are at most 254 octets) and gets no repairs. */
const MAX_REPAIR_INPUT = 1024;

/** Repaired variants of an invalid input, best first; empty when no repair yields a username and domain. */
export function repairInvalid(input: string): Repaired[] {
  if (input.length > MAX_REPAIR_INPUT) return [];
  let s = input;
  let cost = 0;
  const step = (next: string, c: number): void => {
    if (next !== s) {
      s = next;
      cost += c;
    }
  };

  step(s.trim(), 0.05);
  step(s.replace(/^mailto:/i, ''), 0.05);
  step(displayNameAddress(s), 0.05);
  step(unwrap(s), 0.05);

  // A quoted username (`"john doe"@…`) starts with a quote that is not junk.
  let start = 0;
  if (!/^"[^"]*"@/.test(s)) while (start < s.length && EDGE_JUNK.has(s[start] as string)) start++;
  let end = s.length;
  while (end > start && (EDGE_JUNK.has(s[end - 1] as string) || TRAILING_ONLY_JUNK.has(s[end - 1] as string))) end--;
  // What followed the address: a key beside `m` after `.co` hints at `.com` (M_NEIGHBOURS).
  const firstTrailing = s[end];
  step(s.slice(start, end), 0.1);

  if (!s.includes('@')) step(spelledAt(s), 0.1);
  step(s.replace(/@{2,}/g, '@'), 0.1);

  let local: string;
  let domain: string;
  const at = s.indexOf('@');
  if (at === -1) {
    const glued = splitGluedDomain(s);
    if (glued === null) return [];
    [local, domain] = glued;
    cost += 0.5;
  } else {
    if (s.indexOf('@', at + 1) !== -1) return [];
    local = s.slice(0, at);
    domain = s.slice(at + 1);
  }

  const fixedLocal = repairLocal(local);
  const fixedDomain = repairDomain(domain);
  if (fixedLocal.length === 0 || fixedDomain.length === 0) return [];
  if (fixedLocal !== local) cost += 0.1;
  if (fixedDomain !== domain.toLowerCase()) cost += 0.1;

  const main: Repaired = { local: fixedLocal, domain: fixedDomain, cost };
  if (!fixedDomain.endsWith('.co') || firstTrailing === undefined || !'.,<>'.includes(firstTrailing)) return [main];
  const com: Repaired = { local: fixedLocal, domain: `${fixedDomain}m`, cost: cost + (M_NEIGHBOURS.has(firstTrailing) ? -0.05 : 0.5) };
  return com.cost < main.cost ? [com, main] : [main, com];
}

/** The two near-certain slips in an otherwise valid username; the input when there are none. */
export function repairValidLocal(local: string): string {
  let out = local;
  while (out.startsWith('`')) out = out.slice(1);
  out = trimEnd(out, '#');
  return out.length > 0 ? out : local;
}

/** `John Doe <john@example.com>` → the part in angle brackets, when it holds an @. */
function displayNameAddress(s: string): string {
  const open = s.lastIndexOf('<');
  const close = s.indexOf('>', open);
  if (open === -1 || close === -1) return s;
  const inner = s.slice(open + 1, close);
  return inner.includes('@') && (open > 0 || close < s.length - 1) ? inner : s;
}

/** `"john@example.com"`, `<john@example.com>`, `(john@example.com)` → the inside. */
function unwrap(s: string): string {
  let out = s;
  while (out.length >= 2 && WRAPPERS.get(out[0] as string) === out[out.length - 1] && out.slice(1, -1).includes('@')) {
    const inner = out.slice(1, -1).trim();
    // A quoted username followed by its domain is not a wrapper: `"a b"@x.com` ends in `m`.
    if (inner.length === 0) break;
    out = inner;
  }
  return out;
}

/**
 * `john (at) example.com` → `john@example.com`: the first `(at)` or `[at]` with the white space
 * around it. A scan rather than a regular expression with leading white space, which retries
 * from every space of a long run that leads nowhere (quadratic on `a` + 1,000 spaces).
 */
function spelledAt(s: string): string {
  for (let i = 0; i + 3 < s.length; i++) {
    if (
      !'[('.includes(s[i]!) ||
      (s[i + 1] !== 'a' && s[i + 1] !== 'A') ||
      (s[i + 2] !== 't' && s[i + 2] !== 'T') ||
      !'])'.includes(s[i + 3]!)
    ) {
      continue;
    }
    let start = i;
    while (start > 0 && WHITE_SPACE.test(s[start - 1]!)) start--;
    let end = i + 4;
    while (end < s.length && WHITE_SPACE.test(s[end]!)) end++;
    return `${s.slice(0, start)}@${s.slice(end)}`;
  }
  return s;
}

/** What `\s` matches in a regular expression, for one UTF-16 unit. */
const WHITE_SPACE = /^\s$/;

/** `johngmail.com` → john + gmail.com (the longest popular domain the input ends with). */
function splitGluedDomain(s: string): [string, string] | null {
  const lower = s.toLowerCase();
  for (const domain of POPULAR_BY_LENGTH) {
    if (lower.length > domain.length && lower.endsWith(domain)) {
      const local = trimEnd(s.slice(0, -domain.length), '._-');
      if (local.length > 0) return [local, domain];
    }
  }
  return null;
}

function repairLocal(local: string): string {
  // A quoted username keeps its spaces and punctuation; the syntax check judges it as a whole.
  if (local.length >= 2 && local.startsWith('"') && local.endsWith('"')) return local;
  let out = '';
  for (const ch of local) {
    if (isTrimmable(ch.codePointAt(0) as number)) continue;
    if (ch === ',') out += '.';
    else if (!LOCAL_ILLEGAL.has(ch)) out += ch;
  }
  return repairValidLocal(trimBoth(out.replace(/\.{2,}/g, '.'), '.'));
}

function repairDomain(domain: string): string {
  let out = '';
  for (const ch of domain.toLowerCase()) {
    const c = ch.codePointAt(0) as number;
    if (isTrimmable(c)) continue;
    if (ch === ',') out += '.';
    // Non-ASCII stays for the IDNA check; ASCII outside letters, digits, `-` and `.` cannot be
    // in a host name (`#gmail.com`, `example.com/.au`).
    else if (c >= 0x80 || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d) out += ch;
  }
  return trimBoth(out.replace(/\.{2,}/g, '.'), '.-');
}

// Loops rather than anchored regular expressions: `/[.-]+$/` backtracks quadratically on long runs.
function trimEnd(s: string, chars: string): string {
  let end = s.length;
  while (end > 0 && chars.includes(s[end - 1] as string)) end--;
  return s.slice(0, end);
}

function trimBoth(s: string, chars: string): string {
  let start = 0;
  while (start < s.length && chars.includes(s[start] as string)) start++;
  return trimEnd(s.slice(start), chars);
}
