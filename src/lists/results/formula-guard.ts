/**
 * CSV injection (OWASP "CSV Injection"): a cell a spreadsheet would run as a formula — one that
 * starts with `=`, `+`, `-`, `@`, a tab or a carriage return — is written with a leading `'`, which
 * spreadsheets show as text and do not evaluate. A plain signed number (`-12.50`, `+3`) is left
 * alone: it is data, and no spreadsheet runs it.
 *
 * Applied to the columns the results file adds from our own data (statuses, enrichment values,
 * match types), never to the customer's own cells nor to the addresses we add (`Valid Email`,
 * `Append Email`): those must come back exactly as they are, or the results no longer join back
 * to the customer's records (`+1234@example.com` is an address, and `'+1234@example.com` is
 * not). A formula in the customer's own data was in the file they sent us (docs/lists.md).
 */
const TRIGGER = /^[=+\-@\t\r]/;
const SIGNED_NUMBER = /^[+-]\d+(?:[.,]\d+)*$/;

export function neutraliseFormula(value: string): string {
  return TRIGGER.test(value) && !SIGNED_NUMBER.test(value) ? `'${value}` : value;
}
