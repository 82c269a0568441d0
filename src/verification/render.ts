/**
 * Both response variants from the one internal verdict. Statuses come from the code catalogue
 * (`codes.ts`); codes it does not hold (a future code, a stored list count) fall back by range,
 * so a verdict always renders.
 */
import { CODE, CODE_ENTRIES, type LegacyStatus, type StatusCode, type VerificationStatus } from './codes.js';
import type { DomainType, Verdict } from './verdict.js';

export type { LegacyStatus, VerificationStatus } from './codes.js';

// One pair per code, made once: lists read statuses for every record.
const STATUSES = new Map<number, [VerificationStatus, LegacyStatus]>(
  [...CODE_ENTRIES].map(([code, e]) => [code, [e.safeToSend, e.legacy]]),
);

// An unknown code between 100 and the trap codes is a reason to reject, as every catalogued one there
// is; anywhere else nothing says what it proves, so it is unknown (docs/verification.md).
const INVALID_FROM = 100;
const INVALID_BELOW = CODE.trap;

export function statusesFor(code: number): [VerificationStatus, LegacyStatus] {
  const row = STATUSES.get(code);
  if (row) return row;
  if (code >= INVALID_FROM && code < INVALID_BELOW) return ['invalid', 'invalid'];
  return ['unknown', 'unknown'];
}

export interface SafeToSendBody {
  address: string;
  status: VerificationStatus;
  status_code: StatusCode;
  domain_type?: string;
  role_account?: true;
  email_corrections?: string[];
  engagement_score?: { score: number };
}

export interface EmailValidationBody {
  address: string;
  status: LegacyStatus;
  status_code: StatusCode;
  domain_type?: string;
  role_account?: true;
  email_corrections?: string[];
}

export function renderSafeToSend(v: Verdict): { safe_to_send: SafeToSendBody } {
  const status = statusesFor(v.code)[0];
  const body: SafeToSendBody = { address: v.address, status, status_code: v.code };
  if (v.domainType) body.domain_type = v.domainType;
  if (v.roleAccount) body.role_account = true;
  if (v.corrections?.length) body.email_corrections = v.corrections;
  if (v.engagementScore !== undefined && (status === 'safetosend' || status === 'valid' || status === 'catchall')) {
    body.engagement_score = { score: v.engagementScore };
  }
  return { safe_to_send: body };
}

/** The legacy variant's code (lists' too): a disposable domain is invalid 505 rather than trap 525. */
export function legacyCode(code: StatusCode, domainType: DomainType | undefined): StatusCode {
  return code === CODE.trap && domainType === 'disposable' ? CODE.domainRejected : code;
}

export function renderEmailValidation(v: Verdict): { email_validation: EmailValidationBody } {
  const code = legacyCode(v.code, v.domainType);
  const body: EmailValidationBody = { address: v.address, status: statusesFor(code)[1], status_code: code };
  if (v.domainType) body.domain_type = v.domainType;
  if (v.roleAccount) body.role_account = true;
  if (v.corrections?.length) body.email_corrections = v.corrections;
  return { email_validation: body };
}
