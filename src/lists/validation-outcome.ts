/**
 * One record's verification in list terms (decisions §6: lists use the legacy taxonomy, plus
 * `corrected`). This small plain value is what the pipeline stores per record, what
 * `reporting.ts` counts and what the results file's validation columns are written from.
 *
 * - The legacy rendering applies: a disposable domain is `invalid` 505, not `risky` 525.
 * - A verdict carrying corrections is `corrected`, whatever its code (the reference: the status
 *   of an address "invalid by syntax or spelling and fixed"); its code stays the original one,
 *   so the report's `status_codes` still say what was wrong, and `Valid Email` holds the fix.
 * - `Valid Email` is filled for `valid` (the standardized address) and `corrected` only.
 */
import { CODE, type StatusCode } from '../verification/codes.js';
import { legacyCode, statusesFor, type LegacyStatus } from '../verification/render.js';
import type { VerdictLimit } from '../verification/health/health-state.js';
import type { DomainType, Verdict } from '../verification/verdict.js';

export type ListValidationStatus = LegacyStatus | 'corrected';
export type InvalidCategory = 'Syntax Errors' | 'Domain Errors' | 'Mailbox Errors' | 'Suppressions';

export interface ValidationOutcome {
  status: ListValidationStatus;
  /** The legacy variant's code (render.ts `legacyCode`): one the catalogue defines (codes.ts). */
  code: StatusCode;
  domainType?: DomainType;
  roleAccount: boolean;
  validEmail?: string;
  /** The verdict stopped short because of our own network (prober health), not the address. */
  limit?: VerdictLimit;
  /** The 520 / 525 came from the key's ingested ESP outcomes, not an imported list (counted, never stored). */
  fromOutcomes?: true;
}

export function validationOutcome(verdict: Verdict): ValidationOutcome {
  // Each field read once: verdicts built by object spread each have a hidden class of their own,
  // so every property read of one is a slow, uncached lookup.
  const { code: verdictCode, domainType, corrections, roleAccount, address, limit, fromOutcomes } = verdict;
  const code = legacyCode(verdictCode, domainType);
  const legacy = statusesFor(code)[1];
  const fix = corrections?.[0];
  // Every field set, absent ones to undefined: one object shape for every outcome, so the code
  // reading a million of them (counting, the stored results) stays on its fast path.
  return {
    status: fix !== undefined ? 'corrected' : legacy,
    code,
    domainType: domainType || undefined,
    roleAccount,
    validEmail: fix ?? (legacy === 'valid' ? address : undefined),
    limit: limit || undefined,
    fromOutcomes: fromOutcomes || undefined,
  };
}

/**
 * The report's invalid category of a code (docs/verification.md): syntax 100–299 (135 and 205
 * included); client suppressions 255; domain 300–399, 420 (every MX refuses) and 505
 * (disposable domain); mailbox the rest of 400–524 (unknown user, full, dangerous mailbox,
 * UTF-8 refused, known bouncer). Codes outside the invalid range have none.
 */
export function invalidCategory(code: number): InvalidCategory | undefined {
  // The codes whose hundred says otherwise are named; the rest go by hundreds, so codes the
  // catalogue lacks (135, 205, 315 in stored counts) still fall somewhere.
  if (code === CODE.suppressed) return 'Suppressions';
  if (code >= 100 && code < 300) return 'Syntax Errors';
  if ((code >= 300 && code < 400) || code === CODE.refusesMail || code === CODE.domainRejected) return 'Domain Errors';
  if (code >= 400 && code < CODE.trap) return 'Mailbox Errors';
  return undefined;
}
