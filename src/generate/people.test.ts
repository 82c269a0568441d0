import { describe, expect, it } from 'vitest';
import { AGES, INTERESTS } from '../people/catalog.js';
import { activityFrom } from '../people/activity-record.js';
import { personFrom } from '../people/person-record.js';
import { classifySyntax } from '../verification/syntax.js';
import { parseDay } from './days.js';
import { generatePeople, type GeneratedPerson } from './people.js';
import { zipReference } from './reference-data.js';
import { FINANCIAL_GROUP_OF, LIFE_STAGE_GROUP_OF } from './segments.js';

const TODAY = '2026-11-22';
const take = (count: number, seed: string | number = 'test', activity = true): GeneratedPerson[] => [
  ...generatePeople({ count, seed, today: TODAY, activity }),
];
const sample = take(10_000);

/** Fields every member of a household shares. */
const HOUSEHOLD_FIELDS = [
  'last_name',
  'address',
  'city',
  'state',
  'zip',
  'household_income',
  'net_worth',
  'home_market_value',
  'home_owner_status',
  'length_of_residence',
  'presence_of_children',
  'rfm_offline_avg_days',
  'rfm_online_avg_days',
  'rfm_avg_dollars',
  'rfm_last_order',
  'life_stage_segment',
  'life_stage_group',
  'financial_segment',
  'financial_group',
] as const;

describe('generatePeople: determinism', () => {
  it('gives the same records for the same count, seed and today', () => {
    const a = take(1000, 42).map((p) => JSON.stringify(p));
    const b = take(1000, 42).map((p) => JSON.stringify(p));
    expect(a).toEqual(b);
  });

  it('gives other records for another seed', () => {
    const a = take(1000, 42).map((p) => JSON.stringify(p.person));
    const b = take(1000, 43).map((p) => JSON.stringify(p.person));
    expect(a.filter((line, i) => line === b[i])).toEqual([]);
  });

  it('makes a smaller dataset a prefix of a larger one', () => {
    const small = take(300).map((p) => JSON.stringify(p));
    expect(sample.slice(0, 300).map((p) => JSON.stringify(p))).toEqual(small);
  });

  it('leaves the people unchanged when activity is skipped', () => {
    const without = take(500, 'test', false);
    expect(without.map((p) => p.person)).toEqual(sample.slice(0, 500).map((p) => p.person));
    expect(without.every((p) => p.activity.length === 0)).toBe(true);
  });

  it('numbers people P0000001, P0000002, … in order', () => {
    expect(sample.slice(0, 3).map((p) => p.person.person_id)).toEqual(['P0000001', 'P0000002', 'P0000003']);
    expect(sample.at(-1)!.person.person_id).toBe('P0010000');
  });

  it('refuses a bad count or today', () => {
    expect(() => take(-1)).toThrow(RangeError);
    expect(() => [...generatePeople({ count: 1, seed: 1, today: '2026-02-30' })]).toThrow(RangeError);
  });
});

describe('generatePeople: records the importer accepts', () => {
  it('passes personFrom with no problems (5,000 people)', () => {
    const problems = sample.slice(0, 5000).flatMap((p) => {
      const checked = personFrom(JSON.parse(JSON.stringify(p.person)) as Record<string, unknown>);
      return 'problems' in checked ? [`${p.person.person_id}: ${checked.problems.join('; ')}`] : [];
    });
    expect(problems).toEqual([]);
  });

  it('gives every person 1 to 3 addresses that pass classifySyntax, unique across the dataset', () => {
    const all = sample.flatMap((p) => p.person.emails);
    for (const p of sample) {
      expect(p.person.emails.length).toBeGreaterThanOrEqual(1);
      expect(p.person.emails.length).toBeLessThanOrEqual(3);
    }
    const bad = all.filter((email) => {
      const verdict = classifySyntax(email);
      return !verdict.ok || verdict.address !== email;
    });
    expect(bad).toEqual([]);
    expect(new Set(all).size).toBe(all.length);
  });

  it('mixes free providers and company domains', () => {
    const domains = new Map<string, number>();
    for (const p of sample) for (const e of p.person.emails) domains.set(e.split('@')[1]!, (domains.get(e.split('@')[1]!) ?? 0) + 1);
    for (const free of ['gmail.com', 'yahoo.com', 'outlook.com', 'hotmail.com', 'aol.com', 'icloud.com', 'comcast.net']) {
      expect(domains.get(free) ?? 0).toBeGreaterThan(20);
    }
    expect(domains.get('gmail.com')! / sample.length).toBeGreaterThan(0.3);
    expect(domains.size).toBeGreaterThan(300);
  });

  it('uses real ZIP/city/state combinations and ZIP+4', () => {
    const zips = zipReference();
    const wrong = sample.filter(({ person: p }) => {
      const place = zips.get(p.zip.slice(0, 5));
      return !/^\d{5}-\d{4}$/.test(p.zip) || place === undefined || place.city !== p.city || place.state !== p.state;
    });
    expect(wrong).toEqual([]);
    expect(new Set(sample.map((p) => p.person.state)).size).toBe(51);
  });

  it('writes interests in catalog order, a few each', () => {
    const lists = sample.map((p) => p.person.interests ?? []);
    for (const list of lists) {
      expect(list).toEqual(INTERESTS.filter((i) => list.includes(i)));
      expect(list.length).toBeLessThanOrEqual(7);
    }
    const mean = lists.reduce((n, l) => n + l.length, 0) / lists.length;
    expect(mean).toBeGreaterThan(1.5);
    expect(mean).toBeLessThan(5);
  });

  it('leaves a middle name out for some and gives an initial to others', () => {
    const middles = sample.map((p) => p.person.middle_name);
    const absent = middles.filter((m) => m === undefined).length / middles.length;
    const initials = middles.filter((m) => m !== undefined && m.length === 1).length / middles.length;
    expect(absent).toBeGreaterThan(0.25);
    expect(absent).toBeLessThan(0.45);
    expect(initials).toBeGreaterThan(0.08);
  });
});

