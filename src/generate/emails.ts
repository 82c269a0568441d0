/**
 * Email addresses: usernames built the way people pick them (first.last, flast, name + birth year,
 * a handle) at a free provider or an invented company domain, shaped to each provider's published
 * username rules (verification/provider-rules.ts) so that every address passes classifySyntax, and
 * unique across the dataset (an address belongs to one person).
 */
import type { Rng } from './random.js';
import { Choice, rankWeights, WeightedTable } from './random.js';
import { SeenSet } from './seen-set.js';
import type { Occupation } from './records.js';

/** Mailbox providers US consumers use, with a rough share; ISP domains lean older. */
const PROVIDERS: readonly { domain: string; young: number; middle: number; old: number }[] = [
  { domain: 'gmail.com', young: 55, middle: 38, old: 24 },
  { domain: 'yahoo.com', young: 8, middle: 14, old: 14 },
  { domain: 'hotmail.com', young: 4, middle: 8, old: 6 },
  { domain: 'outlook.com', young: 6, middle: 5, old: 3 },
  { domain: 'icloud.com', young: 10, middle: 5, old: 2 },
  { domain: 'aol.com', young: 0.5, middle: 4, old: 11 },
  { domain: 'comcast.net', young: 1, middle: 3, old: 7 },
  { domain: 'att.net', young: 0.5, middle: 1.5, old: 4 },
  { domain: 'sbcglobal.net', young: 0.3, middle: 1.5, old: 4 },
  { domain: 'verizon.net', young: 0.3, middle: 1, old: 3 },
  { domain: 'bellsouth.net', young: 0.2, middle: 1, old: 3 },
  { domain: 'cox.net', young: 0.3, middle: 1, old: 2 },
  { domain: 'charter.net', young: 0.2, middle: 0.7, old: 1.5 },
  { domain: 'msn.com', young: 0.3, middle: 1.2, old: 2 },
  { domain: 'live.com', young: 1, middle: 1.2, old: 0.8 },
  { domain: 'me.com', young: 1, middle: 0.8, old: 0.6 },
  { domain: 'mac.com', young: 0.1, middle: 0.3, old: 0.5 },
  { domain: 'ymail.com', young: 0.5, middle: 0.5, old: 0.3 },
  { domain: 'protonmail.com', young: 1.5, middle: 0.5, old: 0.1 },
  { domain: 'earthlink.net', young: 0.05, middle: 0.3, old: 1 },
  { domain: 'optonline.net', young: 0.1, middle: 0.3, old: 0.6 },
  { domain: 'gmx.com', young: 0.2, middle: 0.2, old: 0.2 },
  { domain: 'mail.com', young: 0.2, middle: 0.2, old: 0.2 },
];

const COMPANY_WORDS = (
  'summit blue north pine iron bright cedar river harbor stone oak maple eagle falcon granite silver golden ' +
  'crest ridge valley lake prairie coastal metro urban pioneer liberty heritage keystone cornerstone beacon ' +
  'evergreen redwood aspen willow birch copper cobalt crimson sterling atlas apex vertex nova orion delta ' +
  'vista horizon meridian frontier landmark anchor compass lighthouse bluewater northstar southpoint westfield ' +
  'eastgate highland lowland riverbend brookside fairway parkside midland tristate bayside lakeside hillside'
).split(' ');
const COMPANY_KINDS = (
  'logistics health partners consulting labs systems group foods energy capital design dental realty law media ' +
  'tech solutions industries builders insurance financial clinic motors supply works analytics marketing freight ' +
  'software medical electric plumbing roofing printing staffing ventures holdings manufacturing engineering ' +
  'architects pharmacy bakery farms brewing studios networks outfitters advisors accounting hvac landscaping'
).split(' ');
const COMPANY_TLDS = new WeightedTable(['com', 'net', 'org', 'us', 'co', 'io', 'biz', 'info'], [70, 8, 6, 4, 4, 4, 2, 2]);

const HANDLE_WORDS = (
  'sunny blue happy lucky star moon tiger eagle wolf bear fox rose angel jazz rock music soccer golf hoops surf ' +
  'ski hiker coffee cookie pizza taco gamer ninja pixel dragon phoenix river ocean storm thunder shadow silver ' +
  'golden cowboy country beach island mountain garden kitty puppy bunny butterfly daisy honey sugar sweet cool ' +
  'crazy wild red green purple pink mama papa nana coach chef fan lover girl guy dude boss king queen rider ' +
  'runner fisher hunter skater'
).split(' ');

