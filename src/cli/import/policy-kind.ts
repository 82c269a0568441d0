/** `--kind` of `mailsure import policy`, apart from the importer so checking it loads nothing more. */
import { POLICY_KINDS, type PolicyKind } from '../../verification/policy/policy-store.js';

export function isPolicyKind(value: string): value is PolicyKind {
  return (POLICY_KINDS as readonly string[]).includes(value);
}
