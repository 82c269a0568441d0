import { routePrefixAt } from './pub28.js';

/** Whether `words` ends with a route word (`HWY`, `US HWY`, `CO RD`): a number after it is the road's. */
export function endsWithRouteWord(words: readonly string[]): boolean {
  for (let j = Math.max(0, words.length - 4); j < words.length; j++) {
    const prefix = routePrefixAt(words, j, true);
    if (prefix && j + prefix.length === words.length && (prefix.anywhere || j === 0)) return true;
  }
  return false;
}
