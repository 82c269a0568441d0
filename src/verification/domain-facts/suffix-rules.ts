// Education, government and non-profit domains, recognised by the registry that issued them
// rather than by a list of names. The public suffix (ICANN section of the Public Suffix List, as
// shipped by tldts) says which registry that is: `stanford.edu` sits under `edu`, `ox.ac.uk`
// under `ac.uk`, `foo.k12.ca.us` under `k12.ca.us`.
//
// Strength of the evidence differs by type:
// - edu and gov suffixes are restricted: a registry checks eligibility (EDUCAUSE for .edu, the
//   US GSA for .gov, national registries for ac.xx / gov.xx). Exceptions where a country opens
//   such a second level to anyone are listed in OPEN_SECOND_LEVELS.
// - org is a heuristic: .org, .ngo/.ong and org.xx suggest a non-profit, but .org has been open
//   to anyone since 1996 (companies and individuals use it) and many non-profits use .com. The
//   type is a hint, which is why it ranks below every list in classify-domain.ts.

import { parse } from 'tldts';

export type InstitutionType = 'edu' | 'gov' | 'org';

/** Whole-TLD types. `int` is reserved for treaty-based intergovernmental organisations. */
const TLD_TYPES: ReadonlyMap<string, InstitutionType> = new Map([
  ['edu', 'edu'],
  ['gov', 'gov'],
  ['mil', 'gov'],
  ['int', 'gov'],
  ['org', 'org'],
  ['ngo', 'org'],
  ['ong', 'org'],
]);

/** Labels that mean the same category under any country code (edu.au, ac.uk, gob.mx, org.br). */
const LABEL_TYPES: ReadonlyMap<string, InstitutionType> = new Map([
  ['edu', 'edu'],
  ['ac', 'edu'],
  ['sch', 'edu'], // sch.uk (per-LEA schools), sch.id, sch.ng, sch.sa, …
  ['school', 'edu'], // school.nz, school.za, school.na
  ['k12', 'edu'], // k12.<state>.us, k12.tr, k12.il, k12.ec, k12.vi
  ['gov', 'gov'],
  ['govt', 'gov'], // govt.nz
  ['gouv', 'gov'], // gouv.fr, gouv.ci, gouv.sn, …
  ['gob', 'gov'], // Spanish-speaking countries
  ['gub', 'gov'], // gub.uy
  ['gv', 'gov'], // gv.at, gv.ao
  ['mil', 'gov'], // armed forces are government
  ['org', 'org'],
  ['ngo', 'org'], // ngo.ph, ngo.za, ngo.lk
  ['asso', 'org'], // asso.fr: associations (loi 1901), and the same in other French-speaking zones
]);

/**
 * Suffixes whose label is ambiguous elsewhere, so they are listed whole: `go` is government in
 * go.jp but the province of Gorizia in go.it; `or` is non-profit in or.jp but Oregon in or.us.
 */
const EXACT_SUFFIXES: ReadonlyMap<string, InstitutionType> = new Map([
  ...['go.jp', 'go.kr', 'go.th', 'go.id', 'go.ke', 'go.tz', 'go.ug', 'go.cr', 'go.ci', 'go.pw', 'go.tj'].map((s) => [s, 'gov'] as const),
  ['lg.jp', 'gov'], // Japanese local governments
  ['gc.ca', 'gov'], // Government of Canada
  ['nic.in', 'gov'], // National Informatics Centre: Indian government sites
  ['fed.us', 'gov'], // in case the suffix list carries it again (see GOV_DOMAINS)
  ['nsn.us', 'gov'], // Native Sovereign Nations: tribal governments
  ['police.uk', 'gov'],
  ['nhs.uk', 'gov'],
  ...['ed.jp', 'ed.cr', 'ed.ao', 'ed.ci', 'ed.pw'].map((s) => [s, 'edu'] as const),
  ...['es.kr', 'ms.kr', 'hs.kr', 'sc.kr', 'kg.kr'].map((s) => [s, 'edu'] as const), // Korean schools
  ...['or.jp', 'or.kr', 'or.at', 'or.id', 'or.th', 'or.ke', 'or.tz', 'or.ug', 'or.cr'].map((s) => [s, 'org'] as const),
]);

