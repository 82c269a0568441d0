import { describe, expect, it } from 'vitest';
import { isIcannTld, RESERVED_TLDS, tldFault } from './tld.js';

describe('tldFault', () => {
  it.each(['example.com', 'x.co.uk', 'a.museum', 'b.io', 'c.xn--p1ai', 'd.xn--fiqs8s', 'e.ck'])('%s has a delegated TLD', (d) => {
    expect(tldFault(d)).toBeNull();
  });

  it.each([
    ['x.123', 'tld-numeric'],
    ['1.2.3.4', 'tld-numeric'],
    ['x.test', 'tld-reserved'],
    ['x.example', 'tld-reserved'],
    ['x.invalid', 'tld-reserved'],
    ['x.localhost', 'tld-reserved'],
    ['x.local', 'tld-reserved'],
    ['x.onion', 'tld-reserved'],
    ['x.arpa', 'tld-reserved'],
    ['x.tld', 'tld-unknown'],
    ['x.co-uk', 'tld-unknown'],
    ['x.xn--jxalpdlp', 'tld-unknown'], // the 2007 IDN test TLD, removed from the root in 2013
    ['x.corp', 'tld-unknown'],
  ])('%s → %s', (domain, rule) => {
    expect(tldFault(domain)).toMatchObject({ code: 200, rule });
  });

  it('answers from the ICANN section only, even for TLDs the public suffix list carries', () => {
    expect(isIcannTld('com')).toBe(true);
    expect(isIcannTld('onion')).toBe(true); // hence the reserved list
    expect(RESERVED_TLDS.has('onion')).toBe(true);
    expect(isIcannTld('zz')).toBe(false);
  });

  it('knows .za, which the public suffix list carries only as co.za, ac.za and so on', () => {
    expect(isIcannTld('za')).toBe(true);
    expect(tldFault('mweb.co.za')).toBeNull();
    expect(tldFault('example.za')).toBeNull();
  });
});
