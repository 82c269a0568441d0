/**
 * Which segment and group a household gets. The reference lists 70 life-stage segments rolling up
 * into 21 groups and 54 financial segments into 13 groups, without saying which rolls into which:
 * the tables below are our own plausible assignment (by name), each group with the householder
 * ages, affluence and children it describes. Every catalog value appears exactly once (tested),
 * and a record's group is always the group of its segment.
 */
import type { FinancialGroup, FinancialSegment, LifeStageGroup, LifeStageSegment } from './records.js';
import type { Rng } from './random.js';

/** Index into AGES: 0 `18-20` … 6 `65+`. */
export type AgeBand = 0 | 1 | 2 | 3 | 4 | 5 | 6;
/** Affluence from household income: 0 under 25k, 1 25–50k, 2 50–100k, 3 100–200k, 4 200k+. */
export type Tier = 0 | 1 | 2 | 3 | 4;
export type Setting = 'urban' | 'suburban' | 'rural';

interface GroupProfile {
  ages: [AgeBand, AgeBand];
  tiers: [Tier, Tier];
  /** Children at home: required, excluded, or either. */
  kids: 'yes' | 'no' | 'any';
  /** Single-person households only. */
  alone?: boolean;
  setting?: Setting;
}

interface SegmentEntry<S, G> {
  segment: S;
  group: G;
  setting?: Setting;
}

const LIFE_STAGE_GROUP_PROFILES: Readonly<Record<LifeStageGroup, GroupProfile>> = {
  'Starting Out': { ages: [0, 2], tiers: [0, 2], kids: 'no' },
  'Taking Hold': { ages: [1, 3], tiers: [2, 3], kids: 'no' },
  'Settling Down': { ages: [1, 3], tiers: [0, 2], kids: 'yes' },
  'Social Connectors': { ages: [2, 3], tiers: [1, 2], kids: 'no' },
  'Busy Households': { ages: [2, 4], tiers: [2, 3], kids: 'yes' },
  'Working & Studying': { ages: [0, 3], tiers: [0, 1], kids: 'any' },
  'Career Oriented': { ages: [2, 4], tiers: [3, 4], kids: 'no' },
  'Large Households': { ages: [3, 4], tiers: [1, 3], kids: 'yes' },
  'Comfortable Independence': { ages: [4, 5], tiers: [2, 3], kids: 'no', alone: true },
  'Rural-Metro Mix': { ages: [4, 5], tiers: [1, 2], kids: 'any', setting: 'rural' },
  'Affluent Households': { ages: [3, 5], tiers: [4, 4], kids: 'any' },
  'Comfortable Households': { ages: [4, 5], tiers: [2, 3], kids: 'any' },
  'Working Households': { ages: [3, 5], tiers: [1, 2], kids: 'any' },
  'Diverging Paths': { ages: [4, 5], tiers: [0, 1], kids: 'any' },
  'Top Wealth': { ages: [5, 6], tiers: [4, 4], kids: 'no' },
  'Living Well': { ages: [6, 6], tiers: [3, 3], kids: 'no' },
  'Bargain Hunters': { ages: [6, 6], tiers: [0, 0], kids: 'no' },
  'Thrifty and Active': { ages: [5, 6], tiers: [1, 1], kids: 'no' },
  'Solid Prestige': { ages: [5, 6], tiers: [3, 3], kids: 'no' },
  'Community Minded': { ages: [5, 6], tiers: [1, 2], kids: 'no', setting: 'rural' },
  'Leisure Seekers': { ages: [6, 6], tiers: [2, 2], kids: 'no' },
};

const ls = (segment: LifeStageSegment, group: LifeStageGroup, setting?: Setting) => ({ segment, group, setting });

