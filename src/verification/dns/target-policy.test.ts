import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowedTargets, isPublicAddress } from './target-policy.js';

describe('isPublicAddress', () => {
  it.each(['8.8.8.8', '142.250.1.27', '2607:f8b0:4004:c1b::1a', '1.1.1.1'])('allows the public address %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each([
    '127.0.0.1',
    '127.0.0.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.2.5',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not-an-ip',
    '',
    '1.2.3',
  ])('refuses %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    ['IPv4-mapped in hex', '::ffff:7f00:1'],
    ['IPv4-mapped in full form', '0:0:0:0:0:ffff:7f00:1'],
    ['IPv4-mapped, private, in hex', '::ffff:a00:1'],
    ['IPv4-compatible (deprecated)', '::7f00:1'],
    ['IPv4-compatible, dotted', '::127.0.0.1'],
    ['6to4', '2002:7f00:1::1'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['NAT64 well-known prefix', '64:ff9b::7f00:1'],
    ['IPv4-translated (SIIT)', '::ffff:0:7f00:1'],
    ['IPv4-translated, dotted', '::ffff:0:10.0.0.1'],
    ['IPv4-translated, public host', '::ffff:0:808:808'],
    ['NAT64 local-use prefix', '64:ff9b:1::a00:1'],
    ['site-local (deprecated)', 'fec0::1'],
  ])('refuses an IPv6 transition address: %s (%s)', (_what, ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it('reads a hex IPv4-mapped address as the IPv4 host it reaches', () => {
    expect(isPublicAddress('::ffff:808:808')).toBe(true);
    expect(isPublicAddress('::ffff:8.8.8.8')).toBe(true);
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
        const hex = `::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
        expect(isPublicAddress(hex)).toBe(isPublicAddress(v4));
      }),
    );
  });

  it('lets private targets through only when allowed', () => {
    expect(allowedTargets(['127.0.0.10', '8.8.8.8', 'junk'], false)).toEqual(['8.8.8.8']);
    expect(allowedTargets(['127.0.0.10', '8.8.8.8', 'junk'], true)).toEqual(['127.0.0.10', '8.8.8.8']);
  });

  it('never throws', () => {
    fc.assert(fc.property(fc.string(), (s) => typeof isPublicAddress(s) === 'boolean'));
    fc.assert(fc.property(fc.ipV4(), (ip) => typeof isPublicAddress(ip) === 'boolean'));
    fc.assert(fc.property(fc.ipV6(), (ip) => typeof isPublicAddress(ip) === 'boolean'));
  });
});
