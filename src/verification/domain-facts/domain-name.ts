// Name matching against sets of domains. Every lookup walks the labels once (O(labels)).

/** Lower-case, without the root's trailing dot: the form every set holds. */
export function normalizeName(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** The first of `name`, its parent, its grandparent, … that `set` holds (a.b.c, b.c, c). */
export function selfOrParentIn(name: string, set: ReadonlySet<string>): string | undefined {
  let candidate = name;
  for (;;) {
    if (set.has(candidate)) return candidate;
    const dot = candidate.indexOf('.');
    if (dot === -1) return undefined;
    candidate = candidate.slice(dot + 1);
  }
}

/** The first host (in the order given, i.e. MX preference) that is, or is under, a name in `set`. */
export function firstHostIn(hosts: readonly string[], set: ReadonlySet<string>): string | undefined {
  for (const host of hosts) {
    const hit = selfOrParentIn(normalizeName(host), set);
    if (hit !== undefined) return hit;
  }
  return undefined;
}
