/**
 * Who lives in a household, and what each member is: composition (single, couple, parent with an
 * adult child, couple with an adult child), ages, genders, marital status, education and
 * occupation, with the usual dependencies (students are young, retirees old, executives 35+,
 * nurses and secretaries mostly women).
 */
import { AGES, EDUCATIONS } from '../people/catalog.js';
import { Choice, type Rng } from './random.js';
import type { Education, Gender, Occupation } from './records.js';
import type { AgeBand } from './segments.js';

export type Role = 'single' | 'head' | 'spouse' | 'child';

export interface Member {
  role: Role;
  /** Whole years, 18 to 95. */
  age: number;
  gender: Gender;
  married: boolean;
  education?: Education;
  occupation?: Occupation;
}

/** Share of households by composition: about 35 % of people end up sharing an address. */
const COMPOSITIONS = [
  { kind: 'single', weight: 0.8 },
  { kind: 'couple', weight: 0.15 },
  { kind: 'parent-child', weight: 0.025 },
  { kind: 'family', weight: 0.025 },
] as const;

const AGE_RANGES: readonly [number, number][] = [
  [18, 20],
  [21, 24],
  [25, 34],
  [35, 44],
  [45, 54],
  [55, 64],
  [65, 92],
];

export function ageBand(age: number): AgeBand {
  return (age <= 20 ? 0 : age <= 24 ? 1 : age <= 34 ? 2 : age <= 44 ? 3 : age <= 54 ? 4 : age <= 64 ? 5 : 6) as AgeBand;
}

export function ageLabel(age: number): (typeof AGES)[number] {
  return AGES[ageBand(age)]!;
}

function ageIn(rng: Rng, band: number): number {
  const [lo, hi] = AGE_RANGES[band]!;
  // 65+ thins out with age.
  return band === 6 ? lo + (Math.floor(Math.abs(rng.normal()) * 9) % (hi - lo + 1)) : rng.int(lo, hi);
}

const clampAge = (age: number) => Math.max(18, Math.min(95, age));
const otherGender = (g: Gender): Gender => (g === 'Male' ? 'Female' : 'Male');

const COMPOSITION = new Choice(
  COMPOSITIONS.map((c) => c.kind),
  COMPOSITIONS.map((c) => c.weight),
);
const SINGLE_AGE_BAND = new Choice([0, 1, 2, 3, 4, 5, 6], [0.06, 0.08, 0.19, 0.16, 0.16, 0.16, 0.19]);
const SINGLE_MARRIED = [0.02, 0.06, 0.25, 0.35, 0.35, 0.35, 0.3];
const COUPLE_AGE_BAND = new Choice([2, 3, 4, 5, 6], [0.21, 0.2, 0.2, 0.19, 0.2]);

function anyGender(rng: Rng): Gender {
  return rng.chance(0.5) ? 'Female' : 'Male';
}

export function composition(rng: Rng): Member[] {
  const kind = COMPOSITION.draw(rng);
  if (kind === 'single') {
    const age = ageIn(rng, SINGLE_AGE_BAND.draw(rng));
    const married = rng.chance(SINGLE_MARRIED[ageBand(age)]!);
    return [{ role: 'single', age, gender: age >= 65 ? (rng.chance(0.57) ? 'Female' : 'Male') : anyGender(rng), married }];
  }
  if (kind === 'couple') {
    const age = ageIn(rng, COUPLE_AGE_BAND.draw(rng));
    const first = anyGender(rng);
    const spouseAge = clampAge(Math.max(19, age + Math.round(rng.normal() * 3)));
    const spouseGender = rng.chance(0.97) ? otherGender(first) : first;
    return [
      { role: 'head', age, gender: first, married: true },
      { role: 'spouse', age: spouseAge, gender: spouseGender, married: true },
    ];
  }
  const childAge = kind === 'family' ? rng.int(18, 28) : rng.chance(0.7) ? rng.int(18, 26) : rng.int(27, 40);
  const parentAge = clampAge(childAge + rng.int(21, 38));
  const child: Member = { role: 'child', age: childAge, gender: rng.chance(0.55) ? 'Male' : 'Female', married: false };
  if (kind === 'parent-child') {
    const parent: Member = { role: 'head', age: parentAge, gender: rng.chance(0.62) ? 'Female' : 'Male', married: rng.chance(0.35) };
    return [parent, child];
  }
  const first = anyGender(rng);
  return [
    { role: 'head', age: parentAge, gender: first, married: true },
    { role: 'spouse', age: clampAge(parentAge + Math.round(rng.normal() * 3)), gender: otherGender(first), married: true },
    child,
  ];
}