/** Occupations whose holders may also have a work address. */
const EMPLOYED: ReadonlySet<Occupation | undefined> = new Set<Occupation | undefined>([
  'Blue Collar Worker',
  'Business Owner',
  'Civil Service',
  'Executive/Upper Management',
  'Health Services',
  'Middle Management',
  'Military Personnel',
  'Nurse',
  'Professional',
  'Secretary',
  'Teacher',
  'Technology',
  'White Collar Worker',
]);

export interface EmailOwner {
  first: string;
  middle?: string;
  last: string;
  age: number;
  birthYear: number;
  occupation?: Occupation;
}

type Family = 'gmail' | 'yahoo' | 'outlook' | 'aol' | 'icloud' | 'other';

const FAMILIES: Readonly<Record<string, Family>> = {
  'gmail.com': 'gmail',
  'yahoo.com': 'yahoo',
  'ymail.com': 'yahoo',
  'hotmail.com': 'outlook',
  'outlook.com': 'outlook',
  'live.com': 'outlook',
  'msn.com': 'outlook',
  'aol.com': 'aol',
  'icloud.com': 'icloud',
  'me.com': 'icloud',
  'mac.com': 'icloud',
};

const COUNTS = new Choice([1, 2, 3], [0.55, 0.32, 0.13]);
const SENIOR_COUNTS = new Choice([1, 2, 3], [0.7, 0.23, 0.07]);
/** Username patterns of personalName, by how often people pick them. */
const PATTERNS = new Choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], [20, 14, 10, 4, 5, 3, 4, 3, 8, 8, 5, 10]);

const letters = (s: string) => s.toLowerCase().replace(/[^a-z]/g, '');

export class EmailMaker {
  private readonly young: WeightedTable<string>;
  private readonly middle: WeightedTable<string>;
  private readonly old: WeightedTable<string>;
  private readonly companies: WeightedTable<string>;
  private readonly seen: SeenSet;
  private serial = 0;

  /** `world` draws the invented company domains once; `expected` sizes the uniqueness set. */
  constructor(world: Rng, expected: number) {
    const domains = PROVIDERS.map((p) => p.domain);
    this.young = new WeightedTable(
      domains,
      PROVIDERS.map((p) => p.young),
    );
    this.middle = new WeightedTable(
      domains,
      PROVIDERS.map((p) => p.middle),
    );
    this.old = new WeightedTable(
      domains,
      PROVIDERS.map((p) => p.old),
    );
    const companies = new Set<string>();
    while (companies.size < 3000) {
      const a = world.pick(COMPANY_WORDS);
      const b = world.pick(COMPANY_KINDS);
      const name = world.chance(0.15)
        ? `${a}-${b}`
        : world.chance(0.15)
          ? `${a}${b}${world.pick(['usa', 'inc', 'co', 'llc', 'pro'])}`
          : `${a}${b}`;
      companies.add(`${name}.${COMPANY_TLDS.draw(world)}`);
    }
    const list = [...companies];
    this.companies = new WeightedTable(list, rankWeights(list.length));
    this.seen = new SeenSet(Math.ceil(expected * 1.8));
  }

  /** 1 to 3 distinct addresses for one person. */
  emailsFor(rng: Rng, owner: EmailOwner): string[] {
    const count = (owner.age >= 65 ? SENIOR_COUNTS : COUNTS).draw(rng);
    const providers = owner.age < 30 ? this.young : owner.age < 60 ? this.middle : this.old;
    const work = EMPLOYED.has(owner.occupation) && rng.chance(count === 1 ? 0.06 : 0.22);
    const emails: string[] = [];
    for (let i = 0; i < count; i++) {
      const atWork = work && i === count - 1;
      const domain = atWork ? this.companies.draw(rng) : providers.draw(rng);
      emails.push(this.unique(rng, owner, domain, atWork));
    }
    return emails;
  }

  private unique(rng: Rng, owner: EmailOwner, domain: string, atWork: boolean): string {
    const family = FAMILIES[domain] ?? 'other';
    for (let attempt = 0; attempt < 6; attempt++) {
      const raw = atWork ? this.workName(rng, owner, attempt) : this.personalName(rng, owner, attempt);
      const address = `${shape(raw, family, rng, owner)}@${domain}`;
      if (this.seen.add(address)) return address;
    }
    // Unique by construction: a serial number no other address has.
    const address = `${shape(`${letters(owner.first)}${letters(owner.last)}`.slice(0, 10) + String(++this.serial), family, rng, owner)}@${domain}`;
    this.seen.add(address);
    return address;
  }

