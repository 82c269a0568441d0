import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { profileFor } from './provider-profiles.js';

describe('profileFor', () => {
  it('Yahoo and AOL accept every recipient at RCPT, by domain', () => {
    for (const domain of ['yahoo.com', 'yahoo.co.uk', 'yahoo.com.br', 'yahoo.fr', 'ymail.com', 'rocketmail.com', 'aol.com', 'aim.com']) {
      expect([domain, profileFor(domain, [])]).toEqual([domain, { name: 'Yahoo', acceptsAllAtRcpt: true }]);
    }
  });

  it('Yahoo-hosted domains accept every recipient, by MX host', () => {
    expect(profileFor('verizon.net', ['mx-aol.mail.gm0.yahoodns.net'])?.acceptsAllAtRcpt).toBe(true);
    expect(profileFor('small-shop.com', ['mta5.am0.yahoodns.net', 'mta6.am0.yahoodns.net'])?.acceptsAllAtRcpt).toBe(true);
    expect(profileFor('small-shop.com', ['mx-biz.mail.am0.yahoodns.net'])?.name).toBe('Yahoo');
  });

  it('yahoo only as a registrable name', () => {
    expect(profileFor('yahoo.example.com', [])).toBeUndefined();
    expect(profileFor('mail.yahoo.com', [])).toBeUndefined();
    expect(profileFor('notyahoo.com', [])).toBeUndefined();
  });

  it('mailbox providers that reject unknown users are known but not accept-all', () => {
    expect(profileFor('gmail.com', [])).toEqual({ name: 'Google', acceptsAllAtRcpt: false });
    expect(profileFor('acme.com', ['aspmx.l.google.com', 'alt1.aspmx.l.google.com'])).toEqual({ name: 'Google', acceptsAllAtRcpt: false });
    expect(profileFor('acme.com', ['smtp.google.com'])?.name).toBe('Google');
    expect(profileFor('hotmail.com', [])).toEqual({ name: 'Outlook.com', acceptsAllAtRcpt: false });
    expect(profileFor('acme.com', ['acme-com.mail.protection.outlook.com'])).toEqual({ name: 'Microsoft 365', acceptsAllAtRcpt: false });
    expect(profileFor('acme.com', ['acme-com.o-v1.mx.microsoft'])?.name).toBe('Microsoft 365');
    expect(profileFor('outlook.com', ['outlook-com.olc.protection.outlook.com'])?.name).toBe('Outlook.com');
    expect(profileFor('icloud.com', [])?.acceptsAllAtRcpt).toBe(false);
    expect(profileFor('acme.com', ['mx01.mail.icloud.com'])?.name).toBe('iCloud');
  });

  it('security gateways are named but not assumed accept-all (the catch-all probe decides)', () => {
    for (const [mx, name] of [
      ['mx0a-001b2d01.pphosted.com', 'Proofpoint'],
      ['mx1-us1.ppe-hosted.com', 'Proofpoint'],
      ['us-smtp-inbound-1.mimecast.com', 'Mimecast'],
      ['d123456a.ess.barracudanetworks.com', 'Barracuda'],
      ['cluster1.us.messagelabs.com', 'Broadcom Email Security.cloud'],
      ['mx1.hc1234-56.iphmx.com', 'Cisco Secure Email'],
    ] as const) {
      expect(profileFor('acme.com', [mx])).toEqual({ name, acceptsAllAtRcpt: false });
    }
  });

  it('the address domain wins over MX; otherwise the first MX in preference order that is known', () => {
    expect(profileFor('gmail.com', ['mta5.am0.yahoodns.net'])?.name).toBe('Google');
    expect(profileFor('acme.com', ['mx.acme.com', 'mx0a.pphosted.com', 'aspmx.l.google.com'])?.name).toBe('Proofpoint');
  });

  it('unknown otherwise, and suffixes match on label boundaries', () => {
    expect(profileFor('acme.com', ['mx.acme.com'])).toBeUndefined();
    expect(profileFor('acme.com', [])).toBeUndefined();
    expect(profileFor('acme.com', ['evilyahoodns.net', 'notgoogle.com'])).toBeUndefined();
  });

  it('case and a trailing root dot do not matter', () => {
    expect(profileFor('Yahoo.COM.', [])?.name).toBe('Yahoo');
    expect(profileFor('acme.com', ['MTA5.AM0.YAHOODNS.NET.'])?.name).toBe('Yahoo');
  });

  it('never throws', () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.oneof(fc.string(), fc.domain())), (domain, mx) => {
        const profile = profileFor(domain, mx);
        expect(profile === undefined || typeof profile.acceptsAllAtRcpt === 'boolean').toBe(true);
      }),
    );
  });
});
