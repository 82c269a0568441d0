/**
 * The list's name, format and delimiter from the submit request (decisions §6).
 *
 * - `name` absent (or empty): the uploaded part's file name when its extension is accepted,
 *   else `myfile.csv`. A given `name` with another extension is a 422.
 * - Only the last path segment of either is kept (browsers and old clients send
 *   `C:\Users\me\list.csv`), control characters are dropped, and the extension is matched
 *   case-insensitively (`LIST.CSV` is a CSV); the name itself keeps its case.
 * - Delimiter: `.csv` comma, `.txt` tab; for `.zip` the inner file's extension decides. The
 *   `delimiter` parameter overrides: exactly one character, never a quote, CR or LF. `tab` and
 *   the two characters `\t` are accepted for a tab, because a literal tab is awkward to put in
 *   a URL and clients send either.
 */
import { errors } from '../../core/errors.js';
import type { InputFormat } from '../list-record.js';
import { fail, ok, type Outcome } from '../outcome.js';

export type TextExtension = 'csv' | 'txt';
/** The list's declared format (`InputFormat` of the list record). */
export type ListFormat = InputFormat;

export const DEFAULT_LIST_NAME = 'myfile.csv';
export const MAX_NAME_LENGTH = 255;

export interface ListName {
  name: string;
  format: ListFormat;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;

function baseName(raw: string): string {
  const segments = raw.split(/[/\\]/);
  return (segments[segments.length - 1] ?? '').replace(CONTROL, '').trim();
}

/** The accepted format of a file name, or undefined. */
export function formatOf(fileName: string): ListFormat | undefined {
  const match = /\.([^.]+)$/.exec(fileName);
  const ext = match?.[1]?.toLowerCase();
  return ext === 'csv' || ext === 'txt' || ext === 'zip' ? ext : undefined;
}

/** Failure reasons are for a 422 ("Invalid file; check name and format"). */
export function decideListName(nameParam: string | undefined, partFileName: string | undefined): Outcome<ListName> {
  if (nameParam === undefined || nameParam.trim() === '') {
    const fromPart = baseName(partFileName ?? '');
    const format = formatOf(fromPart);
    if (format && fromPart.length <= MAX_NAME_LENGTH && stem(fromPart) !== '') return ok({ name: fromPart, format });
    return ok({ name: DEFAULT_LIST_NAME, format: 'csv' });
  }
  const name = baseName(nameParam);
  if (name.length > MAX_NAME_LENGTH) return fail(`The file name is longer than ${MAX_NAME_LENGTH} characters`);
  const format = formatOf(name);
  if (!format) return fail(`The file name must end in .csv, .txt or .zip (got "${name}")`);
  if (stem(name) === '') return fail(`The file name needs a name before its extension (got "${name}")`);
  return ok({ name, format });
}

/** The name without its extension: the results file is `<stem>-<list_id>-Service.<ext>`. */
export function stem(fileName: string): string {
  return fileName.replace(/\.[^.]*$/, '');
}

/** The `delimiter` parameter: undefined when absent. Failure reasons are for a 400. */
export function parseDelimiter(raw: string | undefined): Outcome<string | undefined> {
  if (raw === undefined || raw === '') return ok(undefined);
  if (raw === '\\t' || raw.toLowerCase() === 'tab') return ok('\t');
  const bad = (why: string) => fail(errors.invalidParameter('delimiter', why).message);
  if ([...raw].length !== 1) return bad('must be exactly one character');
  if (raw === '"') return bad('a quote cannot be the delimiter');
  if (raw === '\r' || raw === '\n') return bad('a line break cannot be the delimiter');
  return ok(raw);
}

export function defaultDelimiter(extension: TextExtension): string {
  return extension === 'csv' ? ',' : '\t';
}

/** The delimiter in force once the text file's extension is known (after opening a zip). */
export function resolveDelimiter(override: string | undefined, extension: TextExtension): string {
  return override ?? defaultDelimiter(extension);
}
