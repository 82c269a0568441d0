/**
 * Column names and cells the results file appends (api-reference "List results file",
 * decisions §6), and the header of the original columns.
 *
 * When the input had no header the results still get one (the reference: "A header row is
 * always present"): the email column is named `Email` — the one role a header-less file has —
 * and the others `Column 1`, `Column 2`, … by position, so a reader can match them to the
 * columns they sent. A header shorter than the widest row is padded the same way.
 */
import type { ValidationOutcome } from '../validation-outcome.js';
import type { AppendMatchType } from '../reporting.js';

export const VALIDATION_COLUMNS = [
  'Validation Status',
  'Validation Code',
  'Domain Type',
  'Role Account',
  'Duplicate',
  'Valid Email',
] as const;

export const APPEND_COLUMNS = ['Append Email', 'Append Match Type'] as const;

/** The appended columns that hold addresses, written as they are (formula-guard.ts). */
export const ADDRESS_COLUMNS: ReadonlySet<string> = new Set(['Valid Email', 'Append Email']);

/**
 * Added after the validation columns only to lists where some verdict stopped short because of
 * the verifier's own network: it says so on the row, so nobody deletes an address for it.
 */
export const VERIFICATION_NOTE_COLUMN = 'Verification Note';

const LIMIT_NOTES: Record<string, string> = {
  resolver: 'not verified: the verifier could not trust its DNS resolver; verify again once it is fixed',
  'smtp-egress': 'mailbox not checked: SMTP port 25 was blocked from the verifier; verify again once it is open',
  reputation: 'mailbox not checked: the provider refused the verifier itself, not this address',
  throttled: 'mailbox not checked: the provider kept asking the verifier to slow down; verify again later',
};

/** The note for a stored limit ('' for none). */
export function limitNote(limit: string): string {
  return LIMIT_NOTES[limit] ?? '';
}

/** Intelligence appends one column per configured field, named as the API names it. */
export function intelligenceColumns(fields: readonly string[]): string[] {
  return [...fields];
}

/** What an appended column's name gets in front when the input already has a column of that name. */
export const INTELLIGENCE_PREFIX = 'ei_';
export const SERVICE_PREFIX = 'Mailsure ';

/**
 * The appended columns' names, never one an input column (or an earlier appended column)
 * already has, compared trimmed and case-insensitively as spreadsheets and header maps do: a
 * file with its own `zip` gets the enrichment's as `ei_zip`, a results file sent again gets
 * `Mailsure Validation Status`; should that be taken too, `ei_zip_2`, `ei_zip_3`, … Names that
 * are free are kept as they are (docs/lists.md).
 */
export function distinctAppendedNames(original: readonly string[], appended: readonly { name: string; prefix: string }[]): string[] {
  const key = (name: string) => name.trim().toLowerCase();
  const taken = new Set(original.map(key));
  return appended.map(({ name, prefix }) => {
    let chosen = name;
    for (let n = 1; taken.has(key(chosen)); n++) chosen = n === 1 ? `${prefix}${name}` : `${prefix}${name}_${n}`;
    taken.add(key(chosen));
    return chosen;
  });
}

export function originalHeader(header: readonly string[] | undefined, columnCount: number, emailColumn?: number): string[] {
  const names: string[] = [];
  for (let i = 0; i < Math.max(columnCount, header?.length ?? 0); i++) {
    names.push(header?.[i] ?? (header === undefined && i === emailColumn ? 'Email' : `Column ${i + 1}`));
  }
  return names;
}

/** The six validation cells; all empty for a record that was not verified. */
export function validationCells(outcome: ValidationOutcome | undefined, duplicate: boolean): string[] {
  if (!outcome) return ['', '', '', '', duplicate ? 'true' : '', ''];
  return [
    outcome.status,
    String(outcome.code),
    outcome.domainType ?? '',
    outcome.roleAccount ? 'true' : '',
    duplicate ? 'true' : '',
    outcome.validEmail ?? '',
  ];
}

export function appendCells(match: { email: string; matchType: AppendMatchType } | undefined): string[] {
  return match ? [match.email, match.matchType] : ['', ''];
}

/** The file inside the results zip: `<name without extension>-<list_id>-Service.<csv|txt>`. */
export function resultsFileName(listName: string, listId: number, extension: 'csv' | 'txt'): string {
  return `${listName.replace(/\.[^.]*$/, '')}-${listId}-Service.${extension}`;
}

/** The download's name (decisions §6): `<name without extension>-<list_id>-Service.zip`. */
export function resultsZipName(listName: string, listId: number): string {
  return `${listName.replace(/\.[^.]*$/, '')}-${listId}-Service.zip`;
}
