import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { profileFor, profileForHost } from './match-profile.js';
import { DEFAULT_PROFILE } from './profiles.js';

const id = (domain: string, mx: string[] = []) => profileFor(domain, mx).id;

describe('profileFor', () => {
  it('Yahoo, AOL and Yahoo-hosted domains accept every recipient at RCPT: nothing to probe', () => {
    for (const domain of ['yahoo.com', 'yahoo.co.uk', 'yahoo.com.br', 'ymail.com', 'rocketmail.com', 'aol.com', 'aim.com']) {
      expect([domain, profileFor(domain, []).rcpt]).toEqual([domain, 'none']);
    }
    expect(profileFor('verizon.net', ['mx-aol.mail.gm0.yahoodns.net']).rcpt).toBe('none');
    expect(id('small-shop.com', ['mta5.am0.yahoodns.net', 'mta6.am0.yahoodns.net'])).toBe('yahoo');
    expect(id('small-shop.com', ['mx-biz.mail.am0.yahoodns.net'])).toBe('yahoo');
  });

  it("yahoo. names that are not Yahoo's own are not Yahoo", () => {
    expect(id('yahoo.example.com')).toBe('default');
    expect(id('mail.yahoo.com')).toBe('default');
    expect(id('notyahoo.com')).toBe('default');
  });

  it('mailbox providers, by address domain or by MX', () => {
    expect(id('gmail.com')).toBe('google');
    expect(id('acme.com', ['aspmx.l.google.com', 'alt1.aspmx.l.google.com'])).toBe('google');
    expect(id('acme.com', ['smtp.google.com'])).toBe('google');
    expect(id('hotmail.com')).toBe('outlook-com');
    expect(id('outlook.com', ['outlook-com.olc.protection.outlook.com'])).toBe('outlook-com');
    expect(id('acme.com', ['acme-com.mail.protection.outlook.com'])).toBe('microsoft-365');
    expect(id('acme.com', ['acme-com.o-v1.mx.microsoft'])).toBe('microsoft-365');
    expect(id('icloud.com')).toBe('icloud');
    expect(id('acme.com', ['mx01.mail.icloud.com'])).toBe('icloud');
    for (const domain of ['gmail.com', 'hotmail.com', 'icloud.com']) expect(profileFor(domain, []).rcpt).toBe('mailbox');
  });

  it('security gateways: their refusals are proof, their acceptance is not', () => {
    for (const [mx, expected] of [
      ['mx0a-001b2d01.pphosted.com', 'proofpoint'],
      ['mx1-us1.ppe-hosted.com', 'proofpoint'],
      ['us-smtp-inbound-1.mimecast.com', 'mimecast'],
      ['d123456a.ess.barracudanetworks.com', 'barracuda'],
      ['cluster1.us.messagelabs.com', 'broadcom'],
      ['mx1.hc1234-56.iphmx.com', 'cisco'],
    ] as const) {
      expect(profileFor('acme.com', [mx])).toMatchObject({ id: expected, kind: 'gateway', rcpt: 'refusals-only' });
    }
  });

  it('the address domain wins over MX; otherwise the first MX in preference order that is known', () => {
    expect(id('gmail.com', ['mta5.am0.yahoodns.net'])).toBe('google');
    expect(id('acme.com', ['mx.acme.com', 'mx0a.pphosted.com', 'aspmx.l.google.com'])).toBe('proofpoint');
  });

  it('the default profile otherwise, and suffixes match on label boundaries', () => {
    expect(profileFor('acme.com', ['mx.acme.com'])).toBe(DEFAULT_PROFILE);
    expect(profileFor('acme.com', [])).toBe(DEFAULT_PROFILE);
    expect(profileFor('acme.com', ['evilyahoodns.net', 'notgoogle.com'])).toBe(DEFAULT_PROFILE);
    expect(profileForHost('google.com.evil.net')).toBe(DEFAULT_PROFILE);
  });

  it('case and a trailing root dot do not matter', () => {
    expect(id('Yahoo.COM.')).toBe('yahoo');
    expect(id('acme.com', ['MTA5.AM0.YAHOODNS.NET.'])).toBe('yahoo');
    expect(profileForHost('ASPMX.L.GOOGLE.COM.').id).toBe('google');
  });

  it('never throws, and always answers a profile', () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.oneof(fc.string(), fc.domain())), (domain, mx) => {
        expect(['mailbox', 'refusals-only', 'none']).toContain(profileFor(domain, mx).rcpt);
      }),
    );
  });
});