/** Restricted-looking second levels that their registry opens to anyone (NASK's functional domains). */
const OPEN_SECOND_LEVELS: ReadonlySet<string> = new Set(['edu.pl', 'mil.pl']);

/**
 * Government registrable domains outside any government suffix: UK central bodies directly under
 * .uk, EU institutions, national portals, and crown dependencies whose `gov.xx` is a domain.
 */
const GOV_DOMAINS: ReadonlySet<string> = new Set([
  'mod.uk',
  'parliament.uk',
  'nhs.net', // NHSmail, the NHS's staff mail service
  'gov.scot',
  'gov.wales',
  'llyw.cymru',
  'europa.eu',
  'canada.ca',
  'ontario.ca',
  'gnb.ca', // New Brunswick
  'bund.de', // German federal administration
  'admin.ch', // Swiss federal administration
  'fed.us', // US federal agencies; tldts 7.5's suffix list no longer carries fed.us as a suffix
  'gov.je',
  'gov.gg',
  'gov.im',
]);

/** RFC 1480 .us names: state.<st>.us etc. (registrable) and ci./co.<locality>.<st>.us (below it). */
const US_STATE_GOV_LABELS: ReadonlySet<string> = new Set(['state', 'dst', 'cog']);
const US_LOCAL_GOV_LABELS: ReadonlySet<string> = new Set(['ci', 'co']);

/** `domain` is a lower-case A-label name. Never throws. */
export function institutionType(domain: string): InstitutionType | undefined {
  const parsed = parse(domain, { extractHostname: false });
  const suffix = parsed.publicSuffix;
  const registrable = parsed.domain;
  // A bare suffix (`ac.uk`) or a name under an unknown TLD is not an institution's domain.
  if (parsed.isIcann !== true || !suffix || !registrable) return undefined;
  if (GOV_DOMAINS.has(registrable)) return 'gov';

  const labels = suffix.split('.');
  const tld = labels[labels.length - 1]!;
  const byTld = TLD_TYPES.get(tld);
  if (byTld !== undefined) return byTld;

  // Nearest the TLD decides: ac.gov.br is the state of Acre's government, not an academy.
  let tail = tld;
  for (let i = labels.length - 2; i >= 0; i--) {
    const label = labels[i]!;
    tail = `${label}.${tail}`;
    if (OPEN_SECOND_LEVELS.has(tail)) return undefined;
    const exact = EXACT_SUFFIXES.get(tail);
    if (exact !== undefined) return exact;
    if (label === 'cc' && tld === 'us') return 'edu'; // cc.<state>.us: community colleges
    const byLabel = LABEL_TYPES.get(label);
    if (byLabel !== undefined) return byLabel;
  }
  return registrableLevelType(domain, labels, registrable);
}

/** Conventions one level below a geographic suffix (<st>.us, <province>.ca). */
function registrableLevelType(domain: string, suffixLabels: string[], registrable: string): InstitutionType | undefined {
  // Only two-letter state or province codes: kids.us or gc.ca are not geographic.
  if (suffixLabels.length !== 2 || suffixLabels[0]!.length !== 2) return undefined;
  const country = suffixLabels[1];
  const own = registrable.slice(0, registrable.indexOf('.'));
  if (country === 'us') {
    if (US_STATE_GOV_LABELS.has(own)) return 'gov';
    if (own === 'tec') return 'edu'; // tec.<st>.us: technical and vocational schools
    // ci.<locality>.<st>.us / co.<county>.<st>.us: the label just below the locality's name.
    if (domain.length === registrable.length) return undefined;
    const below = domain.slice(0, domain.length - registrable.length - 1);
    return US_LOCAL_GOV_LABELS.has(below.slice(below.lastIndexOf('.') + 1)) ? 'gov' : undefined;
  }
  if (country === 'ca' && (own === 'gov' || own === 'gouv')) return 'gov'; // gov.bc.ca, gouv.qc.ca
  return undefined;
}
