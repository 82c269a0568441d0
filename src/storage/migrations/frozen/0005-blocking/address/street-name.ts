// Migration 0005's frozen copy of identity/address/street-name.ts as it stood at the freeze (frozen/0005-blocking.ts): never edit.
/**
 * The street name proper, once number, directionals, suffix and unit are taken off: ordinals in
 * digits (`FIRST` → `1ST`, `TWENTY FIRST` → `21ST`) and route words spelled out the way
 * Publication 28 section 237 writes them (`HWY 50` → `HIGHWAY 50`, `CO RD 12` → `COUNTY ROAD 12`).
 * Both rewrites map their own output to itself, so normalising twice changes nothing.
 */
import { routePrefixAt } from './pub28.js';
import { ordinalWords } from './ordinals.js';
import { hasDigit } from './tokens.js';

/**
 * Spells out route words that stand before a road number anywhere in the name
 * (`OLD HWY 5` → `OLD HIGHWAY 5`), and `AVE`, `BLVD`, `RD` when they start a name of several
 * words (`AVE OF THE AMERICAS` → `AVENUE OF THE AMERICAS`).
 */
function routeWords(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const prefix = routePrefixAt(tokens, i);
    const next = i + (prefix?.length ?? 0);
    if (prefix && ((prefix.anywhere && hasDigit(tokens[next])) || (!prefix.anywhere && i === 0 && next < tokens.length))) {
      out.push(prefix.canonical);
      i += prefix.length - 1;
      continue;
    }
    out.push(tokens[i]!);
  }
  return out;
}

/** Upper-case name tokens (as the tokenizer leaves them) → the normalised name string. */
export function normalizeStreetName(tokens: readonly string[]): string {
  return routeWords(ordinalWords(tokens.filter((token) => token !== '#' && token !== ',')))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A street name written as free text (`Ave. H`, `CO RD 12`, `Twenty-First`) in the form
 * parseStreet gives it: used to compare names that did not come from parseStreet.
 */
export function canonicalStreetName(tokens: readonly string[]): string {
  const words = tokens.filter((token) => token !== '#' && token !== ',');
  const prefix = routePrefixAt(words, 0);
  if (prefix !== undefined && words.length === prefix.length + 1)
    return `${prefix.canonical} ${normalizeStreetName(words.slice(prefix.length))}`;
  return normalizeStreetName(words);
}
