/**
 * Verification status codes in words, from the server's one catalogue (src/verification/codes.ts):
 * the full meaning (without the backticks that mark names there for the docs), and a short label
 * for places with little room, such as the list report's chart, where the meaning goes on hover.
 */
import { CODE_ENTRIES } from '../../src/verification/codes.js';

export const CODE_MEANINGS: ReadonlyMap<number, string> = new Map(
  [...CODE_ENTRIES].map(([code, entry]) => [code, entry.meaning.replace(/`/g, '')]),
);

/** A few words per code, in a list owner's terms (test/dashboard/codes.test.ts: one for every code of the catalogue). */
const SHORT: Record<number, string> = {
  5: 'no answer in time',
  10: 'syntax checked only',
  20: 'mailbox not checkable',
  45: 'catch-all domain',
  50: 'mailbox accepted',
  55: 'client exception',
  100: 'syntax error',
  110: 'invalid character',
  115: 'bad domain syntax',
  120: 'bad user name syntax',
  125: 'bad user name for domain',
  130: 'address too long',
  140: 'no user name',
  145: 'no domain',
  150: 'no @ sign',
  155: 'several @ signs',
  200: 'invalid top-level domain',
  210: 'extra space or character',
  215: 'unquoted space',
  255: 'client suppression',
  310: 'domain does not exist',
  325: 'domain takes no mail',
  400: 'no such mailbox',
  410: 'mailbox full',
  420: 'every MX refuses',
  500: 'dangerous mailbox',
  505: 'misspelt or refused domain',
  510: 'address not accepted',
  520: 'known bouncer',
  525: 'trap or complainer',
  530: 'opted out',
  535: 'do-not-email list',
  999: 'our own failure',
};

export const CODE_LABELS: ReadonlyMap<number, string> = new Map(
  [...CODE_ENTRIES.keys()].map((code) => [code, SHORT[code] ?? CODE_MEANINGS.get(code)!]),
);
