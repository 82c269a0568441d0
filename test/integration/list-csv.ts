/**
 * A list file for the crash test and the list bench: addresses on the test world's domains, so
 * every verdict at depth `domain` comes from a real DNS answer on loopback, in a mix that gives
 * every reporting bucket something (valid MX, implicit MX, null MX, NXDOMAIN, no mail, SERVFAIL,
 * parked, role accounts, disposable and free-mail domains, syntax errors, repeats in other case
 * and spacing, quoted cells). Seeded, so two runs write the same bytes.
 *
 * Left out on purpose: the world's DNS-timeout domain (each record would wait for c-ares' timeout,
 * and a verdict that depends on a deadline is not one two runs can be compared on).
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { defaultScenario } from '../helpers/world/index.js';

const d = defaultScenario.domains;

/** Domains by weight: most lists are mostly deliverable domains. */
const DOMAINS: [string, number][] = [
  [d.mailboxOk, 20],
  [d.acceptAll, 8],
  [d.mailboxFull, 4],
  [d.greylist, 3],
  [d.tempfail, 2],
  [d.starttls, 2],
  [d.yahooHosted, 4],
  [d.multiMx, 2],
  [d.multiAddress, 2],
  [d.idn, 1],
  [d.aOnly, 4],
  [d.nullMx, 3],
  [d.nxdomain, 5],
  [d.noMail, 3],
  [d.servfail, 1],
  [d.parked, 2],
  // Decided from our own lists (free mail, disposable) before or beside any DNS answer.
  ['gmail.com', 6],
  ['yahoo.com', 3],
  ['mailinator.com', 2],
];
const TOTAL_WEIGHT = DOMAINS.reduce((n, [, w]) => n + w, 0);

const FIRST = [
  'Ann',
  'Bob',
  'Chloé',
  'Dmitri',
  'Eve',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'José',
  'Kai',
  'Lena',
  'Mo',
  'Nadia',
  'Omar',
  'Pia',
];
const LAST = ['Smith', "O'Brien", 'Müller', 'Nguyen', 'García', 'Kowalski', 'Lee', 'Dubois', 'Rossi', 'Jensen', 'Okafor', 'Silva'];
const ROLES = ['info', 'admin', 'sales', 'support', 'postmaster', 'billing'];
const BAD = [
  'not-an-address',
  'ann@@example.com',
  'bob@',
  '@gmail.com',
  'eve@localhost',
  'a b@gmail.com',
  'x@-bad-.com',
  'john..doe@gmail.com',
];
const NOTES = ['', '', '', 'VIP', 'says "hi", twice', 'line one\nline two', 'semi;colon', '  padded  '];

/** mulberry32: small, seeded, good enough to spread test data. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function quote(cell: string): string {
  return /[",\n\r]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

export interface ListFile {
  path: string;
  /** Data records (the header is not one). */
  records: number;
  bytes: number;
}

/** Writes `records` data rows under the header `Email,First Name,Last Name,Note`. */
export async function writeListCsv(path: string, records: number, seed = 1): Promise<ListFile> {
  const next = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const pickDomain = () => {
    let r = next() * TOTAL_WEIGHT;
    for (const [domain, weight] of DOMAINS) if ((r -= weight) < 0) return domain;
    return DOMAINS[0]![0];
  };
  const earlier: string[] = [];

  const out = createWriteStream(path);
  let bytes = 0;
  let buffer = 'Email,First Name,Last Name,Note\n';
  for (let i = 0; i < records; i++) {
    const first = pick(FIRST);
    const last = pick(LAST);
    const roll = next();
    let email: string;
    if (roll < 0.04) email = pick(BAD);
    else if (roll < 0.07 && earlier.length > 0) {
      // A repeat, as real lists have them: other case, stray spaces.
      const again = pick(earlier);
      email = next() < 0.5 ? again.toUpperCase() : ` ${again} `;
    } else if (roll < 0.1) email = `${pick(ROLES)}@${pickDomain()}`;
    else if (roll < 0.105) email = '';
    else
      email = `${first
        .toLowerCase()
        .normalize('NFD')
        .replace(/[^a-z]/g, '')}.${last.toLowerCase().replace(/[^a-z]/g, '')}${i}@${pickDomain()}`;
    if (i % 97 === 0) earlier.push(email.trim() || `x${i}@${d.mailboxOk}`);
    buffer += `${quote(email)},${quote(first)},${quote(last)},${quote(pick(NOTES))}\n`;
    if (buffer.length > 1 << 16) {
      bytes += Buffer.byteLength(buffer);
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  bytes += Buffer.byteLength(buffer);
  out.end(buffer);
  await once(out, 'finish');
  return { path, records, bytes };
}
