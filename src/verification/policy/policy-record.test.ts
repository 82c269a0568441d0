import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { policyEntryFrom } from './policy-record.js';

describe('policyEntryFrom', () => {
  it('stores addresses and domains in lookup form', () => {
    expect(policyEntryFrom('trap', { email: ' Trap@Example.COM ' })).toEqual({ kind: 'trap', value: 'trap@example.com' });
    expect(policyEntryFrom('optout', { domain: 'Bücher.de.' })).toEqual({ kind: 'optout', value: 'xn--bcher-kva.de' });
    expect(policyEntryFrom('bouncer', { email: 'x@bücher.de' })).toEqual({ kind: 'bouncer', value: 'x@xn--bcher-kva.de' });
  });

  it.each([
    [{}, 'no email or domain'],
    [{ email: '', domain: '  ' }, 'no email or domain'],
    [{ email: 'a@b.com', domain: 'b.com' }, 'give either email or domain, not both'],
    [{ email: 'john..doe@gmail.com' }, 'email is not a valid address'],
    [{ domain: 'localhost' }, 'domain is not a domain name'],
    [{ domain: 'exa mple.com' }, 'domain is not a domain name'],
    [{ email: 42 }, 'no email or domain'],
  ])('reports %j as a problem', (record, problem) => {
    const result = policyEntryFrom('trap', record as Record<string, unknown>);
    expect('problem' in result && result.problem).toContain(problem);
  });

  it('never throws on hostile records', () => {
    fc.assert(fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (record) => void policyEntryFrom('trap', record)));
  });
});
