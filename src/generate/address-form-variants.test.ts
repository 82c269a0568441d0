import { describe, expect, it } from 'vitest';
import { ADDRESS_FORM_HOUSEHOLD_KINDS, generateAddressFormHouseholds } from './address-form-households.js';
import { ADDRESS_FORM_KINDS } from './address-form-kinds.js';
import { generateAddressFormVariants } from './address-form-variants.js';
import { generateMailboxVariants } from './mailbox-variants.js';
import { MAILBOX_KINDS } from './address-form-kinds.js';
import { generatePeople } from './people.js';

const TODAY = '2026-11-22';
const households = [...generateAddressFormHouseholds({ seed: 't', households: 60, today: TODAY })];
const variants = [...generateAddressFormVariants(households, { seed: 't' })];

describe('address-form households and variants', () => {
  it('are the same for the same seed, and make every kind', () => {
    expect([
      ...generateAddressFormVariants(generateAddressFormHouseholds({ seed: 't', households: 60, today: TODAY }), { seed: 't' }),
    ]).toEqual(variants);
    expect(new Set(households.map((h) => h.kind))).toEqual(new Set(ADDRESS_FORM_HOUSEHOLD_KINDS));
    expect(new Set(variants.map((v) => v.kind))).toEqual(new Set(ADDRESS_FORM_KINDS));
  });

  it('write each form otherwise than stored, and ask the other-ZIP kinds with another ZIP of the same city', () => {
    const byPerson = new Map(households.flatMap((h) => h.members.map((m) => [m.person.person_id, { h, p: m.person }] as const)));
    for (const v of variants) {
      const { h, p } = byPerson.get(v.from)!;
      if (v.kind.startsWith('other-zip')) {
        expect(v.query.street).toBe(p.address);
        expect(h.otherZips).toContain(v.query.zip);
        expect(v.query.city).toBe(p.city);
      } else {
        expect(v.query.street, v.kind).not.toBe(p.address);
        expect(v.query.zip).toBe(p.zip);
      }
    }
  });

  it('expect the person, the household for an initial through another ZIP, and nobody for the traps', () => {
    for (const v of variants) {
      if (v.kind.endsWith('-trap')) expect(v.expect).toEqual({});
      else if (v.kind === 'other-zip-initial') expect(v.expect).toEqual({ household: expect.stringMatching(/^HA/) });
      else expect(v.expect).toEqual({ individual: v.from, household: expect.stringMatching(/^HA/) });
    }
  });
});

describe('mailbox variants', () => {
  const people = () => generatePeople({ count: 1_500, seed: 'm', today: TODAY, activity: false });
  const all = [...generateMailboxVariants(people, { seed: 'm' })];
  const stored = new Map([...people()].flatMap((g) => g.person.emails.map((e) => [e, g.person.person_id] as const)));

  it('are the same for the same seed, make every kind, and never the stored spelling itself', () => {
    expect([...generateMailboxVariants(people, { seed: 'm' })]).toEqual(all);
    expect(new Set(all.map((v) => v.kind))).toEqual(new Set(MAILBOX_KINDS));
    for (const v of all) expect(stored.get(v.email)).toBeUndefined();
  });

  it('change only what the provider ignores, and dots only where they make another mailbox for the negative kind', () => {
    for (const v of all) {
      const domain = v.email.trim().toLowerCase().split('@')[1]!;
      if (v.kind === 'mailbox-dots') expect(domain).toBe('gmail.com');
      if (v.kind === 'mailbox-googlemail') expect(domain).toBe('googlemail.com');
      if (v.kind === 'mailbox-tag') expect(v.email).toMatch(/\+[a-z0-9]+@/);
      if (v.kind === 'mailbox-dots-elsewhere')
        expect(['yahoo.com', 'outlook.com', 'hotmail.com', 'aol.com', 'icloud.com']).toContain(domain);
      // The positive kinds name the person they came from unless two people share the mailbox.
      if (v.kind !== 'mailbox-dots-elsewhere' && v.expect !== undefined) expect(v.expect).toBe(v.from);
    }
    const elsewhere = all.filter((v) => v.kind === 'mailbox-dots-elsewhere');
    expect(elsewhere.filter((v) => v.expect === undefined).length).toBeGreaterThan(elsewhere.length * 0.9);
  });
});