/** The catalog's order; the weights below follow it. */
const EDUCATION_ORDER = EDUCATIONS;
const EDUCATION_BY_AGE = {
  teen: new Choice(EDUCATION_ORDER, [0.47, 0.48, 0, 0, 0.05]),
  young: new Choice(EDUCATION_ORDER, [0.3, 0.35, 0.28, 0.01, 0.06]),
  adult: new Choice(EDUCATION_ORDER, [0.28, 0.25, 0.27, 0.13, 0.07]),
  senior: new Choice(EDUCATION_ORDER, [0.4, 0.22, 0.2, 0.11, 0.07]),
};

export function education(rng: Rng, age: number): Education {
  const table =
    age <= 20 ? EDUCATION_BY_AGE.teen : age <= 24 ? EDUCATION_BY_AGE.young : age >= 65 ? EDUCATION_BY_AGE.senior : EDUCATION_BY_AGE.adult;
  return table.draw(rng);
}

const WORK_BY_EDUCATION: Readonly<Record<Education, Partial<Record<Occupation, number>>>> = {
  'Completed High School': {
    'Blue Collar Worker': 35,
    'White Collar Worker': 12,
    Secretary: 6,
    'Health Services': 8,
    'Part Time': 10,
    'Civil Service': 5,
    'Military Personnel': 3,
    'Business Owner': 5,
    'Middle Management': 4,
    Technology: 2,
  },
  'Attended Vocational/Technical School': {
    'Blue Collar Worker': 40,
    'Health Services': 12,
    Nurse: 8,
    Technology: 8,
    'Business Owner': 8,
    'Civil Service': 6,
    'White Collar Worker': 8,
    'Part Time': 6,
    'Military Personnel': 4,
  },
  'Attended College': {
    'White Collar Worker': 22,
    'Blue Collar Worker': 15,
    'Health Services': 8,
    Nurse: 6,
    Secretary: 6,
    Technology: 8,
    'Middle Management': 8,
    'Civil Service': 6,
    'Business Owner': 6,
    'Part Time': 8,
    'Military Personnel': 4,
    Professional: 3,
  },
  'Completed College': {
    Professional: 22,
    Teacher: 12,
    Technology: 14,
    'Middle Management': 14,
    'White Collar Worker': 12,
    'Executive/Upper Management': 6,
    Nurse: 6,
    'Business Owner': 6,
    'Civil Service': 5,
    'Health Services': 3,
  },
  'Completed Graduate School': {
    Professional: 35,
    'Executive/Upper Management': 12,
    Teacher: 14,
    Technology: 12,
    'Middle Management': 8,
    'Business Owner': 6,
    'Health Services': 6,
    'Civil Service': 4,
    Nurse: 3,
  },
};
const FEMALE_FACTOR: Partial<Record<Occupation, number>> = {
  Nurse: 3,
  Secretary: 4,
  Teacher: 1.7,
  'Blue Collar Worker': 0.35,
  'Military Personnel': 0.3,
};
const MALE_FACTOR: Partial<Record<Occupation, number>> = {
  Nurse: 0.35,
  Secretary: 0.2,
  'Blue Collar Worker': 1.4,
};

export function occupation(rng: Rng, m: Member, edu: Education): Occupation {
  if (m.age >= 67 && rng.chance(0.85)) return 'Retired';
  if (m.age >= 62 && rng.chance(0.45)) return 'Retired';
  if (m.age <= 24 && edu === 'Attended College' && rng.chance(0.55)) return 'Student';
  if (m.age <= 20) return TEEN_JOBS.draw(rng);
  if (m.married && m.age >= 25 && m.age < 65 && rng.chance(m.gender === 'Female' ? 0.12 : 0.01)) return 'Homemaker';
  const key = `${edu}|${m.gender}|${m.age < 35 ? 'young' : m.age > 50 ? 'older' : 'mid'}`;
  let table = JOB_TABLES.get(key);
  if (table === undefined) {
    const base = WORK_BY_EDUCATION[edu];
    const factors = m.gender === 'Female' ? FEMALE_FACTOR : MALE_FACTOR;
    const jobs = Object.keys(base) as Occupation[];
    const weights: number[] = [];
    for (const job of jobs) {
      if (job === 'Executive/Upper Management' && m.age < 35) weights.push(0);
      else if (job === 'Military Personnel' && m.age > 50) weights.push(0);
      else weights.push(base[job]! * (factors[job] ?? 1));
    }
    table = new Choice(jobs, weights);
    JOB_TABLES.set(key, table);
  }
  return table.draw(rng);
}

const TEEN_JOBS = new Choice<Occupation>(
  ['Student', 'Part Time', 'Blue Collar Worker', 'White Collar Worker', 'Military Personnel'],
  [45, 25, 15, 10, 5],
);
const JOB_TABLES = new Map<string, Choice<Occupation>>();
