// Data files beside the code: one lower-case name per line; `#` starts a comment, blank lines are
// skipped. Read once at module load, so a malformed file stops start-up instead of
// misclassifying at run time.

import { readFileSync } from 'node:fs';

const NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

export function parseList(text: string, source: string): ReadonlySet<string> {
  const names = new Set<string>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const hash = lines[i]!.indexOf('#');
    const name = (hash === -1 ? lines[i]! : lines[i]!.slice(0, hash)).trim();
    if (name === '') continue;
    if (!NAME.test(name)) throw new Error(`${source}:${i + 1}: not a lower-case domain name: ${JSON.stringify(name)}`);
    names.add(name);
  }
  return names;
}

/** `url` is `new URL('./file.txt', import.meta.url)` in the caller, so files travel with modules. */
export function loadList(url: URL): ReadonlySet<string> {
  return parseList(readFileSync(url, 'utf8'), url.pathname);
}
