import fc from 'fast-check';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { DOMAIN_TYPES } from '../verdict.js';
import { classifyDomain, explainDomain, type DomainFacts } from './classify-domain.js';

const require = createRequire(import.meta.url);
const mailchecker = (require('mailchecker') as { blacklist(): Set<string> }).blacklist();
const freeEmailDomains = new Set(require('free-email-domains') as string[]);

function facts(domain: string, more: Partial<Omit<DomainFacts, 'domain'>> = {}): DomainFacts {
  return { domain, mxHosts: [], nsHosts: [], working: true, ...more };
}
const type = (domain: string, more?: Partial<Omit<DomainFacts, 'domain'>>) => classifyDomain(facts(domain, more));

describe('classifyDomain: each type', () => {
  it.each([
    [
      'privacy',
      [
        'privaterelay.appleid.com',
        'mozmail.com',
        'duck.com',
        'simplelogin.com',
        'slmail.me',
        'aleeas.com',
        'anonaddy.me',
        'addy.io',
        '33mail.com',
      ],
    ],
    [
      'wireless',
      [
        'vtext.com',
        'txt.att.net',
        'mms.att.net',
        'tmomail.net',
        'messaging.sprintpcs.com',
        'vzwpix.com',
        'mymetropcs.com',
        'msg.fi.google.com',
      ],
    ],
    [
      'paidisp',
      [
        'comcast.net',
        'verizon.net',
        'att.net',
        'sbcglobal.net',
        'bellsouth.net',
        'cox.net',
        'charter.net',
        'spectrum.net',
        'earthlink.net',
        'optonline.net',
        'frontier.com',
        'windstream.net',
        'centurylink.net',
        'btinternet.com',
        'sky.com',
        'orange.fr',
        't-online.de',
        'shaw.ca',
        'rogers.com',
        'bigpond.com',
      ],
    ],
    [
      'freeisp',
      [
        'gmail.com',
        'googlemail.com',
        'yahoo.com',
        'yahoo.co.uk',
        'outlook.com',
        'hotmail.fr',
        'live.com',
        'aol.com',
        'icloud.com',
        'me.com',
        'mac.com',
        'proton.me',
        'protonmail.com',
        'gmx.de',
        'mail.ru',
        'yandex.ru',
        'qq.com',
        '163.com',
      ],
    ],
    ['disposable', ['mailinator.com', 'yopmail.com', 'guerrillamail.com', '10minutemail.com', 'sharklasers.com']],
    [
      'edu',
      [
        'stanford.edu',
        'mail.stanford.edu',
        'cs.stanford.edu',
        'ox.ac.uk',
        'u-tokyo.ac.jp',
        'unimelb.edu.au',
        'tsinghua.edu.cn',
        'lausd.k12.ca.us',
        'foo.cc.ca.us',
      ],
    ],
    [
      'gov',
      [
        'nasa.gov',
        'army.mil',
        'af.mil',
        'hmrc.gov.uk',
        'tbs-sct.gc.ca',
        'interieur.gouv.fr',
        'sat.gob.mx',
        'mofa.go.jp',
        'ird.govt.nz',
        'usda.fed.us',
        'dmv.state.ca.us',
        'who.int',
      ],
    ],
    ['org', ['redcross.org', 'wikipedia.org', 'oxfam.org.uk', 'greenpeace.ngo', 'example.ong', 'acme.org.au']],
  ] as const)('%s', (expected, domains) => {
    for (const domain of domains) expect([domain, type(domain)]).toEqual([domain, expected]);
  });

  it('parked: NS or MX at a parking service', () => {
    expect(type('somename-forsale.com', { nsHosts: ['ns1.sedoparking.com', 'ns2.sedoparking.com'] })).toBe('parked');
    expect(type('somename-forsale.com', { nsHosts: ['ns1.parkingcrew.net'] })).toBe('parked');
    expect(type('somename-forsale.com', { nsHosts: ['ns1.bodis.com'] })).toBe('parked');
    expect(type('somename-forsale.com', { nsHosts: ['ns1.dsredirection.com'] })).toBe('parked');
    expect(type('somename-forsale.com', { nsHosts: ['ns1.afternic.com'] })).toBe('parked');
    expect(type('somename-forsale.com', { mxHosts: ['park-mx.above.com'] })).toBe('parked');
    expect(type('somename-forsale.com', { nsHosts: ['ns1.hugedomains.com'], working: false })).toBe('parked');
  });

  it('parked: general DNS hosting is no evidence, nor is the parking service itself', () => {
    expect(type('acme-widgets.com', { nsHosts: ['ns01.domaincontrol.com'] })).toBe('biz');
    expect(type('acme-widgets.com', { nsHosts: ['dns1.registrar-servers.com'] })).toBe('biz');
    expect(type('sedoparking.com', { nsHosts: ['ns1.sedoparking.com'] })).toBe('biz');
    expect(type('acme-widgets.com', { nsHosts: ['ns1.notsedoparking.com'] })).toBe('biz');
  });

  it('biz: any other working domain; undefined when it does not work', () => {
    expect(type('acme-widgets.com', { mxHosts: ['mx.acme-widgets.com'] })).toBe('biz');
    expect(type('acme-widgets.co.uk')).toBe('biz');
    expect(type('acme-widgets.com', { working: false })).toBeUndefined();
    expect(type('no-such-domain-x7q.example', { working: false })).toBeUndefined();
  });

  it('list matches do not need a working domain', () => {
    expect(type('gmail.com', { working: false })).toBe('freeisp');
    expect(type('nasa.gov', { working: false })).toBe('gov');
    expect(type('mailinator.com', { working: false })).toBe('disposable');
  });
});

