import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addCounts,
  appendReport,
  countAppend,
  countIntelligence,
  countValidation,
  intelligenceReport,
  validationReport,
} from './reporting.js';
import { invalidCategory, validationOutcome, type ValidationOutcome } from './validation-outcome.js';

describe('validationOutcome', () => {
  it('uses the legacy taxonomy', () => {
    expect(validationOutcome({ address: 'a@b.com', code: 50, roleAccount: false, domainType: 'biz' })).toEqual({
      status: 'valid',
      code: 50,
      roleAccount: false,
      domainType: 'biz',
      validEmail: 'a@b.com',
    });
    expect(validationOutcome({ address: 'a@b.com', code: 20, roleAccount: true })).toEqual({
      status: 'unknown',
      code: 20,
      roleAccount: true,
    });
    expect(validationOutcome({ address: 'a@b.com', code: 45, roleAccount: false })).toMatchObject({ status: 'unverifiable' });
    expect(validationOutcome({ address: 'a@b.com', code: 525, roleAccount: false })).toMatchObject({ status: 'risky', code: 525 });
  });

  it('makes a disposable domain invalid 505', () => {
    expect(validationOutcome({ address: 'a@mailinator.com', code: 525, domainType: 'disposable', roleAccount: false })).toEqual({
      status: 'invalid',
      code: 505,
      domainType: 'disposable',
      roleAccount: false,
    });
  });

  it('marks a corrected address, keeping the original code', () => {
    expect(validationOutcome({ address: 'a@gmial.com', code: 310, roleAccount: false, corrections: ['a@gmail.com'] })).toEqual({
      status: 'corrected',
      code: 310,
      roleAccount: false,
      validEmail: 'a@gmail.com',
    });
  });

  it.each([
    [100, 'Syntax Errors'],
    [135, 'Syntax Errors'],
    [205, 'Syntax Errors'],
    [215, 'Syntax Errors'],
    [255, 'Suppressions'],
    [310, 'Domain Errors'],
    [315, 'Domain Errors'],
    [325, 'Domain Errors'],
    [420, 'Domain Errors'],
    [505, 'Domain Errors'],
    [400, 'Mailbox Errors'],
    [410, 'Mailbox Errors'],
    [500, 'Mailbox Errors'],
    [510, 'Mailbox Errors'],
    [520, 'Mailbox Errors'],
    [50, undefined],
    [525, undefined],
    [999, undefined],
  ])('code %i is in %s', (code, category) => expect(invalidCategory(code)).toBe(category));
});

const outcomes: ValidationOutcome[] = [
  { status: 'valid', code: 50, domainType: 'freeisp', roleAccount: false },
  { status: 'valid', code: 50, domainType: 'biz', roleAccount: true },
  { status: 'invalid', code: 150, roleAccount: false },
  { status: 'invalid', code: 505, domainType: 'disposable', roleAccount: false },
  { status: 'invalid', code: 255, domainType: 'org', roleAccount: false },
  { status: 'corrected', code: 310, roleAccount: false },
  { status: 'risky', code: 525, domainType: 'freeisp', roleAccount: false },
  { status: 'unverifiable', code: 45, domainType: 'biz', roleAccount: false },
  { status: 'unknown', code: 5, roleAccount: false },
];

