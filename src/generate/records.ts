/**
 * The import file formats of decisions §2, as the generator writes them: one person record and one
 * activity record a line of NDJSON (`mailsure import people|activity` reads them back).
 */
import type {
  AGES,
  EDUCATIONS,
  FINANCIAL_GROUPS,
  FINANCIAL_SEGMENTS,
  GENDERS,
  HOME_MARKET_VALUES,
  HOME_OWNER_STATUSES,
  HOUSEHOLD_INCOMES,
  INTERESTS,
  LENGTHS_OF_RESIDENCE,
  LIFE_STAGE_GROUPS,
  LIFE_STAGE_SEGMENTS,
  MARITAL_STATUSES,
  NET_WORTHS,
  OCCUPATIONS,
  PRESENCE_OF_CHILDREN,
} from '../people/catalog.js';

type Of<T extends readonly string[]> = T[number];

export type Age = Of<typeof AGES>;
export type Gender = Of<typeof GENDERS>;
export type HouseholdIncome = Of<typeof HOUSEHOLD_INCOMES>;
export type NetWorth = Of<typeof NET_WORTHS>;
export type HomeMarketValue = Of<typeof HOME_MARKET_VALUES>;
export type HomeOwnerStatus = Of<typeof HOME_OWNER_STATUSES>;
export type LengthOfResidence = Of<typeof LENGTHS_OF_RESIDENCE>;
export type MaritalStatus = Of<typeof MARITAL_STATUSES>;
export type PresenceOfChildren = Of<typeof PRESENCE_OF_CHILDREN>;
export type Education = Of<typeof EDUCATIONS>;
export type Occupation = Of<typeof OCCUPATIONS>;
export type LifeStageSegment = Of<typeof LIFE_STAGE_SEGMENTS>;
export type LifeStageGroup = Of<typeof LIFE_STAGE_GROUPS>;
export type FinancialSegment = Of<typeof FINANCIAL_SEGMENTS>;
export type FinancialGroup = Of<typeof FINANCIAL_GROUPS>;
export type Interest = Of<typeof INTERESTS>;

/** One line of a people file. Optional fields are undefined in memory and left out of the JSON, never null or "". */
export interface PersonImportRecord {
  /** Stable within a dataset: `P0000001`, `P0000002`, … in generation order. */
  person_id: string;
  /** 1 to 3 lower-case addresses, each unique across the dataset. */
  emails: string[];
  first_name: string;
  /** A full name or a single initial; absent for about a third of people. */
  middle_name?: string;
  last_name: string;
  /** Street line: house number, optional directional, name, USPS suffix, optional unit. */
  address: string;
  city: string;
  state: string;
  /** ZIP+4 `12345-6789`. */
  zip: string;
  age: Age;
  gender: Gender;
  household_income: HouseholdIncome;
  net_worth: NetWorth;
  /** Owners only. */
  home_market_value?: HomeMarketValue;
  home_owner_status: HomeOwnerStatus;
  length_of_residence: LengthOfResidence;
  marital_status: MaritalStatus;
  presence_of_children: PresenceOfChildren;
  education?: Education;
  occupation?: Occupation;
  rfm_offline_avg_days?: number;
  rfm_online_avg_days?: number;
  rfm_avg_dollars?: number;
  /** `YYYY-MM-DD`. */
  rfm_last_order?: string;
  life_stage_segment: LifeStageSegment;
  life_stage_group: LifeStageGroup;
  financial_segment?: FinancialSegment;
  financial_group?: FinancialGroup;
  /** Catalog order; absent when nothing was observed. */
  interests?: Interest[];
}

export interface ActivityImportRecord {
  email: string;
  source: string;
  /** `YYYY-MM-DD` (UTC). */
  seen_at: string;
  event: 'seen' | 'open';
}