describe('classifyDomain: precedence', () => {
  it('a disposable domain that free-email-domains also lists is disposable', () => {
    for (const domain of ['mailinator.com', 'yopmail.com', 'guerrillamail.com']) {
      expect(freeEmailDomains.has(domain) && mailchecker.has(domain)).toBe(true);
      expect(explainDomain(facts(domain))).toMatchObject({ type: 'disposable', rule: 'disposable-domain' });
    }
  });

  it('paid ISPs that free-email-domains calls free are paidisp', () => {
    for (const domain of ['comcast.net', 'att.net', 'orange.fr', 'btinternet.com']) {
      expect(freeEmailDomains.has(domain)).toBe(true);
      expect(type(domain)).toBe('paidisp');
    }
  });

  it('privacy relays that mailchecker lists as disposable are privacy', () => {
    for (const domain of ['duck.com', 'mozmail.com', 'simplelogin.com', 'addy.io', '33mail.com']) {
      expect(mailchecker.has(domain)).toBe(true);
      expect(type(domain)).toBe('privacy');
    }
  });

  it('a subdomain of a privacy relay is privacy', () => {
    expect(explainDomain(facts('jdoe.mozmail.com'))).toMatchObject({ type: 'privacy', matched: 'mozmail.com' });
    expect(type('jdoe.anonaddy.com')).toBe('privacy');
    expect(type('jdoe.addy.io')).toBe('privacy');
    expect(type('jdoe.33mail.com')).toBe('privacy');
    expect(type('notduck.com')).not.toBe('privacy');
  });

  it('a custom domain received by a relay is privacy', () => {
    expect(explainDomain(facts('jdoe-personal.com', { mxHosts: ['mx1.simplelogin.co', 'mx2.simplelogin.co'] }))).toMatchObject({
      type: 'privacy',
      rule: 'privacy-mx',
    });
    expect(type('jdoe-personal.com', { mxHosts: ['mail.anonaddy.me'] })).toBe('privacy');
  });

  it('a domain received by a disposable service is disposable, but not by mailchecker entries that are infrastructure', () => {
    expect(explainDomain(facts('rotating-x1.com', { mxHosts: ['mail.mailinator.com'] }))).toMatchObject({
      type: 'disposable',
      rule: 'disposable-mx',
    });
    // mailchecker lists these MX domains; their customers are ordinary companies.
    for (const mx of ['mx.yandex.net', 'mx1.improvmx.com', 'mx1.forwardemail.net']) {
      expect(mailchecker.has(mx.slice(mx.indexOf('.') + 1))).toBe(true);
      expect(type('acme-widgets.com', { mxHosts: [mx] })).toBe('biz');
    }
  });

  it('wireless gateways under a paid ISP are wireless; the ISP itself is paidisp', () => {
    expect(type('txt.att.net')).toBe('wireless');
    expect(type('att.net')).toBe('paidisp');
    expect(type('pcs.rogers.com')).toBe('wireless');
    expect(type('rogers.com')).toBe('paidisp');
    expect(mailchecker.has('vzwpix.com')).toBe(true);
    expect(type('vzwpix.com')).toBe('wireless');
  });

  it('paid ISP regional subdomains are paidisp', () => {
    expect(type('cfl.rr.com')).toBe('paidisp');
    expect(type('nc.rr.com')).toBe('paidisp');
  });

  it('registry-restricted edu beats a mailchecker entry; open second levels do not', () => {
    expect(mailchecker.has('nus.edu.sg')).toBe(true);
    expect(type('nus.edu.sg')).toBe('edu');
    expect(type('mail.nus.edu.sg')).toBe('edu');
    expect(mailchecker.has('email.edu.pl')).toBe(true);
    expect(type('email.edu.pl')).toBe('disposable');
  });

  it('live evidence beats the suffix: a .edu name parked or on a disposable MX', () => {
    expect(type('old-college.edu', { nsHosts: ['ns1.sedoparking.com'] })).toBe('parked');
    expect(type('fake-college.edu', { mxHosts: ['mail.mailinator.com'] })).toBe('disposable');
  });

  it('org is the weakest: a listed .org service keeps its list type', () => {
    const disposableOrg = [...mailchecker].find((d) => d.endsWith('.org') && !d.slice(0, -4).includes('.'))!;
    expect(type(disposableOrg)).toBe('disposable');
    const freeOrg = [...freeEmailDomains].find((d) => d.endsWith('.org') && !mailchecker.has(d) && !d.slice(0, -4).includes('.'))!;
    expect(type(freeOrg)).toBe('freeisp');
  });

  it('accepts a trailing root dot and upper case', () => {
    expect(type('GMail.com.')).toBe('freeisp');
    expect(type('NASA.GOV')).toBe('gov');
  });
});

