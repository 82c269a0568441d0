/**
 * CSV injection (OWASP "CSV Injection"): a cell a spreadsheet would run as a formula — one that
 * starts with `=`, `+`, `-`, `@`, a tab or a carriage return — is written with a leading `'`, which
 * spreadsheets show as text and do not evaluate. A plain signed number (`-12.50`, `+3`) is left
 * alone: it is data, and no spreadsheet runs it. Results files are opened in spreadsheets by the
 * people who clean lists; the uploads they came from are not ours to trust.
 */
const TRIGGER = /^[=+\-@\t\r]/;
const SIGNED_NUMBER = /^[+-]\d+(?:[.,]\d+)*$/;

export function neutraliseFormula(value: string): string {
  return TRIGGER.test(value) && !SIGNED_NUMBER.test(value) ? `'${value}` : value;
}
