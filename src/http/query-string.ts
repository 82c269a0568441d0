/**
 * Query strings are percent-decoded (decisions §3). Unlike form decoding, `+` stays a plus:
 * clients put addresses such as `jane+news@example.com` into the URL unencoded, and a space is
 * never valid in an address anyway, so reading `+` as a space would only break real addresses.
 */
export const MALFORMED = Symbol('malformed query string');

export type ParsedQuery = Record<string, string | string[]> & { [MALFORMED]?: true };

const MAX_PARAMS = 64;

export function parseQueryString(raw: string): ParsedQuery {
  const out = Object.create(null) as ParsedQuery;
  if (raw === '') return out;
  const pairs = raw.split('&');
  if (pairs.length > MAX_PARAMS) {
    out[MALFORMED] = true;
    return out;
  }
  for (const pair of pairs) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    let name: string;
    let value: string;
    try {
      name = decode(eq < 0 ? pair : pair.slice(0, eq));
      value = eq < 0 ? '' : decode(pair.slice(eq + 1));
    } catch {
      out[MALFORMED] = true;
      continue;
    }
    const previous = out[name];
    if (previous === undefined) out[name] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else out[name] = [previous, value];
  }
  return out;
}

function decode(text: string): string {
  return text.includes('%') ? decodeURIComponent(text) : text;
}
