import { describe, expect, it } from 'vitest';
import { renderEmailValidation, renderSafeToSend, statusesFor } from './render.js';

describe('statusesFor', () => {
  it.each([
    [5, 'unknown', 'unknown'],
    [10, 'valid', 'unknown'],
    [20, 'valid', 'unknown'],
    [45, 'catchall', 'unverifiable'],
    [50, 'safetosend', 'valid'],
    [55, 'valid', 'valid'],
    [100, 'invalid', 'invalid'],
    [120, 'invalid', 'invalid'],
    [215, 'invalid', 'invalid'],
    [255, 'invalid', 'invalid'],
    [310, 'invalid', 'invalid'],
    [520, 'invalid', 'invalid'],
    [525, 'trap', 'risky'],
    [530, 'trap', 'risky'],
    [535, 'trap', 'risky'],
    [999, 'unknown', 'unknown'],
  ])('code %i is %s / %s', (code, current, legacy) => {
    expect(statusesFor(code)).toEqual([current, legacy]);
  });

  it('renders codes the tables do not list by range', () => {
    expect(statusesFor(135)).toEqual(['invalid', 'invalid']);
    expect(statusesFor(700)).toEqual(['unknown', 'unknown']);
  });
});

describe('renderers', () => {
  it('writes only the fields that apply', () => {
    expect(renderSafeToSend({ address: 'a@b.com', code: 10, roleAccount: false })).toEqual({
      safe_to_send: { address: 'a@b.com', status: 'valid', status_code: 10 },
    });
    expect(renderEmailValidation({ address: 'info@b.com', code: 10, roleAccount: true })).toEqual({
      email_validation: { address: 'info@b.com', status: 'unknown', status_code: 10, role_account: true },
    });
  });

  it('shows an engagement score only for deliverable statuses and never in the legacy variant', () => {
    expect(
      renderSafeToSend({ address: 'a@b.com', code: 50, roleAccount: false, engagementScore: 7 }).safe_to_send.engagement_score,
    ).toEqual({ score: 7 });
    expect(
      renderSafeToSend({ address: 'a@b.com', code: 525, roleAccount: false, engagementScore: 7 }).safe_to_send.engagement_score,
    ).toBeUndefined();
    expect(
      renderEmailValidation({ address: 'a@b.com', code: 50, roleAccount: false, engagementScore: 7 }).email_validation,
    ).not.toHaveProperty('engagement_score');
  });

  it('reports a disposable domain as trap 525, or invalid 505 in the legacy variant', () => {
    const v = { address: 'x@mailinator.com', code: 525 as const, domainType: 'disposable' as const, roleAccount: false };
    expect(renderSafeToSend(v).safe_to_send).toMatchObject({ status: 'trap', status_code: 525, domain_type: 'disposable' });
    expect(renderEmailValidation(v).email_validation).toMatchObject({ status: 'invalid', status_code: 505, domain_type: 'disposable' });
  });
});