  private workName(rng: Rng, o: EmailOwner, attempt: number): string {
    const f = letters(o.first);
    const l = letters(o.last);
    const m = o.middle ? (letters(o.middle)[0] ?? '') : '';
    switch (attempt === 0 ? rng.below(4) : attempt) {
      case 0:
        return `${f}.${l}`;
      case 1:
        return `${f[0]}${l}`;
      case 2:
        return `${f}${l[0]}`;
      case 3:
        return `${f}.${m}.${l}`.replace('..', '.');
      default:
        return `${f}.${l}${rng.int(2, 99)}`;
    }
  }

  private personalName(rng: Rng, o: EmailOwner, attempt: number): string {
    const f = letters(o.first);
    const l = letters(o.last);
    const m = o.middle ? (letters(o.middle)[0] ?? '') : '';
    // Later attempts lean on digits, as people do when their name is taken.
    const pattern = attempt === 0 ? PATTERNS.draw(rng) : 8 + rng.below(4);
    switch (pattern) {
      case 0:
        return `${f}.${l}`;
      case 1:
        return `${f}${l}`;
      case 2:
        return `${f[0]}${l}`;
      case 3:
        return `${f}${l[0]}`;
      case 4:
        return `${f}_${l}`;
      case 5:
        return `${l}.${f}`;
      case 6:
        return `${f[0]}${m}${l}`;
      case 7:
        return m ? `${f}.${m}.${l}` : `${f}.${l}`;
      case 8:
        return `${f}.${l}${digits(rng, o.birthYear)}`;
      case 9:
        return `${f}${l}${digits(rng, o.birthYear)}`;
      case 10:
        return `${f}${digits(rng, o.birthYear)}`;
      default:
        return `${rng.pick(HANDLE_WORDS)}${rng.pick(HANDLE_WORDS)}${rng.chance(0.6) ? digits(rng, o.birthYear) : ''}`;
    }
  }
}

/** What people append to a taken name: birth year (two or four digits) or a number. */
function digits(rng: Rng, birthYear: number): string {
  const r = rng.float();
  if (r < 0.35) return String(birthYear % 100).padStart(2, '0');
  if (r < 0.5) return String(birthYear);
  return String(rng.int(1, r < 0.8 ? 99 : 9999));
}

function counted(s: string, family: Family): number {
  if (family !== 'gmail') return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) !== 0x2e) n++;
  return n;
}

/**
 * Fits a username to the provider's rules: allowed characters, dots (Gmail ignores them, Yahoo
 * allows one), first character a letter, length limits. Pads short names with digits.
 */
function shape(raw: string, family: Family, rng: Rng, owner: EmailOwner): string {
  let s = raw;
  if (family === 'gmail') s = s.replace(/[_-]/g, '.');
  else if (family === 'yahoo' || family === 'aol' || family === 'icloud') s = s.replace(/-/g, '_');
  if (family === 'yahoo') {
    const dot = s.indexOf('.');
    if (dot !== -1) s = s.slice(0, dot + 1) + s.slice(dot + 1).replace(/\./g, '');
  }
  s = tidy(s);
  const [min, max] = LIMITS[family];
  while (counted(s, family) < min) s = tidy(`${s}${counted(s, family) + 2 <= min ? String(owner.birthYear) : rng.int(1, 9)}`);
  if (counted(s, family) > max) {
    let keep = s.length;
    while (keep > 0 && counted(s.slice(0, keep), family) > max) keep--;
    s = tidy(s.slice(0, keep));
  }
  return s;
}

const LIMITS: Readonly<Record<Family, [number, number]>> = {
  gmail: [6, 30],
  yahoo: [4, 32],
  outlook: [3, 64],
  aol: [3, 32],
  icloud: [3, 20],
  other: [3, 64],
};

const TIDY = /^[a-z][a-z0-9]*(?:[._-][a-z0-9]+)*$/;

/** No leading, trailing or doubled separators; starts with a letter. */
function tidy(s: string): string {
  if (TIDY.test(s)) return s;
  let t = s
    .replace(/([._-])[._-]+/g, '$1')
    .replace(/^[._\d-]+/, '')
    .replace(/[._-]+$/, '');
  if (t === '') t = 'mail';
  return t;
}
