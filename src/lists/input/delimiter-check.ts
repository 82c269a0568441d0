/**
 * A file parsed into one column whose every row holds the same number of another common
 * delimiter was almost certainly read with the wrong delimiter (a comma-separated `.txt`, a
 * semicolon CSV from a European Excel). We say so rather than guess: the results file must use
 * the delimiter the caller will read it with, so the caller chooses.
 */
const CANDIDATES = [',', '\t', ';', '|'] as const;
const NAMES: Record<string, string> = { ',': 'comma', '\t': 'tab', ';': 'semicolon', '|': 'pipe' };

export const delimiterName = (d: string) => NAMES[d] ?? `"${d}"`;

const occurrences = (text: string, d: string) => text.split(d).length - 1;

/** The delimiter the rows seem to use instead of `delimiter`, or undefined. */
export function suspectDelimiter(rows: readonly (readonly string[])[], delimiter: string): string | undefined {
  const lines = rows.filter((row) => row.some((cell) => cell.trim() !== ''));
  if (lines.length === 0 || lines.some((row) => row.length !== 1)) return undefined;
  return CANDIDATES.find((d) => {
    if (d === delimiter) return false;
    const count = occurrences(lines[0]![0]!, d);
    return count > 0 && lines.every((row) => occurrences(row[0]!, d) === count);
  });
}

export function wrongDelimiterReason(suspected: string, delimiter: string): string {
  return `The file seems to be delimited by ${delimiterName(suspected)}, not ${delimiterName(delimiter)}; set the delimiter parameter`;
}
