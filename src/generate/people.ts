/**
 * `generatePeople`: a lazy, deterministic stream of synthetic people with their activity.
 *
 * Determinism: everything comes from seeded streams named after the seed — `/people` (households,
 * people, emails), `/activity` (events), `/world` (the invented company domains) — so the same
 * count, seed and today give the same records, and a smaller count gives a prefix of a larger one.
 * Activity has its own stream, so leaving it out (`activity: false`) changes no person; so can a
 * later stream (query variants with known truth for the identity evaluation, `/queries`) be added
 * from each item's `truth` without changing anything already generated.
 */
import { ActivityMaker, activityRecords } from './activity.js';
import { AddressMaker, type StreetAddress } from './address.js';
import { DayFormatter, parseDay, utcToday } from './days.js';
import { EmailMaker } from './emails.js';
import { makeHousehold, type Household } from './household.js';
import { ageLabel, type Member, type Role } from './members.js';
import { interestsFor } from './interests.js';
import { NameMaker } from './names.js';
import { Rng } from './random.js';
import type { ActivityImportRecord, PersonImportRecord } from './records.js';

export interface GenerateOptions {
  count: number;
  seed: string | number;
  /** `YYYY-MM-DD`: activity and order dates end here. Defaults to the current UTC date. */
  today?: string;
  /** False skips activity (empty arrays) without changing the people. Default true. */
  activity?: boolean;
}

/** What the generator knows beyond the record: the truth a query variant is checked against. */
export interface PersonTruth {
  /** `H0000001`: members of one household share it (and address, last name, household fields). */
  householdId: string;
  role: Role;
  /** Whole years (the record carries the band). */
  ageYears: number;
  /** The parts of `person.address`. */
  street: StreetAddress;
}

export interface GeneratedPerson {
  person: PersonImportRecord;
  activity: ActivityImportRecord[];
  truth: PersonTruth;
}

const pad = (n: number) => String(n).padStart(7, '0');

/** A person with their activity still encoded (activity.ts): what the file writer consumes. */
export interface RawPerson {
  person: PersonImportRecord;
  truth: PersonTruth;
  /** One entry per email, in the order of `person.emails`; empty without activity. */
  events: Float64Array[];
  days: DayFormatter;
}

export function* generatePeople(options: GenerateOptions): Generator<GeneratedPerson> {
  for (const raw of generateRaw(options)) {
    const activity: ActivityImportRecord[] = [];
    for (let i = 0; i < raw.events.length; i++) activityRecords(raw.person.emails[i]!, raw.events[i]!, raw.days, activity);
    yield { person: raw.person, activity, truth: raw.truth };
  }
}

export function* generateRaw(options: GenerateOptions): Generator<RawPerson> {
  const { count } = options;
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a whole number ≥ 0, not ${count}`);
  const todayText = options.today ?? utcToday();
  const today = parseDay(todayText);
  if (today === undefined) throw new RangeError(`today must be a date YYYY-MM-DD, not ${JSON.stringify(todayText)}`);
  const seed = String(options.seed);
  const withActivity = options.activity ?? true;

  const rng = new Rng(`${seed}/people`);
  const activityRng = new Rng(`${seed}/activity`);
  const addresses = new AddressMaker();
  const names = new NameMaker();
  const emails = new EmailMaker(new Rng(`${seed}/world`), count);
  const activity = new ActivityMaker(today);
  const days = new DayFormatter(today);
  const year = Number(todayText.slice(0, 4));

  let made = 0;
  let households = 0;
  while (made < count) {
    const household = makeHousehold(rng, addresses);
    const householdId = `H${pad(++households)}`;
    const lastName = names.lastName(rng);
    const firstNames: string[] = [];
    for (const member of household.members) {
      if (made >= count) break;
      const first = names.firstName(rng, member.gender, firstNames);
      firstNames.push(first);
      const middle = names.middleName(rng, member.gender, first);
      const birthYear = year - member.age - (rng.chance(0.5) ? 1 : 0);
      const addressList = emails.emailsFor(rng, {
        first,
        middle,
        last: lastName,
        age: member.age,
        birthYear,
        occupation: member.occupation,
      });
      const person = record(`P${pad(++made)}`, addressList, first, middle, lastName, member, household, today, days, rng);
      const events: Float64Array[] = [];
      if (withActivity) for (let i = 0; i < addressList.length; i++) events.push(activity.eventsFor(activityRng));
      yield { person, events, days, truth: { householdId, role: member.role, ageYears: member.age, street: household.address.street } };
    }
  }
}

function record(
  id: string,
  emails: string[],
  first: string,
  middle: string | undefined,
  last: string,
  m: Member,
  h: Household,
  today: number,
  days: DayFormatter,
  rng: Rng,
): PersonImportRecord {
  // One shape for every record (fast in V8); JSON.stringify leaves out the undefined fields.
  const rfm = h.rfm;
  return {
    person_id: id,
    emails,
    first_name: first,
    middle_name: middle,
    last_name: last,
    address: h.address.line,
    city: h.address.place.city,
    state: h.address.place.state,
    zip: h.address.zip,
    age: ageLabel(m.age),
    gender: m.gender,
    household_income: h.income,
    net_worth: h.netWorth,
    home_market_value: h.homeValue,
    home_owner_status: h.owner ? 'Own' : 'Rent',
    length_of_residence: h.residence,
    marital_status: m.married ? 'Married' : 'Single',
    presence_of_children: h.kids ? 'Yes' : 'No',
    education: m.education,
    occupation: m.occupation,
    rfm_offline_avg_days: rfm?.offlineAvgDays,
    rfm_online_avg_days: rfm?.onlineAvgDays,
    rfm_avg_dollars: rfm?.avgDollars,
    rfm_last_order: rfm && days.format(today - rfm.lastOrderDaysAgo),
    life_stage_segment: h.lifeStage.segment,
    life_stage_group: h.lifeStage.group,
    financial_segment: h.financial?.segment,
    financial_group: h.financial?.group,
    interests: interestsFor(rng, m, h),
  };
}