/** Segment → group, in the reference's segment order. */
export const LIFE_STAGE_TABLE: readonly SegmentEntry<LifeStageSegment, LifeStageGroup>[] = [
  ls('Summit Estates', 'Top Wealth'),
  ls('Established Elite', 'Top Wealth'),
  ls('Corporate Connected', 'Career Oriented', 'urban'),
  ls('Top Professionals', 'Affluent Households'),
  ls('Active & Involved', 'Affluent Households'),
  ls('Casual Comfort', 'Comfortable Households'),
  ls('Active Lifestyles', 'Comfortable Independence'),
  ls('Solid Surroundings', 'Comfortable Households', 'suburban'),
  ls('Busy Schedules', 'Busy Households'),
  ls('Careers & Travel', 'Career Oriented'),
  ls('Schools & Shopping', 'Busy Households', 'suburban'),
  ls('On the Go', 'Busy Households'),
  ls('Work & Play', 'Social Connectors'),
  ls('Career Centered', 'Career Oriented'),
  ls('Country Ways', 'Large Households', 'rural'),
  ls('Country Enthusiasts', 'Rural-Metro Mix', 'rural'),
  ls('Firmly Established', 'Affluent Households', 'suburban'),
  ls('Climbing the Ladder', 'Taking Hold'),
  ls('Country Comfort', 'Rural-Metro Mix', 'rural'),
  ls('Carving Out Time', 'Busy Households'),
  ls('Children First', 'Settling Down'),
  ls('Comfortable Cornerstones', 'Comfortable Households'),
  ls('Good Neighbors', 'Large Households', 'suburban'),
  ls('Career Building', 'Taking Hold'),
  ls('Clubs & Causes', 'Living Well'),
  ls('Getting Established', 'Taking Hold'),
  ls('Tenured Proprietors', 'Top Wealth'),
  ls('Community Pillars', 'Solid Prestige'),
  ls('City Mixers', 'Social Connectors', 'urban'),
  ls('Out & About', 'Social Connectors'),
  ls('Mid-Americana', 'Working Households'),
  ls('Metro Mix', 'Social Connectors', 'urban'),
  ls('Urban Diversity', 'Working & Studying', 'urban'),
  ls('Outward Bound', 'Diverging Paths'),
  ls('Working & Active', 'Working Households'),
  ls('Persistent & Productive', 'Working Households'),
  ls('Firm Foundations', 'Solid Prestige'),
  ls('Occupational Mix', 'Working & Studying'),
  ls('Setting Goals', 'Taking Hold'),
  ls('Great Outdoors', 'Diverging Paths', 'rural'),
  ls('Rural Adventure', 'Rural-Metro Mix', 'rural'),
  ls('Creative Variety', 'Working & Studying'),
  ls('Work & Causes', 'Community Minded'),
  ls('Open Houses', 'Community Minded'),
  ls('Offices & Entertainment', 'Career Oriented', 'urban'),
  ls('Rural & Active', 'Large Households', 'rural'),
  ls('Rural Parents', 'Settling Down', 'rural'),
  ls('Farm & Home', 'Rural-Metro Mix', 'rural'),
  ls('Home & Garden', 'Leisure Seekers'),
  ls('Rural Community', 'Community Minded', 'rural'),
  ls('Role Models', 'Living Well'),
  ls('Stylish & Striving', 'Taking Hold', 'urban'),
  ls('Metro Strivers', 'Starting Out', 'urban'),
  ls('Work & Outdoors', 'Working Households', 'rural'),
  ls('Community Life', 'Large Households'),
  ls('Metro Active', 'Diverging Paths', 'urban'),
  ls('Collegiate Crowd', 'Starting Out'),
  ls('Outdoor Fervor', 'Diverging Paths'),
  ls('Mobile Mixers', 'Starting Out'),
  ls('Rural & Mobile', 'Starting Out', 'rural'),
  ls('City Life', 'Starting Out', 'urban'),
  ls('Movies & Sports', 'Comfortable Independence'),
  ls('Staying Home', 'Bargain Hunters'),
  ls('Practical & Careful', 'Bargain Hunters'),
  ls('Hobbies & Shopping', 'Leisure Seekers'),
  ls('Helping Hands', 'Settling Down'),
  ls('First Steps', 'Settling Down'),
  ls('Staying Healthy', 'Thrifty and Active'),
  ls('Productive Havens', 'Thrifty and Active'),
  ls('Favorably Frugal', 'Bargain Hunters'),
];

