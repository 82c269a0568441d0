/**
 * Households: who lives together and what describes the household as a whole. Every field the
 * reference calls a household field (income, net worth, home value, owner status, length of
 * residence, children, RFM, life-stage and financial segments) is drawn once here, so members share
 * it exactly. The model is a few latent draws with realistic correlations, not a census fit:
 *
 * - age and education (and two earners) drive affluence; affluence drives income, net worth and
 *   home value, and with age the chance of owning;
 * - renters have no home value; length of residence never exceeds the years the youngest member
 *   could have lived there (nor the householder's adult years);
 * - segments follow from householder age, affluence, children and setting (segments.ts).
 */
import {
  AGES,
  HOME_MARKET_VALUES,
  HOUSEHOLD_INCOMES,
  LENGTHS_OF_RESIDENCE,
  NET_WORTHS,
} from '../enrichment/catalog.js';
import type { AddressMaker, PostalAddress } from './address.js';
import type { Rng } from './random.js';
import type {
  Education,
  FinancialGroup,
  FinancialSegment,
  Gender,
  HomeMarketValue,
  HouseholdIncome,
  LengthOfResidence,
  LifeStageGroup,
  LifeStageSegment,
  NetWorth,
  Occupation,
} from './records.js';
import { chooseFinancial, chooseLifeStage, type AgeBand, type Setting, type Tier } from './segments.js';

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

export interface Rfm {
  offlineAvgDays: number;
  onlineAvgDays: number;
  avgDollars: number;
  /** Days before today of the last order. */
  lastOrderDaysAgo: number;
}

export interface Household {
  members: Member[];
  address: PostalAddress;
  setting: Setting;
  owner: boolean;
  income: HouseholdIncome;
  tier: Tier;
  netWorth: NetWorth;
  homeValue?: HomeMarketValue;
  residenceYears: number;
  residence: LengthOfResidence;
  kids: boolean;
  lifeStage: { segment: LifeStageSegment; group: LifeStageGroup };
  financial?: { segment: FinancialSegment; group: FinancialGroup };
  rfm?: Rfm;
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
  return band === 6 ? lo + Math.floor(Math.abs(rng.normal()) * 9) % (hi - lo + 1) : rng.int(lo, hi);
}

const clampAge = (age: number) => Math.max(18, Math.min(95, age));
const otherGender = (g: Gender): Gender => (g === 'Male' ? 'Female' : 'Male');

