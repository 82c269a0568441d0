import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapHeader, roleOf, ROLES } from './header-map.js';

describe('mapHeader', () => {
  it('maps every recognised name of the decision', () => {
    const cases: [string, string][] = [
      ['email', 'email'],
      ['Email Address', 'email'],
      ['E-mail', 'email'],
      ['first', 'first'],
      ['First Name', 'first'],
      ['fname', 'first'],
      ['middle', 'middle'],
      ['last', 'last'],
      ['Last_Name', 'last'],
      ['LNAME', 'last'],
      ['street', 'street'],
      ['Address', 'street'],
      ['address1', 'street'],
      ['city', 'city'],
      ['State', 'state'],
      ['zip', 'zip'],
      ['Zip Code', 'zip'],
      ['postal-code', 'zip'],
      ['sha1_email', 'sha1'],
      ['MD5 Email', 'md5'],
    ];
    for (const [name, role] of cases) expect(roleOf(name), name).toBe(role);
  });

  it('reports columns by role and the unrecognised ones', () => {
    expect(mapHeader(['ID', 'E-Mail', 'First Name', 'notes', 'email address'])).toEqual({
      columns: { email: 1, first: 2 },
      all: { email: [1, 4], first: [2] },
      unrecognised: [0, 3],
    });
  });

  it('does not recognise look-alikes', () => {
    expect(roleOf('work email')).toBeUndefined();
    expect(roleOf('emails')).toBeUndefined();
    expect(roleOf('')).toBeUndefined();
  });

  it('ignores case, spaces, underscores and dashes', () => {
    const names = ['email address', 'first name', 'last name', 'postal code', 'sha1_email', 'md5_email', 'zipcode'];
    const noise = fc.constantFrom(' ', '_', '-', '  ', '\t');
    fc.assert(
      fc.property(
        fc.constantFrom(...names),
        fc.array(fc.tuple(fc.nat(), noise), { maxLength: 4 }),
        fc.array(fc.boolean()),
        (name, inserts, upper) => {
          let mangled = [...name.replace(/[\s_-]/g, '')].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('');
          for (const [at, s] of inserts) {
            const i = at % (mangled.length + 1);
            mangled = mangled.slice(0, i) + s + mangled.slice(i);
          }
          expect(roleOf(mangled)).toBe(roleOf(name));
          expect(ROLES).toContain(roleOf(mangled));
        },
      ),
    );
  });
});
