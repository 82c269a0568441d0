// decisions §4: "a known misspelling of a large provider's domain (`gmial.com`, on the shipped list
// of such misspellings) is a typo first". The list is large-provider-typos.txt beside this file:
// names that a shipped domain list carries and that the corrections read as one slip from one of
// the biggest providers. Only those: a real domain that merely sits near gmail.com is probed like
// any other, never called a typo on its name alone.
import { loadList } from '../domain-facts/load-list.js';

const KNOWN_TYPOS = loadList(new URL('./large-provider-typos.txt', import.meta.url));

/** True when `domain` (lower-case, A-label) is on the shipped list of the big providers' misspellings. */
export function misspeltLargeProvider(domain: string): boolean {
  return KNOWN_TYPOS.has(domain);
}
