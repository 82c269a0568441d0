import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowedTargets, isPublicAddress } from './target-policy.js';

describe('isPublicAddress', () => {
  it.each(['8.8.8.8', '142.250.1.27', '2607:f8b0:4004:c1b::1a', '1.1.1.1'])('allows the public address %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each([
    '127.0.0.1', '127.0.0.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1',
    '0.0.0.0', '224.0.0.1', '255.255.255.255', '192.0.2.5', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1',
    'not-an-ip', '', '1.2.3',
  ])('refuses %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
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
