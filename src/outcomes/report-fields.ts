/**
 * The field groups of a delivery-status (RFC 3464 §2.1) or feedback-report (RFC 5965 §3.1) part:
 * header-style `Name: value` lines, folded lines joined, groups separated by blank lines. Names
 * are lower-cased; a name may repeat (Original-Rcpt-To), so each holds a list.
 */
export type FieldGroup = ReadonlyMap<string, readonly string[]>;

export function fieldGroups(content: string): FieldGroup[] {
  const groups: FieldGroup[] = [];
  let fields = new Map<string, string[]>();
  let last: { name: string; index: number } | undefined;
  const close = () => {
    if (fields.size > 0) groups.push(fields);
    fields = new Map();
    last = undefined;
  };
  for (const line of content.split(/\r?\n/)) {
    if (line.trim().length === 0) {
      close();
      continue;
    }
    if (/^[ \t]/.test(line)) {
      // A folded line continues the field before it (RFC 5322 §2.2.3).
      const values = last && fields.get(last.name);
      if (values && last) values[last.index] = `${values[last.index]!} ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const values = fields.get(name) ?? [];
    values.push(line.slice(colon + 1).trim());
    fields.set(name, values);
    last = { name, index: values.length - 1 };
  }
  close();
  return groups;
}

export function field(group: FieldGroup | undefined, name: string): string | undefined {
  const value = group?.get(name)?.[0];
  return value !== undefined && value.length > 0 ? value : undefined;
}

/**
 * `rfc822; someone@example.com` (an address-type, then the address) → `someone@example.com`;
 * a bare address, or one in angle brackets, as it is.
 */
export function typedAddress(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const semicolon = value.indexOf(';');
  const address = (semicolon >= 0 ? value.slice(semicolon + 1) : value)
    .trim()
    .replace(/^<(.*)>$/, '$1')
    .trim();
  return address.length > 0 ? address : undefined;
}
