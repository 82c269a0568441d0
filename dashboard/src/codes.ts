/**
 * The meaning of each verification status code, in words, from the server's one catalogue
 * (src/verification/codes.ts), without the backticks that mark names there for the docs.
 */
import { CODE_ENTRIES } from '../../src/verification/codes.js';

export const CODE_MEANINGS: ReadonlyMap<number, string> = new Map([...CODE_ENTRIES].map(([code, entry]) => [code, entry.meaning.replace(/`/g, '')]));
