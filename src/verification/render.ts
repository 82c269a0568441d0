/**
 * Status per code for both response variants (api-reference "Status codes"). Codes the legacy
 * table marks "not listed" (55, 255, 535) take the legacy value of their nearest neighbour, and
 * unknown future codes fall back by range, so a verdict always renders.
 */
import type { Verdict } from './verdict.js';

export type VerificationStatus = 'safetosend' | 'valid' | 'invalid' | 'trap' | 'catchall' | 'unknown';
export type LegacyStatus = 'valid' | 'invalid' | 'risky' | 'unverifiable' | 'unknown';

const TABLE: Record<number, [VerificationStatus, LegacyStatus]> = {
  5: ['unknown', 'unknown'],
  10: ['valid', 'unknown'],
  20: ['valid', 'unknown'],
  45: ['catchall', 'unverifiable'],
  50: ['safetosend', 'valid'],
  55: ['valid', 'valid'],
  255: ['invalid', 'invalid'],
  505: ['invalid', 'invalid'],
  525: ['trap', 'risky'],
  530: ['trap', 'risky'],
  535: ['trap', 'risky'],
  999: ['unknown', 'unknown'],
};

export function statusesFor(code: number): [VerificationStatus, LegacyStatus] {
  const row = TABLE[code];
  if (row) return row;
  if (code >= 100 && code < 525) return ['invalid', 'invalid'];
  return ['unknown', 'unknown'];
}

export interface SafeToSendBody {
  address: string;
  status: VerificationStatus;
  status_code: number;
  domain_type?: string;
  role_account?: true;
  email_corrections?: string[];
  engagement_score?: { score: number };
}

export interface EmailValidationBody {
  address: string;
  status: LegacyStatus;
  status_code: number;
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

/** Legacy variant: disposable domains are invalid 505 rather than trap 525. */
export function renderEmailValidation(v: Verdict): { email_validation: EmailValidationBody } {
  const code = v.code === 525 && v.domainType === 'disposable' ? 505 : v.code;
  const body: EmailValidationBody = { address: v.address, status: statusesFor(code)[1], status_code: code };
  if (v.domainType) body.domain_type = v.domainType;
  if (v.roleAccount) body.role_account = true;
  if (v.corrections?.length) body.email_corrections = v.corrections;
  return { email_validation: body };
}