describe('validationReport', () => {
  it('produces the reference shape exactly', () => {
    expect(validationReport(countValidation(outcomes))).toEqual({
      statuses: { Corrected: 1, Unknown: 1, Valid: 2, Risky: 1, Unverifiable: 1, Invalid: 3 },
      invalid_categories: { 'Syntax Errors': 1, 'Domain Errors': 1, 'Mailbox Errors': 0, Suppressions: 1 },
      domain_type: {
        Disposable: 1,
        'Free ISP': 2,
        'Paid ISP': 0,
        Wireless: 0,
        Education: 0,
        Government: 0,
        Business: 2,
        'Non-profit': 1,
        Parked: 0,
        Privacy: 0,
        Unknown: 3,
      },
      role_accounts: 1,
      status_codes: { '5': 1, '45': 1, '50': 2, '150': 1, '255': 1, '310': 1, '505': 1, '525': 1 },
      trap_hits: { 'Trap Hits': 1 },
    });
  });

  it('orders statuses as the reference lists them and leaves out trap hits when none', () => {
    const report = validationReport(countValidation([]));
    expect(Object.keys(report.statuses)).toEqual(['Corrected', 'Unknown', 'Valid', 'Risky', 'Unverifiable', 'Invalid']);
    expect(report).not.toHaveProperty('trap_hits');
    expect(JSON.stringify(report)).not.toContain('undefined');
  });

  it('counts chunk by chunk exactly as all at once', () => {
    const arb = fc.record({
      status: fc.constantFrom('valid', 'invalid', 'risky', 'unverifiable', 'unknown', 'corrected' as const),
      code: fc.constantFrom(5, 10, 20, 45, 50, 55, 100, 150, 255, 310, 400, 420, 505, 525, 530, 999),
      domainType: fc.option(
        fc.constantFrom('biz', 'disposable', 'edu', 'freeisp', 'gov', 'org', 'paidisp', 'parked', 'privacy', 'wireless' as const),
        { nil: undefined },
      ),
      roleAccount: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(arb, { maxLength: 60 }), fc.array(fc.nat(60)), (all, cuts) => {
        const bounds = [0, ...cuts.map((c) => Math.min(c, all.length)).sort((a, b) => a - b), all.length];
        const chunks = bounds.slice(1).map((end, i) => countValidation(all.slice(bounds[i], end)));
        expect(validationReport(addCounts(...chunks))).toEqual(validationReport(countValidation(all)));
        const total = validationReport(countValidation(all));
        expect(Object.values(total.statuses).reduce((a, b) => a + b, 0)).toBe(all.length);
        expect(Object.values(total.domain_type).reduce((a, b) => a + b, 0)).toBe(all.length);
      }),
    );
  });

  it('says how many 520 and 525 hits came from ingested outcomes, beside the hits counted as ever', () => {
    const hit = (code: 520 | 525, fromOutcomes: boolean): ValidationOutcome => ({
      status: code === 520 ? 'invalid' : 'risky',
      code,
      roleAccount: false,
      ...(fromOutcomes ? { fromOutcomes: true as const } : {}),
    });
    // Outcome and imported hits of one code group apart however they interleave.
    const report = validationReport(countValidation([hit(520, true), hit(520, false), hit(520, true), hit(525, true), hit(525, false)]));
    expect(report.status_codes).toEqual({ '520': 3, '525': 2 });
    expect(report.trap_hits).toEqual({ 'Trap Hits': 2 });
    expect(report.outcome_hits).toEqual({ 'Outcome Hits': 3, 'Known Bouncers': 2, 'Known Complainers': 1 });
    expect(validationReport(countValidation([hit(520, false), hit(525, false)]))).not.toHaveProperty('outcome_hits');
  });

  it('survives a JSON round trip (chunk counts are stored)', () => {
    const counts = countValidation(outcomes);
    expect(validationReport(JSON.parse(JSON.stringify(counts)))).toEqual(validationReport(counts));
  });
});

describe('append and intelligence reports', () => {
  it('counts match types', () => {
    expect(appendReport(countAppend(['Individual', undefined, 'Household', 'Individual']))).toEqual({
      email_match_type: { 'Individual match': 2, 'Household match': 1 },
    });
    expect(appendReport({})).toEqual({ email_match_type: { 'Individual match': 0, 'Household match': 0 } });
  });

  it('counts records per matched field, in the configured order', () => {
    const counts = addCounts(
      countIntelligence([
        ['age', 'gender'],
        ['gender', 'gender'],
      ]),
      countIntelligence([[], ['zip', 'age']]),
    );
    expect(intelligenceReport(counts, ['gender', 'age', 'household_income'])).toEqual({
      gender: { 'Total Count': 2 },
      age: { 'Total Count': 2 },
      zip: { 'Total Count': 1 },
    });
    expect(Object.keys(intelligenceReport(counts, ['gender', 'age']))).toEqual(['gender', 'age', 'zip']);
  });
});