describe('classifyDomain: properties', () => {
  const hostish = fc.oneof(
    fc.string(),
    fc.constantFrom('', '.', '..', 'com', 'a..b', '-x.com', 'xn--80ak6aa92e.com', '192.168.0.1', '[::1]', 'edu', 'ac.uk', 'k12.ca.us'),
    fc.domain(),
  );
  const input = fc.record({
    domain: hostish,
    mxHosts: fc.array(hostish, { maxLength: 4 }),
    nsHosts: fc.array(hostish, { maxLength: 4 }),
    working: fc.boolean(),
  });

  it('never throws, is deterministic and returns a known type', () => {
    fc.assert(
      fc.property(input, (facts) => {
        const first = classifyDomain(facts);
        expect(classifyDomain(structuredClone(facts))).toBe(first);
        expect(first === undefined || (DOMAIN_TYPES as readonly string[]).includes(first)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('a working domain always gets a type', () => {
    fc.assert(
      fc.property(input, (facts) => {
        expect(classifyDomain({ ...facts, working: true })).toBeDefined();
      }),
    );
  });

  it('working only ever adds biz', () => {
    fc.assert(
      fc.property(input, (facts) => {
        const off = classifyDomain({ ...facts, working: false });
        const on = classifyDomain({ ...facts, working: true });
        expect(off === undefined ? on : off).toBe(on);
        if (off === undefined) expect(on).toBe('biz');
      }),
    );
  });
});
