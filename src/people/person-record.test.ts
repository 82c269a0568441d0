import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATALOG, INTERESTS } from './catalog.js';
import { personFrom } from './person-record.js';

const full = {
  email: 'Jane.Doe@Example.com',
  first_name: 'Jane',
  middle_name: 'Q',
  last_name: 'Doe',
  address: '12 Main St.',
  city: 'Springfield',
  state: 'il',
  zip: '62701-1234',
  age: '35-44',
  gender: 'Female',
  rfm_avg_dollars: 120,
  rfm_online_avg_days: '30',
  rfm_last_order: '2024-02-29',
  interests: ['travel', 'books'],
};

const problemsOf = (record: Record<string, unknown>) => {
  const result = personFrom(record);
  return 'problems' in result ? result.problems : [];
};

describe('personFrom', () => {
  it('builds a person with normalised identity and typed fields', () => {
    const result = personFrom(full);
    expect(result).toEqual({
      person: {
        personKey: expect.stringMatching(/^n:[0-9a-f]{40}$/),
        firstName: 'Jane',
        middleName: 'Q',
        lastName: 'Doe',
        address: '12 Main St.',
        city: 'Springfield',
        state: 'IL',
        zip: '62701-1234',
        fields: { age: '35-44', gender: 'Female', rfm_online_avg_days: 30, rfm_avg_dollars: 120, rfm_last_order: '2024-02-29' },
        interests: ['books', 'travel'],
        emails: ['jane.doe@example.com'],
      },
      warnings: [],
    });
  });

  it('skips an address no provider could have issued, with a warning, and keeps the person', () => {
    const result = personFrom({ ...full, email: 'tamara_ortiz@gmail.com', emails: 'tamara.ortiz@yahoo.com|x..y@example.com' });
    expect(result).toMatchObject({
      person: {
        firstName: 'Jane',
        lastName: 'Doe',
        address: '12 Main St.',
        zip: '62701-1234',
        fields: { age: '35-44' },
        emails: ['tamara.ortiz@yahoo.com'],
      },
      warnings: [
        expect.stringMatching(
          /^email: "tamara_ortiz@gmail.com" is not a valid address \(not a possible Gmail username.*\); skipped, the rest of the row loaded$/,
        ),
        expect.stringMatching(/^emails: "x..y@example.com" is not a valid address .*; skipped, the rest of the row loaded$/),
      ],
    });
    // Nothing else identifies this one: the address is the row's reason to be rejected.
    expect(problemsOf({ email: 'tamara_ortiz@gmail.com', age: '35-44' })).toEqual([
      'email: "tamara_ortiz@gmail.com" is not a valid address (not a possible Gmail username (6 to 30 letters or digits, dots allowed))',
    ]);
  });

  it('loads any identified person whatever mix of good and impossible addresses it lists (property)', () => {
    const good = fc.stringMatching(/^[a-z][a-z0-9]{5,12}$/).map((u) => `${u}@gmail.com`);
    const bad = fc.stringMatching(/^[a-z]{2,8}_[a-z]{2,8}$/).map((u) => `${u}@gmail.com`);
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            good.map((e) => ({ e, ok: true })),
            bad.map((e) => ({ e, ok: false })),
          ),
          { maxLength: 8 },
        ),
        (list) => {
          const row = { first_name: 'Jane', last_name: 'Doe', address: '12 Main St', zip: '62701', emails: list.map((x) => x.e) };
          const result = personFrom(row);
          expect(result).toHaveProperty('person');
          if (!('person' in result)) return;
          expect(result.person.emails).toEqual([...new Set(list.filter((x) => x.ok).map((x) => x.e))]);
          expect(result.warnings).toHaveLength(list.filter((x) => !x.ok).length);
          expect(result.person.address).toBe('12 Main St');
        },
      ),
    );
  });

  it('takes the CSV forms: strings everywhere, blank cells absent, lists separated by , | ;', () => {
    const result = personFrom({
      person_id: 'P-1',
      email: '',
      emails: 'a@example.com; b@example.com|A@example.com',
      first_name: '',
      middle_name: '',
      last_name: '',
      address: '',
      city: '',
      state: '',
      zip: '',
      net_worth: '',
      interests: 'pets|sports, travel',
    });
    expect(result).toMatchObject({
      person: {
        personKey: 'P-1',
        middleName: null,
        emails: ['a@example.com', 'b@example.com'],
        interests: ['pets', 'sports', 'travel'],
        fields: {},
      },
    });
  });

  it('needs an email or a full name and postal address', () => {
    expect(problemsOf({ first_name: 'Jane', last_name: 'Doe', address: '1 A St' })).toEqual([
      'needs an email, or first_name, last_name, address and zip',
    ]);
    expect(personFrom({ first_name: 'Jane', last_name: 'Doe', address: '1 A St', zip: '02134' })).toHaveProperty('person.emails', []);
    expect(problemsOf({})).toEqual(['needs an email, or first_name, last_name, address and zip']);
    // A bad email is its own reason; the requirement is not repeated.
    expect(problemsOf({ email: 'nope' })).toEqual(['email: "nope" is not a valid address (no @ sign)']);
  });

  it('accepts every catalog value and rejects anything else, naming the field', () => {
    for (const [field, values] of Object.entries(CATALOG)) {
      for (const value of values) expect(problemsOf({ email: 'a@example.com', [field]: value }), `${field}=${value}`).toEqual([]);
      expect(problemsOf({ email: 'a@example.com', [field]: 'Nonsense' })[0]).toMatch(new RegExp(`^${field}: "Nonsense" is not one of`));
    }
    expect(problemsOf({ email: 'a@example.com', gender: 'male' })).toEqual([
      'gender: "male" is not an allowed value (did you mean "Male"?)',
    ]);
    expect(problemsOf({ email: 'a@example.com', age: 35 })).toEqual(['age: 35 is not a string']);
    expect(problemsOf({ email: 'a@example.com', interests: INTERESTS })).toEqual([]);
    expect(problemsOf({ email: 'a@example.com', interests: ['pets', 'movies', 7] })).toEqual([
      'interests: "movies" is not an interest category',
      'interests: 7 is not an interest category',
    ]);
    expect(problemsOf({ email: 'a@example.com', interests: { pets: true } })).toEqual([
      'interests: an object is not a list of interest names',
    ]);
  });

  it('checks integers, dates, state and zip', () => {
    const bad = problemsOf({
      email: 'a@example.com',
      rfm_avg_dollars: 1e308,
      rfm_offline_avg_days: -3,
      rfm_online_avg_days: '12.5',
      rfm_last_order: '2023-02-29',
      state: 'XX',
      zip: 2134,
    });
    expect(bad).toEqual([
      'state: "XX" is not a two-letter US state or territory code',
      'zip: 2134 is not a ZIP code (12345 or 12345-6789, as a string)',
      'rfm_offline_avg_days: -3 is not a whole number',
      'rfm_online_avg_days: "12.5" is not a whole number',
      'rfm_avg_dollars: 1e+308 is out of range (0 to 10000000)',
      'rfm_last_order: "2023-02-29" is not a date YYYY-MM-DD',
    ]);
    expect(personFrom({ email: 'a@example.com', zip: '021341234', rfm_avg_dollars: '0' })).toMatchObject({
      person: { zip: '02134-1234', fields: { rfm_avg_dollars: 0 } },
    });
  });

  it('rejects unknown columns, suggesting the near one, and prototype keys', () => {
    expect(problemsOf({ email: 'a@example.com', hosehold_income: '50k-75k' })).toEqual([
      'hosehold_income: unknown field (did you mean household_income?)',
    ]);
    expect(problemsOf(JSON.parse('{"email":"a@example.com","__proto__":{"admin":true},"constructor":"x"}'))).toEqual([
      '__proto__: unknown field',
      'constructor: unknown field',
    ]);
    expect(problemsOf({ email: 'a@example.com', eam: {}, 'bad\nkey': 1 })).toEqual(['eam: unknown field', '"bad\\nkey": unknown field']);
    const many = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`x${i}`, 1]));
    expect(problemsOf({ email: 'a@example.com', ...many })).toHaveLength(11);
    expect(problemsOf({ email: 'a@example.com', '': '' })).toEqual([]);
  });

  it('bounds text and lists and refuses wrong types', () => {
    expect(problemsOf({ email: 'a@example.com', first_name: 'x'.repeat(101) })).toEqual(['first_name: longer than 100 characters']);
    expect(problemsOf({ email: 'a@example.com', last_name: ['Doe'], city: 'a\u0000b', first_name: "'-" })).toEqual([
      'first_name: "\'-" has no letters or digits',
      'last_name: a list is not text',
      'city: "a\\u0000b" contains a control character',
    ]);
    expect(problemsOf({ emails: Array.from({ length: 101 }, (_, i) => `u${i}@example.com`) })).toEqual(['emails: more than 100 addresses']);
    expect(problemsOf({ emails: 'a@example.com', person_id: { id: 1 } })).toEqual(['person_id: an object is not text']);
    expect(problemsOf({ emails: [1], email: true })).toEqual(['email: true is not a string', 'emails: 1 is not a string']);
    expect(personFrom({ emails: ['a@example.com'], person_id: 42 })).toHaveProperty('person.personKey', '42');
  });
});
