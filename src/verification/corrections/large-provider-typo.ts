// decisions §4: "a misspelt domain of a large provider (`gmial.com`) is a typo first". Whether a
// domain as typed is most likely a slip for a popular mail provider's, from the same domain
// fixes the corrections use (remembered per domain there, so this is a map lookup on a repeat).
import { domainFixes, isPopularDomain } from './domain-fixes.js';

const NONE: ReadonlySet<string> = new Set();

/** True when the best fix of `domain` (lower-case, A-label) is a popular provider's domain. */
export function misspeltLargeProvider(domain: string): boolean {
  const best = domainFixes(domain, NONE)[0];
  return best !== undefined && best.tier === 0 && isPopularDomain(best.domain);
}
