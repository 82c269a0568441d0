/** One row of a policy import: `email` for one address or `domain` for a whole domain. */
import type { PolicyEntry, PolicyKind } from './policy-store.js';
import { addressListValue, domainListValue } from '../list-value.js';

export function policyEntryFrom(kind: PolicyKind, record: Record<string, unknown>): PolicyEntry | { problem: string } {
  const email = text(record.email);
  const domain = text(record.domain);
  if (email && domain) return { problem: 'give either email or domain, not both' };
  if (!email && !domain) return { problem: 'no email or domain' };
  const parsed = email ? addressListValue(email) : domainListValue(domain!);
  if ('problem' in parsed) return { problem: `${email ? 'email' : 'domain'} is ${parsed.problem}` };
  return { kind, value: parsed.value };
}

function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}