describe('generatePeople: households', () => {
  const byHousehold = new Map<string, GeneratedPerson[]>();
  for (const p of sample) byHousehold.set(p.truth.householdId, [...(byHousehold.get(p.truth.householdId) ?? []), p]);

  it('puts 30–40 % of people at an address and last name shared with another person', () => {
    const key = (p: GeneratedPerson) => `${p.person.last_name}|${p.person.address}|${p.person.zip}`;
    const counts = new Map<string, number>();
    for (const p of sample) counts.set(key(p), (counts.get(key(p)) ?? 0) + 1);
    const sharing = sample.filter((p) => counts.get(key(p))! > 1).length / sample.length;
    expect(sharing).toBeGreaterThanOrEqual(0.3);
    expect(sharing).toBeLessThanOrEqual(0.4);
  });

  it('gives members of a household identical household fields', () => {
    for (const members of byHousehold.values()) {
      const [first, ...rest] = members;
      for (const other of rest) {
        for (const field of HOUSEHOLD_FIELDS) expect(other.person[field], field).toEqual(first!.person[field]);
      }
    }
  });

  it('makes couples married and opposite-sex mostly, adult children single', () => {
    const spouses = sample.filter(
      (p) =>
        p.truth.role === 'spouse' ||
        (p.truth.role === 'head' && byHousehold.get(p.truth.householdId)!.some((o) => o.truth.role === 'spouse')),
    );
    expect(spouses.every((p) => p.person.marital_status === 'Married')).toBe(true);
    const children = sample.filter((p) => p.truth.role === 'child');
    expect(children.length).toBeGreaterThan(100);
    expect(children.every((p) => p.person.marital_status === 'Single')).toBe(true);
  });

  it('gives first names of the person gender, different within a household', () => {
    for (const members of byHousehold.values()) {
      const names = members.map((m) => m.person.first_name);
      expect(new Set(names).size).toBe(names.length);
    }
  });
});

