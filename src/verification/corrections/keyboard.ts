// Which keys sit next to each other on a US QWERTY keyboard. A slip onto a neighbouring key is
// the commonest substitution typo, so the typo distance charges it half a substitution.
//
// Rows are laid out with the usual stagger: each row sits about half a key to the right of the
// one above, so key (row r, column c) touches (r-1, c), (r-1, c+1), (r+1, c-1) and (r+1, c).

const ROWS = ['1234567890-', 'qwertyuiop', 'asdfghjkl;', 'zxcvbnm,.'];

const NEIGHBOURS = new Map<string, Set<string>>();

function add(a: string | undefined, b: string | undefined): void {
  if (a === undefined || b === undefined) return;
  let set = NEIGHBOURS.get(a);
  if (set === undefined) NEIGHBOURS.set(a, (set = new Set()));
  set.add(b);
}

for (let r = 0; r < ROWS.length; r++) {
  const row = ROWS[r] as string;
  for (let c = 0; c < row.length; c++) {
    const key = row[c];
    const touching = [row[c - 1], row[c + 1], ROWS[r - 1]?.[c], ROWS[r - 1]?.[c + 1], ROWS[r + 1]?.[c - 1], ROWS[r + 1]?.[c]];
    for (const other of touching) add(key, other);
  }
}

/** True when `a` and `b` are different keys that touch; case-insensitive for letters. */
export function areAdjacentKeys(a: string, b: string): boolean {
  return NEIGHBOURS.get(a.toLowerCase())?.has(b.toLowerCase()) === true;
}
