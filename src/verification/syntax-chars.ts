// Character classes for the syntax classifier. Lookup tables instead of regular expressions keep
// the hot path a plain loop over char codes (no backtracking, no allocation).

/** RFC 5322 atext (ASCII part), which RFC 5321 Dot-string reuses: ALPHA DIGIT and !#$%&'*+-/=?^_`{|}~ */
export const ATEXT = new Uint8Array(128);
/** Letters, digits and hyphen: the only ASCII a host-name label may hold (RFC 1123 §2.1, RFC 5321 §4.1.2). */
export const LDH = new Uint8Array(128);

for (let c = 0; c < 128; c++) {
  const alnum = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  if (alnum) {
    ATEXT[c] = 1;
    LDH[c] = 1;
  }
}
for (const ch of "!#$%&'*+-/=?^_`{|}~") ATEXT[ch.charCodeAt(0)] = 1;
LDH[0x2d] = 1;

/**
 * White space as String.prototype.trim sees it (WhiteSpace + LineTerminator). Decides code 210:
 * what a copy-paste leaves around an address is usually one of these, and trimming fixes it.
 */
export function isTrimmable(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * Code points that are unsafe anywhere in an address, following python-email-validator's
 * reasoning: letters, marks, numbers, punctuation and symbols are fine; every separator
 * (non-ASCII spaces, line/paragraph separators) and every "other" (controls, format characters
 * such as zero-width joiners and bidi overrides, lone surrogates, private use, unassigned and
 * noncharacters) can hide or reorder what a person reads, so it is refused. Only used once the
 * input is known to hold non-ASCII, and it has no quantifier, so it runs in linear time.
 */
const UNSAFE_UNICODE = /(?! )[\p{C}\p{Z}]/u; // U+0020 is judged by the quoting rules instead
/** A combining mark first would attach to whatever precedes the address when it is pasted. */
const LEADING_MARK = /^\p{M}/u;

export function hasUnsafeUnicode(s: string): boolean {
  return UNSAFE_UNICODE.test(s);
}

export function startsWithCombiningMark(s: string): boolean {
  return s.length > 0 && s.charCodeAt(0) >= 0x300 && LEADING_MARK.test(s);
}

/**
 * UTF-8 octets of s[start, end). RFC 5321 limits are in octets, and an SMTPUTF8 envelope carries
 * UTF-8. A lone surrogate counts 3 (it would travel as U+FFFD); it is rejected later anyway.
 */
export function utf8Length(s: string, start = 0, end = s.length): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

export function isAllAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}