describe('generatePeople: sane correlations', () => {
  const people = sample.map((p) => p.person);
  const years = (p: GeneratedPerson) => p.truth.ageYears;

  it('keeps the age band in line with the age', () => {
    for (const p of sample) {
      const band = AGES.indexOf(p.person.age);
      const lower = [18, 21, 25, 35, 45, 55, 65][band]!;
      expect(years(p)).toBeGreaterThanOrEqual(lower);
    }
  });

  it('never has an 18-20 year-old living somewhere 20+ years, nor longer than they lived', () => {
    expect(people.filter((p) => p.age === '18-20' && p.length_of_residence === '20+ years')).toEqual([]);
    const lowerYears = (label: string) =>
      label === 'Less than 1 year'
        ? 0
        : label === '11-15 years'
          ? 11
          : label === '16-19 years'
            ? 16
            : label === '20+ years'
              ? 20
              : parseInt(label, 10);
    expect(sample.filter((p) => lowerYears(p.person.length_of_residence) >= years(p))).toEqual([]);
  });

  it('gives owners a home value and renters none', () => {
    expect(people.filter((p) => p.home_owner_status === 'Rent' && p.home_market_value !== undefined)).toEqual([]);
    expect(people.filter((p) => p.home_owner_status === 'Own' && p.home_market_value === undefined)).toEqual([]);
    const owners = people.filter((p) => p.home_owner_status === 'Own').length / people.length;
    expect(owners).toBeGreaterThan(0.45);
    expect(owners).toBeLessThan(0.8);
  });

  it('rolls segments up into their groups', () => {
    for (const p of people) {
      expect(LIFE_STAGE_GROUP_OF.get(p.life_stage_segment)).toBe(p.life_stage_group);
      if (p.financial_segment !== undefined) expect(FINANCIAL_GROUP_OF.get(p.financial_segment)).toBe(p.financial_group);
      else expect(p.financial_group).toBeUndefined();
    }
  });

  it('keeps occupations plausible for the age', () => {
    expect(sample.filter((p) => p.person.occupation === 'Retired' && years(p) < 62)).toEqual([]);
    expect(sample.filter((p) => p.person.occupation === 'Student' && years(p) > 24)).toEqual([]);
    expect(sample.filter((p) => p.person.occupation === 'Executive/Upper Management' && years(p) < 35)).toEqual([]);
  });

  it('makes income rise with education and peak in middle age', () => {
    const median = (list: typeof people) => {
      const order = [
        '0-15k',
        '15k-25k',
        '25k-35k',
        '35k-50k',
        '50k-75k',
        '75k-100k',
        '100k-150k',
        '150k-175k',
        '175k-200k',
        '200k-250k',
        '250k+',
      ];
      const ranks = list.map((p) => order.indexOf(p.household_income)).sort((a, b) => a - b);
      return ranks[Math.floor(ranks.length / 2)]!;
    };
    const grads = people.filter((p) => p.education === 'Completed Graduate School' && p.age === '45-54');
    const highSchool = people.filter((p) => p.education === 'Completed High School' && p.age === '45-54');
    expect(median(grads)).toBeGreaterThan(median(highSchool));
    expect(median(people.filter((p) => p.age === '45-54'))).toBeGreaterThan(median(people.filter((p) => p.age === '18-20')));
  });

  it('puts young children with young parents, and baby products with young children', () => {
    const kids = (band: string) =>
      people.filter((p) => p.age === band && p.presence_of_children === 'Yes').length / people.filter((p) => p.age === band).length;
    expect(kids('35-44')).toBeGreaterThan(kids('65+') * 4);
    const babies = people.filter((p) => p.interests?.includes('baby_product_buyer'));
    expect(babies.filter((p) => p.presence_of_children === 'Yes').length / babies.length).toBeGreaterThan(0.8);
  });
});

describe('generatePeople: activity', () => {
  const today = parseDay(TODAY)!;
  const events = sample.flatMap((p) => p.activity);

  it('writes records the activity importer accepts', () => {
    const now = new Date(`${TODAY}T00:00:00Z`);
    const problems = events.slice(0, 20_000).flatMap((e) => {
      const checked = activityFrom(JSON.parse(JSON.stringify(e)) as Record<string, unknown>, now);
      return 'problems' in checked ? checked.problems : [];
    });
    expect(problems).toEqual([]);
  });

  it('gives each address 0 to 40 events in the 3 years before today, sorted, opens after a seen', () => {
    const perEmail = new Map<string, typeof events>();
    for (const p of sample) for (const email of p.person.emails) perEmail.set(email, []);
    for (const e of events) perEmail.get(e.email)!.push(e);
    let never = 0;
    let recentOnly = 0;
    let old = 0;
    for (const list of perEmail.values()) {
      expect(list.length).toBeLessThanOrEqual(40);
      if (list.length === 0) {
        never++;
        continue;
      }
      const dayList = list.map((e) => parseDay(e.seen_at)!);
      expect(dayList).toEqual([...dayList].sort((a, b) => a - b));
      expect(dayList[0]).toBeGreaterThanOrEqual(today - 1095);
      expect(dayList.at(-1)).toBeLessThanOrEqual(today);
      expect(list[0]!.event).toBe('seen');
      if (today - dayList[0]! <= 30) recentOnly++;
      if (today - dayList[0]! > 365) old++;
    }
    const emails = perEmail.size;
    expect(never / emails).toBeGreaterThan(0.05);
    expect(recentOnly / emails).toBeGreaterThan(0.04);
    expect(old / emails).toBeGreaterThan(0.4);
    const opens = events.filter((e) => e.event === 'open').length / events.length;
    expect(opens).toBeGreaterThan(0.05);
    expect(opens).toBeLessThan(0.5);
  });

  it('varies velocity and popularity', () => {
    const recent = new Map<string, { n: number; sources: Set<string> }>();
    for (const e of events) {
      const ago = today - parseDay(e.seen_at)!;
      const entry = recent.get(e.email) ?? { n: 0, sources: new Set<string>() };
      if (ago <= 182) entry.n++;
      if (ago <= 365) entry.sources.add(e.source);
      recent.set(e.email, entry);
    }
    const values = [...recent.values()];
    expect(values.filter((v) => v.n >= 16).length).toBeGreaterThan(20);
    expect(values.filter((v) => v.sources.size >= 5).length).toBeGreaterThan(20);
    expect(values.filter((v) => v.n === 0).length).toBeGreaterThan(100);
  });
});
