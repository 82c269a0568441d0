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
import { HOME_MARKET_VALUES, HOUSEHOLD_INCOMES, LENGTHS_OF_RESIDENCE, NET_WORTHS } from '../people/catalog.js';
import type { AddressMaker, PostalAddress } from './address.js';
import { ageBand, composition, education, occupation, type Member } from './members.js';
import { Choice, type Rng } from './random.js';
import type {
  Education,
  FinancialGroup,
  FinancialSegment,
  HomeMarketValue,
  HouseholdIncome,
  LengthOfResidence,
  LifeStageGroup,
  LifeStageSegment,
  NetWorth,
  Occupation,
} from './records.js';
import { chooseFinancial, chooseLifeStage, type Setting, type Tier } from './segments.js';

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
const DOLLARS_BY_TIER = [35, 55, 80, 120, 200];
const AGE_WEALTH_EFFECT = [-1.5, -1.2, -0.7, -0.2, 0.2, 0.5, 0.6];
const OWN_BY_AGE = [0.03, 0.12, 0.38, 0.58, 0.68, 0.75, 0.79];
const KIDS_BY_AGE = [0.04, 0.15, 0.45, 0.62, 0.42, 0.12, 0.03];

/** Cumulative US-like shares of each bracket, in catalog order. */
const INCOME_SHARES = cumulative([10, 8, 8, 11, 16, 12, 16, 5, 4, 4, 6]);
const NET_WORTH_SHARES = cumulative([18, 6, 8, 8, 10, 17, 13, 10, 10]);
const HOME_VALUE_SHARES = cumulative([2, 3, 5, 6, 13, 13, 11, 10, 8, 14, 12, 3]);

/** Home-price level of a state against the national median, in standard deviations. */
const STATE_HOME_EFFECT: Readonly<Record<string, number>> = {
  HI: 1.0,
  CA: 0.9,
  DC: 0.9,
  MA: 0.7,
  WA: 0.6,
  CO: 0.5,
  NY: 0.5,
  NJ: 0.5,
  OR: 0.3,
  CT: 0.3,
  MD: 0.3,
  UT: 0.3,
  VA: 0.2,
  NH: 0.2,
  RI: 0.2,
  MT: 0.1,
  ID: 0.1,
  NV: 0.1,
  AZ: 0.1,
  FL: 0.1,
  WV: -0.7,
  MS: -0.6,
  AR: -0.5,
  OK: -0.5,
  AL: -0.4,
  KY: -0.4,
  IN: -0.4,
  LA: -0.3,
  IA: -0.3,
  KS: -0.3,
  OH: -0.3,
  MO: -0.3,
  MI: -0.3,
  NE: -0.2,
  SD: -0.2,
  ND: -0.2,
  NM: -0.2,
  TN: -0.1,
  SC: -0.1,
  PA: -0.1,
  WI: -0.1,
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

const SETTINGS = new Choice<Setting>(['urban', 'suburban', 'rural'], [0.3, 0.5, 0.2]);

function lognormal(rng: Rng, median: number, sigma: number): number {
  return median * Math.exp(rng.normal() * sigma);
}

function clampRound(v: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, Math.round(v)));
}

export function makeHousehold(rng: Rng, addresses: AddressMaker): Household {
  const members = composition(rng);
  const head = members[0]!;
  const setting = SETTINGS.draw(rng);

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
  let adults = 0;
  let youngest = 200;
  let hasAdultChild = false;
  for (const m of members) {
    if (m.role === 'child') hasAdultChild = true;
    else adults++;
    youngest = Math.min(youngest, m.age);
  }
  let affluence = EDUCATION_EFFECT[educations[0]!] + AGE_INCOME_EFFECT[band]! + (OCCUPATION_EFFECT[occupations[0]!] ?? 0);
  if (adults > 1) affluence += 0.45 + 0.3 * (OCCUPATION_EFFECT[occupations[1]!] ?? 0);
  if (hasAdultChild) affluence += 0.1;
  affluence += rng.normal() * 0.75;
  const incomeIndex = bracket(affluence, 1.25, INCOME_SHARES);
  const tier = tierOf(incomeIndex);

  const pOwn =
    OWN_BY_AGE[band]! +
    (head.married ? 0.12 : 0) +
    (affluence > 0.5 ? 0.1 : affluence < -0.7 ? -0.15 : 0) +
    (setting === 'rural' ? 0.08 : setting === 'urban' ? -0.1 : 0);
  const owner = rng.chance(Math.max(0.01, Math.min(0.97, pOwn)));

  const address = addresses.draw(rng, !owner);
  const wealth = 0.65 * affluence + AGE_WEALTH_EFFECT[band]! + (owner ? 0.4 : 0) - 0.45 + rng.normal() * 0.6;
  const netWorth = NET_WORTHS[bracket(wealth, 1.2, NET_WORTH_SHARES)]!;
  let homeValue: HomeMarketValue | undefined;
  if (owner) {
    const price =
      0.7 * affluence -
      0.25 +
      (STATE_HOME_EFFECT[address.place.state] ?? 0) +
      (setting === 'urban' ? 0.2 : setting === 'rural' ? -0.3 : 0) +
      rng.normal() * 0.6;
    homeValue = HOME_MARKET_VALUES[bracket(price, 1.1, HOME_VALUE_SHARES)]!;
  }

  const maxYears = Math.max(0, Math.min(head.age - 18, youngest - 1));
  const meanYears = owner ? 10 : 3.5;
  const residenceYears = Math.min(maxYears, Math.floor(-Math.log(1 - rng.float()) * meanYears));

  const pKids = hasAdultChild
    ? head.age < 55
      ? 0.3
      : 0.06
    : Math.min(0.85, KIDS_BY_AGE[band]! * (adults > 1 ? 1.3 : head.married ? 1.1 : 0.7));
  const kids = rng.chance(pKids);

  const profile = { age: band, tier, kids, alone: members.length === 1, setting };
  const lifeStage = chooseLifeStage(rng, profile);
  const financialPick = rng.chance(0.95) ? chooseFinancial(rng, profile) : undefined;

  let rfm: Rfm | undefined;
  if (rng.chance(0.85)) {
    rfm = {
      offlineAvgDays: clampRound(lognormal(rng, 40, 0.6), 1, 365),
      onlineAvgDays: clampRound(lognormal(rng, band <= 2 ? 18 : band >= 6 ? 75 : 35, 0.7), 1, 365),
      avgDollars: clampRound(lognormal(rng, DOLLARS_BY_TIER[tier]!, 0.5), 5, 5000),
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