function composition(rng: Rng): Member[] {
  const kind = COMPOSITIONS[rng.weightedIndex(COMPOSITIONS.map((c) => c.weight))]!.kind;
  const gender = (): Gender => (rng.chance(0.5) ? 'Female' : 'Male');
  if (kind === 'single') {
    const age = ageIn(rng, rng.weightedIndex([0.06, 0.08, 0.19, 0.16, 0.16, 0.16, 0.19]));
    const married = rng.chance([0.02, 0.06, 0.25, 0.35, 0.35, 0.35, 0.3][ageBand(age)]!);
    return [{ role: 'single', age, gender: age >= 65 ? (rng.chance(0.57) ? 'Female' : 'Male') : gender(), married }];
  }
  if (kind === 'couple') {
    const age = ageIn(rng, 2 + rng.weightedIndex([0.21, 0.2, 0.2, 0.19, 0.2]));
    const first = gender();
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
  const first = gender();
  return [
    { role: 'head', age: parentAge, gender: first, married: true },
    { role: 'spouse', age: clampAge(parentAge + Math.round(rng.normal() * 3)), gender: otherGender(first), married: true },
    child,
  ];
}

function education(rng: Rng, age: number): Education {
  // Weights: High School, Attended College, Completed College, Graduate School, Vocational.
  const weights =
    age <= 20 ? [0.47, 0.48, 0, 0, 0.05] : age <= 24 ? [0.3, 0.35, 0.28, 0.01, 0.06] : age >= 65 ? [0.4, 0.22, 0.2, 0.11, 0.07] : [0.28, 0.25, 0.27, 0.13, 0.07];
  return (['Completed High School', 'Attended College', 'Completed College', 'Completed Graduate School', 'Attended Vocational/Technical School'] as const)[
    rng.weightedIndex(weights)
  ]!;
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

function occupation(rng: Rng, m: Member, edu: Education): Occupation {
  if (m.age >= 67 && rng.chance(0.85)) return 'Retired';
  if (m.age >= 62 && rng.chance(0.45)) return 'Retired';
  if (m.age <= 24 && edu === 'Attended College' && rng.chance(0.55)) return 'Student';
  if (m.age <= 20) {
    return (['Student', 'Part Time', 'Blue Collar Worker', 'White Collar Worker', 'Military Personnel'] as const)[rng.weightedIndex([45, 25, 15, 10, 5])]!;
  }
  if (m.married && m.age >= 25 && m.age < 65 && rng.chance(m.gender === 'Female' ? 0.12 : 0.01)) return 'Homemaker';
  const base = WORK_BY_EDUCATION[edu];
  const factors = m.gender === 'Female' ? FEMALE_FACTOR : MALE_FACTOR;
  const jobs = Object.keys(base) as Occupation[];
  const weights = jobs.map((job) => {
    if (job === 'Executive/Upper Management' && m.age < 35) return 0;
    if (job === 'Military Personnel' && m.age > 50) return 0;
    return base[job]! * (factors[job] ?? 1);
  });
  return jobs[rng.weightedIndex(weights)]!;
}

const EDUCATION_EFFECT: Readonly<Record<Education, number>> = {
  'Completed High School': -0.5,
  'Attended Vocational/Technical School': -0.3,
  'Attended College': -0.1,
  'Completed College': 0.5,
  'Completed Graduate School': 0.9,
};
const AGE_INCOME_EFFECT = [-1.4, -0.9, -0.2, 0.2, 0.35, 0.3, -0.2];
const OCCUPATION_EFFECT: Partial<Record<Occupation, number>> = {
  'Executive/Upper Management': 0.8,
  'Business Owner': 0.5,
  Professional: 0.5,
  Technology: 0.5,
  'Middle Management': 0.4,
  Nurse: 0.2,
  'White Collar Worker': 0.1,
  'Civil Service': 0.1,
  'Health Services': -0.1,
  'Military Personnel': -0.1,
  'Blue Collar Worker': -0.2,
  Secretary: -0.2,
  'Part Time': -0.8,
  Student: -1.2,
};
const AGE_WEALTH_EFFECT = [-1.5, -1.2, -0.7, -0.2, 0.2, 0.5, 0.6];
const OWN_BY_AGE = [0.03, 0.12, 0.38, 0.58, 0.68, 0.75, 0.79];
const KIDS_BY_AGE = [0.04, 0.15, 0.45, 0.62, 0.42, 0.12, 0.03];

/** Cumulative US-like shares of each bracket, in catalog order. */
const INCOME_SHARES = cumulative([10, 8, 8, 11, 16, 12, 16, 5, 4, 4, 6]);
const NET_WORTH_SHARES = cumulative([18, 6, 8, 8, 10, 17, 13, 10, 10]);
const HOME_VALUE_SHARES = cumulative([2, 3, 5, 6, 13, 13, 11, 10, 8, 14, 12, 3]);

/** Home-price level of a state against the national median, in standard deviations. */
const STATE_HOME_EFFECT: Readonly<Record<string, number>> = {
  HI: 1.0, CA: 0.9, DC: 0.9, MA: 0.7, WA: 0.6, CO: 0.5, NY: 0.5, NJ: 0.5, OR: 0.3, CT: 0.3, MD: 0.3, UT: 0.3,
  VA: 0.2, NH: 0.2, RI: 0.2, MT: 0.1, ID: 0.1, NV: 0.1, AZ: 0.1, FL: 0.1,
  WV: -0.7, MS: -0.6, AR: -0.5, OK: -0.5, AL: -0.4, KY: -0.4, IN: -0.4, LA: -0.3, IA: -0.3, KS: -0.3,
  OH: -0.3, MO: -0.3, MI: -0.3, NE: -0.2, SD: -0.2, ND: -0.2, NM: -0.2, TN: -0.1, SC: -0.1, PA: -0.1, WI: -0.1,
};

function cumulative(shares: number[]): number[] {
  const total = shares.reduce((a, b) => a + b, 0);
  let sum = 0;
  return shares.map((s) => (sum += s / total));
}

/** Standard normal CDF (Abramowitz-Stegun 7.1.26, error < 1.5e-7). */
function phi(x: number): number {
  const t = 1 / (1 + 0.3275911 * (Math.abs(x) / Math.SQRT2));
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + y) / 2 : (1 - y) / 2;
}

function bracket(z: number, spread: number, shares: number[]): number {
  const p = phi(z / spread);
  let i = 0;
  while (i < shares.length - 1 && p >= shares[i]!) i++;
  return i;
}

function residenceLabel(years: number): LengthOfResidence {
  if (years <= 10) return LENGTHS_OF_RESIDENCE[years]!;
  return years <= 15 ? '11-15 years' : years <= 19 ? '16-19 years' : '20+ years';
}

function tierOf(incomeIndex: number): Tier {
  return (incomeIndex <= 1 ? 0 : incomeIndex <= 3 ? 1 : incomeIndex <= 5 ? 2 : incomeIndex <= 8 ? 3 : 4) as Tier;
}

export function makeHousehold(rng: Rng, addresses: AddressMaker): Household {
  const members = composition(rng);
  const head = members[0]!;
  const setting: Setting = (['urban', 'suburban', 'rural'] as const)[rng.weightedIndex([0.3, 0.5, 0.2])]!;

  // Every member has an education and occupation; a few records leave them out (not matched).
  const educations: Education[] = [];
  const occupations: Occupation[] = [];
  for (const m of members) {
    const edu = m.role === 'spouse' && rng.chance(0.6) ? educations[0]! : education(rng, m.age);
    const job = occupation(rng, m, edu);
    educations.push(edu);
    occupations.push(job);
    if (!rng.chance(0.04)) m.education = edu;
    if (!rng.chance(0.06)) m.occupation = job;
  }

  const band = ageBand(head.age);
  const adults = members.filter((m) => m.role !== 'child');
  let affluence = EDUCATION_EFFECT[educations[0]!] + AGE_INCOME_EFFECT[band]! + (OCCUPATION_EFFECT[occupations[0]!] ?? 0);
  if (adults.length > 1) affluence += 0.45 + 0.3 * (OCCUPATION_EFFECT[occupations[1]!] ?? 0);
  if (members.some((m) => m.role === 'child')) affluence += 0.1;
  affluence += rng.normal() * 0.75;
  const incomeIndex = bracket(affluence, 1.25, INCOME_SHARES);
  const tier = tierOf(incomeIndex);

  const pOwn = OWN_BY_AGE[band]! + (head.married ? 0.12 : 0) + (affluence > 0.5 ? 0.1 : affluence < -0.7 ? -0.15 : 0) +
    (setting === 'rural' ? 0.08 : setting === 'urban' ? -0.1 : 0);
  const owner = rng.chance(Math.max(0.01, Math.min(0.97, pOwn)));

  const address = addresses.draw(rng, !owner);
  const wealth = 0.65 * affluence + AGE_WEALTH_EFFECT[band]! + (owner ? 0.4 : 0) + rng.normal() * 0.6;
  const netWorth = NET_WORTHS[bracket(wealth, 1.2, NET_WORTH_SHARES)]!;
  let homeValue: HomeMarketValue | undefined;
  if (owner) {
    const price = 0.7 * affluence + (STATE_HOME_EFFECT[address.place.state] ?? 0) + (setting === 'urban' ? 0.2 : setting === 'rural' ? -0.3 : 0) + rng.normal() * 0.6;
    homeValue = HOME_MARKET_VALUES[bracket(price, 1.1, HOME_VALUE_SHARES)]!;
  }

  const youngest = Math.min(...members.map((m) => m.age));
  const maxYears = Math.max(0, Math.min(head.age - 18, youngest - 1));
  const meanYears = owner ? 9 : 2.5;
  const residenceYears = Math.min(maxYears, Math.floor(-Math.log(1 - rng.float()) * meanYears));

  const hasAdultChild = members.some((m) => m.role === 'child');
  const pKids = hasAdultChild
    ? head.age < 55 ? 0.3 : 0.06
    : Math.min(0.85, KIDS_BY_AGE[band]! * (adults.length > 1 ? 1.3 : head.married ? 1.1 : 0.7));
  const kids = rng.chance(pKids);

  const profile = { age: band, tier, kids, alone: members.length === 1, setting };
  const lifeStage = chooseLifeStage(rng, profile);
  const financialPick = rng.chance(0.95) ? chooseFinancial(rng, profile) : undefined;

  let rfm: Rfm | undefined;
  if (rng.chance(0.85)) {
    const lognormal = (median: number, sigma: number) => median * Math.exp(rng.normal() * sigma);
    const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, Math.round(v)));
    rfm = {
      offlineAvgDays: clamp(lognormal(40, 0.6), 1, 365),
      onlineAvgDays: clamp(lognormal(band <= 2 ? 18 : band >= 6 ? 75 : 35, 0.7), 1, 365),
      avgDollars: clamp(lognormal([35, 55, 80, 120, 200][tier]!, 0.5), 5, 5000),
      lastOrderDaysAgo: Math.min(720, Math.floor(-Math.log(1 - rng.float()) * 60)),
    };
  }

  return {
    members,
    address,
    setting,
    owner,
    income: HOUSEHOLD_INCOMES[incomeIndex]!,
    tier,
    netWorth,
    homeValue,
    residenceYears,
    residence: residenceLabel(residenceYears),
    kids,
    lifeStage: { segment: lifeStage.segment, group: lifeStage.group },
    financial: financialPick && { segment: financialPick.segment, group: financialPick.group },
    rfm,
  };
}
