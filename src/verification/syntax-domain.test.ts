import { describe, expect, it } from 'vitest';
import { checkDomain, domainCharFault } from './syntax-domain.js';

describe('domainCharFault', () => {
  it('allows LDH, dots and non-ASCII; leaves literals to checkDomain', () => {
    expect(domainCharFault('a-b.c0m')).toBeNull();
    expect(domainCharFault('bücher.de')).toBeNull();
    expect(domainCharFault('[1.2.3.4]')).toBeNull();
  });

  it.each(['a_b.com', 'a!.com', 'a/b.com', 'a%b.com', 'a;b.com'])('%s has an invalid character', (d) => {
    expect(domainCharFault(d)).toMatchObject({ code: 110 });
  });
});

describe('checkDomain', () => {
  it('lower-cases and gives the A-label form', () => {
    expect(checkDomain('Example.COM')).toEqual({ ok: true, domain: 'example.com', ascii: 'example.com' });
    expect(checkDomain('Bücher.de')).toEqual({ ok: true, domain: 'bücher.de', ascii: 'xn--bcher-kva.de' });
    expect(checkDomain('XN--BCHER-KVA.de')).toEqual({ ok: true, domain: 'xn--bcher-kva.de', ascii: 'xn--bcher-kva.de' });
    expect(checkDomain('ΑΘΗΝΑ.gr')).toMatchObject({ ok: true, domain: 'αθηνα.gr', ascii: 'xn--mxaard0a.gr' });
  });

  it.each([
    ['[1.2.3.4]', 'domain-literal'],
    ['[IPv6:::1]', 'domain-literal'],
    ['[1.2.3.4', 'domain-literal-malformed'],
    ['[a]b]', 'domain-literal-malformed'],
    ['.a.com', 'domain-leading-dot'],
    ['a..com', 'domain-consecutive-dots'],
    ['localhost', 'dotless-domain'],
    ['-a.com', 'label-hyphen'],
    ['a-.com', 'label-hyphen'],
    ['ab--c.com', 'reserved-label'],
    ['xn--0.com', 'idna-invalid'],
    ['xn--a.com', 'idna-invalid'],
    ['ｇｍａｉｌ.com', 'idna-not-canonical'],
    ['a.b\u3002com', 'idna-not-canonical'], // ideographic full stop, a dot only to UTS #46
    ['\u037e.com', 'idna-not-canonical'],
    ['\u2488x.com', 'idna-invalid'],
  ])('%s → %s', (domain, rule) => {
    expect(checkDomain(domain)).toMatchObject({ ok: false, fault: { rule } });
  });

  it('measures IDN lengths on the A-label form', () => {
    expect(checkDomain(`${'ü'.repeat(40)}.de`)).toMatchObject({ ok: true });
    expect(checkDomain(`${'中'.repeat(60)}.com`)).toMatchObject({ ok: false, fault: { code: 130, rule: 'label-too-long' } });
  });
});
