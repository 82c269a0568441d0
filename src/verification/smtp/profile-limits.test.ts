import { describe, expect, it } from 'vitest';
import { profileSessionPlace } from './profile-limits.js';

describe('profileSessionPlace', () => {
  it("puts a provider's customers' MX names that resolve to the same addresses in one place, with the profile's limits", () => {
    const a = profileSessionPlace({ host: 'contoso-com.mail.protection.outlook.com', addresses: ['52.101.0.2', '52.101.0.1'] });
    const b = profileSessionPlace({ host: 'fabrikam-com.mail.protection.outlook.com', addresses: ['52.101.0.1', '52.101.0.2'] });
    expect(a).toEqual(b);
    expect(a).toEqual({ key: 'microsoft-365@52.101.0.1,52.101.0.2', limits: { maxSessionsPerHost: 2, rcptsPerSession: 50 } });
    expect(profileSessionPlace({ host: 'other-com.mail.protection.outlook.com', addresses: ['52.101.9.9'] }).key).not.toBe(a.key);
  });

  it('keeps any other host a place of its own, by its name, with the default limits', () => {
    const one = profileSessionPlace({ host: 'MX1.Example.com', addresses: ['192.0.2.1'] });
    const two = profileSessionPlace({ host: 'mx2.example.com', addresses: ['192.0.2.1'] });
    expect(one).toEqual({ key: 'mx1.example.com', limits: { maxSessionsPerHost: 2, rcptsPerSession: 50 } });
    expect(two.key).toBe('mx2.example.com');
  });

  it("gives each profiled provider its own row's limits", () => {
    expect(profileSessionPlace({ host: 'aspmx.l.google.com', addresses: ['192.0.2.7'] }).limits).toEqual({
      maxSessionsPerHost: 3,
      rcptsPerSession: 50,
    });
    expect(profileSessionPlace({ host: 'mx01.mail.icloud.com', addresses: ['192.0.2.8'] }).limits).toEqual({
      maxSessionsPerHost: 2,
      rcptsPerSession: 25,
    });
  });
});
