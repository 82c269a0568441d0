/**
 * A start-up failure the operator can fix: one line saying what failed and which setting to
 * change. The CLI prints it alone (no stack trace) and exits non-zero.
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

/** `ENOENT: no such file or directory` from a Node error, for the end of a one-line message. */
export function reasonOf(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message.split('\n')[0]!.replace(/,? (open|mkdir|access|stat) '.*'$/, '') : String(error);
  return typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
}
