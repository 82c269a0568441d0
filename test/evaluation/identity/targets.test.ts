/**
 * The identity issue's acceptance targets, asserted on the evaluation `npm run eval:identity`
 * runs (generate → `mailsure import people`'s code into a SQLite file → query variants with known
 * truth → the identity matcher), at a small scale and on a seed of its own, so that it is not the
 * run docs/accuracy.md reports.
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importPeople } from '../../../src/cli/import/import-people.js';
import { generatePeople } from '../../../src/generate/people.js';
import { generateQueryVariants, NAME_FORM_KINDS, VARIANT_KINDS, type QueryVariant } from '../../../src/generate/query-variants.js';
import { NAME_VARIANT_KINDS } from '../../../src/generate/name-variant-kinds.js';
import { writeDataset } from '../../../src/generate/write-dataset.js';
import type { Storage } from '../../../src/storage/interfaces.js';
import { openStorage } from '../../../src/storage/open-storage.js';
import { createIdentityMatcher } from '../../../src/identity/match/index.js';
import type { IdentityMatcher } from '../../../src/identity/match/types.js';
import { evaluateMatcher, type EvaluationReport } from './evaluate-matcher.js';
import { corpusUrl } from '../../fixtures/corpora.js';
import { loadNicknamePairs } from './nickname-corpus.js';
import {
  addNameFormHouseholds,
  nameFormHouseholds,
  nameFormPeopleCount,
  nameFormVariants,
  writeNameFormPeople,
} from './name-form-population.js';
import * as addressForms from './address-form-population.js';
import { evaluatePostal, type PostalReport } from './evaluate-postal.js';
import { ADDRESS_FORM_KINDS, MAILBOX_KINDS } from '../../../src/generate/address-form-kinds.js';
import { generateMailboxVariants } from '../../../src/generate/mailbox-variants.js';
import { findPeopleByEmail } from '../../../src/people/mailbox-lookup.js';
import { normalizeEmail } from '../../../src/people/email-hash.js';

const PEOPLE = 2_500;
const SEED = 'targets';
const TODAY = '2026-11-22';
const nicknames = loadNicknamePairs(corpusUrl('nickname_pairs.json'));

const dir = mkdtempSync(join(tmpdir(), 'mailsure-identity-targets-'));
const quiet = new Writable({ write: (_c, _e, done) => done() }) as unknown as NodeJS.WriteStream;
let storage: Storage;
let matcher: IdentityMatcher;
let variants: QueryVariant[];
let households: Map<string, string>;
let report: EvaluationReport;
let postal: PostalReport;

beforeAll(async () => {
  const file = join(dir, 'people.ndjson');
  const out = createWriteStream(file);
  await writeDataset({ count: PEOPLE, seed: SEED, today: TODAY, people: out });
  const nameForms = nameFormHouseholds({ people: PEOPLE, seed: SEED, today: TODAY });
  writeNameFormPeople(out, nameForms);
  const addressFormSet = addressForms.addressFormHouseholds({ people: PEOPLE, seed: SEED, today: TODAY });
  addressForms.writeAddressFormPeople(out, addressFormSet);
  out.end();
  await finished(out);
  storage = await openStorage({ dataDir: dir });
  const write = process.stdout.write;
  process.stdout.write = (() => true) as never;
  try {
    expect(await importPeople(storage, file, { stream: quiet })).toMatchObject({
      status: 'finished',
      committed: PEOPLE + nameFormPeopleCount(nameForms) + addressForms.addressFormPeopleCount(addressFormSet),
      rejected: 0,
    });
  } finally {
    process.stdout.write = write;
  }
  const people = [...generatePeople({ count: PEOPLE, seed: SEED, today: TODAY, activity: false })];
  households = new Map(people.map(({ person, truth }) => [person.person_id, truth.householdId]));
  addNameFormHouseholds(households, nameForms);
  addressForms.addAddressFormHouseholds(households, addressFormSet);
  variants = [
    ...generateQueryVariants(people, { seed: SEED, perPerson: 2, nicknames }),
    ...nameFormVariants(people, nameForms, { seed: SEED, nicknames }),
    ...addressForms.addressFormVariants(addressFormSet, { seed: SEED }),
  ];
  matcher = createIdentityMatcher({ people: storage.people });
  report = await evaluateMatcher(matcher, variants, { households });
  postal = await evaluatePostal(
    async (emails) => {
      const found = await findPeopleByEmail(storage.people, emails.map(normalizeEmail));
      return new Map(emails.flatMap((e) => (found.has(normalizeEmail(e)) ? [[e, found.get(normalizeEmail(e))!.personKey]] : [])));
    },
    generateMailboxVariants(() => people, { seed: SEED }),
  );
}, 60_000);

afterAll(async () => {
  await storage?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe(`identity matching on ${PEOPLE.toLocaleString('en-US')} generated people (seed ${SEED})`, () => {
  it('ran every query, of every kind', () => {
    expect(report.variants).toBe(variants.length);
    expect(report.variants).toBeGreaterThan(4_900);
    expect(report.kinds.map((k) => k.kind).sort()).toEqual(
      [...VARIANT_KINDS, ...NAME_FORM_KINDS, ...ADDRESS_FORM_KINDS, ...NAME_VARIANT_KINDS].sort(),
    );
    // Enough claims that one wrong Individual in 200 would show.
    expect(report.individual.precision.total).toBeGreaterThan(5_000);
    expect(report.household.precision.total).toBeGreaterThan(1_500);
  });

  it('meets the targets: Individual precision ≥ 99.9 % and recall ≥ 97 %, Household precision ≥ 99 % (issue 30)', () => {
    expect(report.individual.precision.value).toBeGreaterThanOrEqual(0.999);
    expect(report.individual.recall.value).toBeGreaterThanOrEqual(0.97);
    expect(report.household.precision.value).toBeGreaterThanOrEqual(0.99);
  });

  it('finds the address forms real files carry, each at ≥ 97 % recall, and nobody for another road number or unit letter', () => {
    for (const kind of ADDRESS_FORM_KINDS) {
      const row = report.kinds.find((k) => k.kind === kind)!;
      expect(row.variants, kind).toBeGreaterThanOrEqual(20);
      if (row.individual.recall.total > 0) expect(row.individual.recall.value, kind).toBeGreaterThanOrEqual(0.97);
      if (row.household.recall.total > 0) expect(row.household.recall.value, kind).toBeGreaterThanOrEqual(0.97);
      expect(row.individual.precision.hits, `${kind}: wrong Individuals`).toBe(row.individual.precision.total);
      expect(row.household.precision.hits, `${kind}: wrong Household matches`).toBe(row.household.precision.total);
    }
    // A corrected ZIP is a weaker signal: an initial there gives the household, never the person.
    expect(report.kinds.find((k) => k.kind === 'other-zip-initial')!.individual.precision.total).toBe(0);
  });

  it('finds the same mailbox written another way for postal append (≥ 99 %), and nothing where dots make another mailbox', () => {
    expect(postal.kinds.map((k) => k.kind).sort()).toEqual([...MAILBOX_KINDS].sort());
    for (const row of postal.kinds) {
      expect(row.variants, row.kind).toBeGreaterThanOrEqual(20);
      if (row.recall.total > 0) expect(row.recall.value, row.kind).toBeGreaterThanOrEqual(0.99);
      expect(row.precision.value ?? 1, row.kind).toBeGreaterThanOrEqual(0.99);
    }
    const elsewhere = postal.kinds.find((k) => k.kind === 'mailbox-dots-elsewhere')!;
    // Nearly all of them name nobody; any answer must be the holder of that exact address.
    expect(elsewhere.recall.total).toBeLessThan(elsewhere.variants / 10);
    expect(elsewhere.precision.hits).toBe(elsewhere.precision.total);
    expect(postal.overall.recall.value).toBeGreaterThanOrEqual(0.99);
  });

  it('meets the Individual precision target on first initials, which owe nothing to the matcher’s tables', () => {
    // Overall precision hides a small kind: two members sharing an initial once both came back as
    // Individual, 94.8 % on this row while the whole stayed at 99.56 %.
    const initials = report.kinds.find((k) => k.kind === 'first-initial')!;
    const ambiguous = variants.filter((v) => v.kind === 'first-initial' && v.expect.individual === undefined);
    expect(ambiguous.length).toBeGreaterThan(3);
    expect(initials.individual.precision.total).toBeGreaterThan(200);
    expect(initials.individual.precision.value).toBeGreaterThanOrEqual(0.995);
    expect(initials.household.precision.value).toBeGreaterThanOrEqual(0.99);
  });

  it('finds the name forms real files carry, each at ≥ 95 % recall, and names no wrong Individual through them', () => {
    for (const kind of NAME_FORM_KINDS) {
      const row = report.kinds.find((k) => k.kind === kind)!;
      expect(row.variants, kind).toBeGreaterThanOrEqual(30);
      expect(row.individual.recall.value, kind).toBeGreaterThanOrEqual(0.95);
      expect(row.individual.precision.hits, `${kind}: wrong Individuals`).toBe(row.individual.precision.total);
      expect(row.household.precision.hits, `${kind}: wrong Household matches`).toBe(row.household.precision.total);
    }
    // The traps expect the household only where two members fit alike: those must stay Household.
    const alike = variants.filter((v) => v.kind.startsWith('trap-') && v.expect.individual === undefined);
    expect(alike.length).toBeGreaterThan(10);
  });

  it('finds the name forms of issue 30 and names no wrong Individual through them, near names above all', () => {
    // Spellings the matcher does not join (Geoffrey/Jeffrey, Sean/Shawn) are in the table on purpose.
    const recall: Record<string, number> = { 'spelling-variant': 0.8 };
    for (const kind of NAME_VARIANT_KINDS) {
      const row = report.kinds.find((k) => k.kind === kind)!;
      expect(row.variants, kind).toBeGreaterThanOrEqual(30);
      if (row.individual.recall.total > 0) expect(row.individual.recall.value, kind).toBeGreaterThanOrEqual(recall[kind] ?? 0.95);
      expect(row.individual.precision.hits, `${kind}: wrong Individuals`).toBe(row.individual.precision.total);
      expect(row.household.precision.hits, `${kind}: wrong Household matches`).toBe(row.household.precision.total);
    }
    // A near name expects the household only: the row holds claims, and none of them Individual.
    const near = report.kinds.find((k) => k.kind === 'near-name')!;
    expect(near.household.precision.total).toBeGreaterThanOrEqual(30);
    expect(variants.filter((v) => v.kind === 'near-name').every((v) => v.expect.individual === undefined)).toBe(true);
  });

  it('keeps every other kind free of wrong Individuals', () => {
    for (const kind of VARIANT_KINDS) {
      const row = report.kinds.find((k) => k.kind === kind)!;
      expect(row.individual.precision.hits, `${kind}: wrong Individuals`).toBe(row.individual.precision.total);
    }
  });

  it('would fail a matcher that calls every Household match Individual', async () => {
    const careless: IdentityMatcher = {
      match: async (q) => (await matcher.match(q)).map((m) => ({ ...m, type: 'Individual' })),
      matchMany: async (qs) => (await matcher.matchMany(qs)).map((ms) => ms.map((m) => ({ ...m, type: 'Individual' }))),
    };
    const worse = await evaluateMatcher(careless, variants, { households });
    expect(worse.individual.precision.value).toBeLessThan(0.9);
    expect(worse.individual.recall.value).toBeGreaterThanOrEqual(report.individual.recall.value!);
  });
});
