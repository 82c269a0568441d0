import { describe, expect, it } from 'vitest';
import { institutionType } from './suffix-rules.js';

describe('institutionType', () => {
  it.each([
    // edu: the gTLD, ac.xx / edu.xx, schools and US K-12 / community colleges
    ['stanford.edu', 'edu'],
    ['cs.stanford.edu', 'edu'],
    ['ox.ac.uk', 'edu'],
    ['ethz.ac.at', 'edu'],
    ['uct.ac.za', 'edu'],
    ['unimelb.edu.au', 'edu'],
    ['det.nsw.edu.au', 'edu'],
    ['usp.edu.br', 'edu'],
    ['kyoto-u.ac.jp', 'edu'],
    ['school.ed.jp', 'edu'],
    ['school.es.kr', 'edu'],
    ['stpauls.lambeth.sch.uk', 'edu'],
    ['school.school.nz', 'edu'],
    ['district.k12.tx.us', 'edu'],
    ['academy.pvt.k12.ma.us', 'edu'],
    ['pvt.k12.ma.us', undefined], // a bare suffix
    ['college.cc.ca.us', 'edu'],
    ['college.tec.ca.us', 'edu'],
    // gov: the gTLDs, gov.xx and its equivalents, US RFC 1480 names, listed portals
    ['nasa.gov', 'gov'],
    ['army.mil', 'gov'],
    ['who.int', 'gov'],
    ['hmrc.gov.uk', 'gov'],
    ['met.police.uk', 'gov'],
    ['nhs.uk', undefined], // a bare public suffix is nobody's domain
    ['england.nhs.uk', 'gov'],
    ['mod.uk', 'gov'],
    ['nhs.net', 'gov'],
    ['gov.scot', 'gov'],
    ['europa.eu', 'gov'],
    ['ec.europa.eu', 'gov'],
    ['canada.ca', 'gov'],
    ['tbs-sct.gc.ca', 'gov'],
    ['gov.bc.ca', 'gov'],
    ['mrn.gouv.qc.ca', 'gov'],
    ['interieur.gouv.fr', 'gov'],
    ['sat.gob.mx', 'gov'],
    ['presidencia.gub.uy', 'gov'],
    ['bmf.gv.at', 'gov'],
    ['ird.govt.nz', 'gov'],
    ['mofa.go.jp', 'gov'],
    ['city.yokohama.lg.jp', 'gov'],
    ['mail.nic.in', 'gov'],
    ['eb.mil.br', 'gov'],
    ['x.ac.gov.br', 'gov'], // Acre's government, not an academy: nearest the TLD decides
    ['usda.fed.us', 'gov'],
    ['dmv.state.ca.us', 'gov'],
    ['ci.boston.ma.us', 'gov'],
    ['www.co.fairfax.va.us', 'gov'],
    ['bund.de', 'gov'],
    ['admin.ch', 'gov'],
    // org
    ['redcross.org', 'org'],
    ['oxfam.org.uk', 'org'],
    ['wwf.org.au', 'org'],
    ['greenpeace.ngo', 'org'],
    ['foo.ong', 'org'],
    ['foo.ngo.ph', 'org'],
    ['croix-rouge.asso.fr', 'org'],
    ['jica.or.jp', 'org'],
    // none
    ['google.com', undefined],
    ['bbc.co.uk', undefined],
    ['x.go.it', undefined], // Gorizia
    ['x.or.it', undefined], // Oristano
    ['portland.or.us', undefined], // Oregon
    ['x.lib.ca.us', undefined],
    ['cc.na', undefined],
    ['x.cc.na', undefined], // Namibian close corporations
    ['boston.ma.us', undefined],
    ['state.kids.us', undefined],
    ['gov.example.com', undefined], // a subdomain anyone can make
    ['edu.example.com', undefined],
    ['x.edu.pl', undefined], // NASK functional domains are open to anyone
    ['x.mil.pl', undefined],
    ['x.gov.pl', 'gov'],
    ['stanford.edux', undefined],
    ['edu', undefined],
    ['ac.uk', undefined],
    ['', undefined],
    ['192.168.0.1', undefined],
  ] as const)('%s → %s', (domain, expected) => {
    expect(institutionType(domain)).toBe(expected);
  });
});
