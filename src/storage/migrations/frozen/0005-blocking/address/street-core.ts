// Migration 0005's frozen copy of identity/address/street-core.ts as it stood at the freeze (frozen/0005-blocking.ts): never edit.
/**
 * The street proper — what is left of a line once the house number and unit are off — read
 * from the outside in: post-directional, suffix, pre-directional; the rest is the name. Each
 * outer part is taken only while something is left for the name (`NORTH AVE` is the avenue named
 * North, `CIRCLE DR` the drive named Circle).
 */
import { GLUED_DIRECTION } from './house-number.js';
import { endsWithRouteWord } from './route-words.js';
import { directionalOf, isCommonSuffix, isSuffixName, postDirectionalOf, preDirectionalOf, routePrefixAt, suffixOf } from './pub28.js';
import { normalizeStreetName } from './street-name.js';
import { COMMA, hasDigit } from './tokens.js';

export interface StreetCore {
  preDirectional?: string;
  name: string;
  suffix?: string;
  postDirectional?: string;
}

function core(parts: StreetCore): StreetCore {
  return {
    ...(parts.preDirectional && { preDirectional: parts.preDirectional }),
    name: parts.name,
    ...(parts.suffix && { suffix: parts.suffix }),
    ...(parts.postDirectional && { postDirectional: parts.postDirectional }),
  };
}

/**
 * `HWY 50`, `CO RD 1450 E`, `AVENUE H`, `BOULEVARD EAST`: a route word, one token, maybe a
 * directional. The route word is spelled out (Publication 28 section 237).
 */
function routeName(tokens: readonly string[], hasPre: boolean): StreetCore | undefined {
  const prefix = routePrefixAt(tokens, 0);
  if (prefix === undefined) return undefined;
  const rest = tokens.slice(prefix.length);
  const x = rest[0];
  if (x === undefined || rest.length > 2) return undefined;
  const post = rest.length === 2 ? postDirectionalOf(rest[1]!) : undefined;
  if (rest.length === 2 && post === undefined) return undefined;
  if (!hasDigit(x)) {
    // `AVENUE RD` is the road named Avenue, `HIGHWAY DR` the drive, `CR HILL` the hill.
    if (suffixOf(x) !== undefined) return undefined;
    if (x.length > 3 && directionalOf(x) === undefined) return undefined;
    // `N AVE NW` is the avenue named N; `AVENUE E` with nothing before it is Avenue E.
    if (!prefix.anywhere && (rest.length === 2 || (hasPre && directionalOf(x) !== undefined))) return undefined;
  }
  const glued = post === undefined ? GLUED_DIRECTION.exec(x) : null;
  if (glued) return core({ name: `${prefix.canonical} ${glued[1]}`, postDirectional: glued[2]! });
  return core({ name: `${prefix.canonical} ${normalizeStreetName([x])}`, postDirectional: post });
}

/** `S E`, `N W` written as two words. */
function pairedDirectional(a: string | undefined, b: string | undefined): string | undefined {
  const first = a === undefined ? undefined : preDirectionalOf(a);
  const second = b === undefined ? undefined : directionalOf(b);
  if ((first === 'N' || first === 'S') && (second === 'E' || second === 'W')) return first + second;
  return undefined;
}

export function streetCore(tokens: readonly string[], gluedPre: string | undefined): StreetCore {
  let words = tokens.filter((token) => token !== '#' && token !== COMMA);
  // `… S E` at the end is one directional, SE, before any other rule looks at it.
  const tailPair =
    words.length >= 3 && words[words.length - 2]!.length === 1
      ? pairedDirectional(words[words.length - 2], words[words.length - 1])
      : undefined;
  if (tailPair !== undefined) words = [...words.slice(0, -2), tailPair];
  // … and `NORTH WEST` at the start, NW.
  const headPair = gluedPre === undefined && words.length >= 3 ? pairedDirectional(words[0], words[1]) : undefined;
  if (headPair !== undefined) words = [headPair, ...words.slice(2)];
  let pre = gluedPre;
  let post: string | undefined;
  let suffix: string | undefined;

  if (pre === undefined && words.length >= 3 && preDirectionalOf(words[0]!) && routePrefixAt(words, 1)) {
    const route = routeName(words.slice(1), true);
    if (route) return core({ preDirectional: preDirectionalOf(words[0]!), ...route });
  }
  const route = routeName(words, pre !== undefined);
  if (route) return core({ preDirectional: pre, ...route });

  const n = words.length;
  const last = words[n - 1];
  if (n >= 2 && last !== undefined && postDirectionalOf(last)) {
    post = postDirectionalOf(last);
    words = words.slice(0, -1);
  } else if (
    last !== undefined &&
    suffixOf(last) &&
    n >= 3 &&
    isShortDirectional(words[n - 2]!) &&
    !hasDigit(words[n - 3]) &&
    (n >= 4 || !directionalOf(words[0]!)) &&
    !endsWithRouteWord([...words.slice(0, -2), last])
  ) {
    // `SAINT JOHN W ST`: a directional written before the suffix (but `2900 E RD` is a grid
    // street named 2900 E, and `CO NE RD` is not County Road NE).
    post = directionalOf(words[n - 2]!);
    words = [...words.slice(0, -2), last];
  } else if (last !== undefined && (pre !== undefined || n >= 2) && GLUED_DIRECTION.test(last)) {
    // `S 400E` in a grid address.
    const glued = GLUED_DIRECTION.exec(last)!;
    post = glued[2];
    words = [...words.slice(0, -1), glued[1]!];
  }
  const end = words[words.length - 1];
  const endSuffix = end === undefined ? undefined : suffixOf(end);
  // `N WELLS`, `E LAKE`: a rarer suffix word after a lone directional is the name.
  const loneDirectionalName =
    words.length === 2 &&
    pre === undefined &&
    preDirectionalOf(words[0]!) !== undefined &&
    !isCommonSuffix(endSuffix) &&
    isSuffixName(end!);
  if (words.length >= 2 && endSuffix !== undefined && !loneDirectionalName) {
    suffix = endSuffix;
    words = words.slice(0, -1);
  }
  if (pre === undefined && words.length >= 2 && preDirectionalOf(words[0]!)) {
    pre = preDirectionalOf(words[0]!);
    words = words.slice(1);
  }
  return core({ preDirectional: pre, name: normalizeStreetName(words), suffix, postDirectional: post });
}

function isShortDirectional(token: string): boolean {
  return token.length <= 2 && directionalOf(token) !== undefined;
}
