/** How CLI commands talk to the operator: stdout for results, stderr for problems. */
export function print(line = ''): void {
  process.stdout.write(`${line}\n`);
}

export function fail(message: string, exitCode = 1): never {
  process.stderr.write(`mailsure: ${message}\n`);
  process.exit(exitCode);
}

export function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