const FINANCIAL_GROUP_PROFILES: Readonly<Record<FinancialGroup, GroupProfile>> = {
  'Market Watchers': { ages: [4, 6], tiers: [3, 4], kids: 'any' },
  'Conservative Wealth': { ages: [5, 6], tiers: [3, 4], kids: 'any' },
  'Specific Savers': { ages: [3, 5], tiers: [2, 3], kids: 'any' },
  'Tried and True': { ages: [5, 6], tiers: [1, 2], kids: 'any' },
  'Trendy Inclinations': { ages: [1, 3], tiers: [2, 4], kids: 'any' },
  'Current Consumers': { ages: [0, 3], tiers: [0, 1], kids: 'any' },
  'Rural Trust': { ages: [4, 6], tiers: [1, 3], kids: 'any', setting: 'rural' },
  'City Spotlight': { ages: [1, 3], tiers: [2, 4], kids: 'any', setting: 'urban' },
  'Career Conscious': { ages: [2, 4], tiers: [2, 3], kids: 'any' },
  'Digital Financiers': { ages: [1, 4], tiers: [2, 4], kids: 'any' },
  'Financial Futures': { ages: [0, 2], tiers: [0, 2], kids: 'any' },
  'Stable Influentials': { ages: [4, 6], tiers: [2, 3], kids: 'any' },
  'Conservatively Rural': { ages: [3, 6], tiers: [0, 1], kids: 'any', setting: 'rural' },
};

const fs = (segment: FinancialSegment, group: FinancialGroup) => ({ segment, group });

/** Financial segment → group, in the reference's segment order. */
export const FINANCIAL_TABLE: readonly SegmentEntry<FinancialSegment, FinancialGroup>[] = [
  fs('Involved Investors', 'Market Watchers'),
  fs('Active Savers', 'Specific Savers'),
  fs('Traditional Savers', 'Conservative Wealth'),
  fs('Informed Control', 'Market Watchers'),
  fs('Solid Investments', 'Conservative Wealth'),
  fs('Hearth and Home', 'Tried and True'),
  fs('Online Financiers', 'Digital Financiers'),
  fs('Investing in Collections', 'Stable Influentials'),
  fs('Adventurous Investors', 'Market Watchers'),
  fs('Comfortable Borrowers', 'Current Consumers'),
  fs('Personal Service', 'Conservative Wealth'),
  fs('Branded Influence', 'Trendy Inclinations'),
  fs('Asking Advice', 'Tried and True'),
  fs('Value Shoppers', 'Conservatively Rural'),
  fs('Brand Variety', 'Trendy Inclinations'),
  fs('Online Automation', 'Digital Financiers'),
  fs('Online Learners', 'Financial Futures'),
  fs('Trust Triumphs', 'Rural Trust'),
  fs('Limited Risk Traditionalists', 'Conservative Wealth'),
  fs('Thrill of the Ride', 'City Spotlight'),
  fs('Learn and Prepare', 'Financial Futures'),
  fs('Naturally Organized', 'Specific Savers'),
  fs('Eye on the Economy', 'Market Watchers'),
  fs('Daily Demands', 'Current Consumers'),
  fs('Balance Vigilant', 'Specific Savers'),
  fs('Comfort Zone', 'Tried and True'),
  fs('Online Managers', 'Digital Financiers'),
  fs('Quality Conscious', 'Stable Influentials'),
  fs('Traction for Today', 'Current Consumers'),
  fs('In the Moment', 'Current Consumers'),
  fs('Collectors Clubs', 'Stable Influentials'),
  fs('Quality over Price', 'Trendy Inclinations'),
  fs('Studied Purchasers', 'Career Conscious'),
  fs('Deal Seekers', 'Conservatively Rural'),
  fs('Worth the Risk', 'City Spotlight'),
  fs('Online Influencers', 'City Spotlight'),
  fs('Sophisticated Environmentalists', 'City Spotlight'),
  fs('Budget Optimists', 'Financial Futures'),
  fs('Spontaneous Spenders', 'Trendy Inclinations'),
  fs('Coupon Cutters', 'Conservatively Rural'),
  fs('Fluent Advisors', 'Career Conscious'),
  fs('Financial Freewheelers', 'Current Consumers'),
  fs('Real Life Recommendations', 'Rural Trust'),
  fs('Civic Centered', 'Rural Trust'),
  fs('Prestige Seekers', 'Trendy Inclinations'),
  fs('Informed Shoppers', 'Career Conscious'),
  fs('Technology Trenders', 'Digital Financiers'),
  fs('Future Fundamentals', 'Financial Futures'),
  fs('Online Leaders', 'Digital Financiers'),
  fs('Online Connectors', 'Digital Financiers'),
  fs('Traditional Moderation', 'Tried and True'),
  fs('Work and Save', 'Specific Savers'),
  fs('Temperate Technology', 'Career Conscious'),
  fs('Independent Investors', 'Market Watchers'),
];

