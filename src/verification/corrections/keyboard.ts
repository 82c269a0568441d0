// Which keys sit next to each other on a US QWERTY keyboard. A slip onto a neighbouring key is
// the commonest substitution typo, so the typo distance charges it half a substitution.
//
// Rows are laid out with the usual stagger: each row sits about half a key to the right of the
// one above, so key (row r, column c) touches (r-1, c), (r-1, c+1), (r+1, c-1) and (r+1, c).

const ROWS = ['1234567890-', 'qwertyuiop', 'asdfghjkl;', 'zxcvbnm,.'];

// A 128×128 table of ASCII char-code pairs: the distance loop asks this for every cell.
const ADJACENT = new Uint8Array(128 * 128);

function mark(a: string | undefined, b: string | undefined): void {
  if (a === undefined || b === undefined) return;
  for (const x of new Set([a, a.toUpperCase()])) {
    for (const y of new Set([b, b.toUpperCase()])) ADJACENT[x.charCodeAt(0) * 128 + y.charCodeAt(0)] = 1;
  }
}

for (let r = 0; r < ROWS.length; r++) {
  const row = ROWS[r] as string;
  for (let c = 0; c < row.length; c++) {
    const key = row[c];
    const touching = [row[c - 1], row[c + 1], ROWS[r - 1]?.[c], ROWS[r - 1]?.[c + 1], ROWS[r + 1]?.[c - 1], ROWS[r + 1]?.[c]];
    for (const other of touching) mark(key, other);
  }
}

/** True when the UTF-16 code units `a` and `b` are different keys that touch; case-insensitive. */
export function areAdjacentCodes(a: number, b: number): boolean {
  return a < 128 && b < 128 && ADJACENT[a * 128 + b] === 1;
}

export function areAdjacentKeys(a: string, b: string): boolean {
  return a.length === 1 && b.length === 1 && areAdjacentCodes(a.charCodeAt(0), b.charCodeAt(0));
}