export interface HouseholdProfile {
  /** The householder's (oldest member's) age band. */
  age: AgeBand;
  tier: Tier;
  kids: boolean;
  alone: boolean;
  setting: Setting;
}

/**
 * How far a group's profile is from a household: 0 is a perfect fit. Ages weigh most, so a
 * 25-year-old is never filed with retirees for lack of a closer tier.
 */
function outside(v: number, range: [number, number]): number {
  return v < range[0] ? range[0] - v : v > range[1] ? v - range[1] : 0;
}

function misfit(profile: GroupProfile, h: HouseholdProfile): number {
  let score = 3 * outside(h.age, profile.ages) + 1.5 * outside(h.tier, profile.tiers);
  if (profile.kids === 'yes' && !h.kids) score += 2;
  if (profile.kids === 'no' && h.kids) score += 2;
  if (profile.alone && !h.alone) score += 1;
  if (profile.setting !== undefined && profile.setting !== h.setting) score += 1;
  return score;
}

/**
 * Groups of the best fit (ties drawn uniformly), then a segment of it, preferring the household's
 * setting. The fit only depends on a few small numbers, so each answer is worked out once.
 */
const SETTING_CODE: Readonly<Record<Setting, number>> = { urban: 0, suburban: 1, rural: 2 };

class Chooser<S, G extends string> {
  private readonly groups: G[];
  private readonly members = new Map<G, SegmentEntry<S, G>[]>();
  private readonly fits = new Map<number, { groups: G[]; weights: Map<G, number[]> }>();

  constructor(
    table: readonly SegmentEntry<S, G>[],
    private readonly profiles: Readonly<Record<G, GroupProfile>>,
  ) {
    this.groups = Object.keys(profiles) as G[];
    for (const group of this.groups) this.members.set(group, []);
    for (const entry of table) this.members.get(entry.group)!.push(entry);
  }

  choose(rng: Rng, h: HouseholdProfile): SegmentEntry<S, G> {
    const key = h.age * 100 + h.tier * 20 + (h.kids ? 10 : 0) + (h.alone ? 5 : 0) + SETTING_CODE[h.setting];
    let fit = this.fits.get(key);
    if (fit === undefined) {
      let best = Infinity;
      let groups: G[] = [];
      for (const group of this.groups) {
        const score = misfit(this.profiles[group], h);
        if (score < best) {
          best = score;
          groups = [group];
        } else if (score === best) groups.push(group);
      }
      const weights = new Map<G, number[]>();
      for (const group of groups) {
        weights.set(
          group,
          this.members.get(group)!.map((e) => (e.setting === undefined ? 1 : e.setting === h.setting ? 2 : 0.15)),
        );
      }
      fit = { groups, weights };
      this.fits.set(key, fit);
    }
    const group = rng.pick(fit.groups);
    return this.members.get(group)![rng.weightedIndex(fit.weights.get(group)!)]!;
  }
}

const lifeStages = new Chooser(LIFE_STAGE_TABLE, LIFE_STAGE_GROUP_PROFILES);
const financials = new Chooser(FINANCIAL_TABLE, FINANCIAL_GROUP_PROFILES);

export function chooseLifeStage(rng: Rng, h: HouseholdProfile): SegmentEntry<LifeStageSegment, LifeStageGroup> {
  return lifeStages.choose(rng, h);
}

export function chooseFinancial(rng: Rng, h: HouseholdProfile): SegmentEntry<FinancialSegment, FinancialGroup> {
  return financials.choose(rng, h);
}

export const LIFE_STAGE_GROUP_OF: ReadonlyMap<string, string> = new Map(LIFE_STAGE_TABLE.map((e) => [e.segment, e.group]));
export const FINANCIAL_GROUP_OF: ReadonlyMap<string, string> = new Map(FINANCIAL_TABLE.map((e) => [e.segment, e.group]));
