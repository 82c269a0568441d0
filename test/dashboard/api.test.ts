/** The dashboard's pure helpers: reading Retry-After, and the submit query built from the form. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { retryAfterSeconds, submitQuery } from '../../dashboard/src/api.js';

describe('retryAfterSeconds', () => {
  it('reads delta seconds, and nothing else', () => {
    expect(retryAfterSeconds('5')).toBe(5);
    expect(retryAfterSeconds(' 30 ')).toBe(30);
    expect(retryAfterSeconds(null)).toBeNull();
    for (const bad of ['', 'soon', '-1', '1.5', 'Fri, 27 Nov 2026 16:00:00 GMT']) expect(retryAfterSeconds(bad), bad).toBeNull();
  });

  it('gives back any whole number it is sent, and null for any text that is not one', () => {
    fc.assert(fc.property(fc.nat(), (n) => retryAfterSeconds(String(n)) === n));
    fc.assert(fc.property(fc.string(), (text) => /^\s*\d+\s*$/.test(text) || retryAfterSeconds(text) === null));
  });
});

describe('submitQuery', () => {
  it('sends the file name and only the options chosen', () => {
    expect(submitQuery({ name: 'people.csv' }, { header: false, report: false })).toBe('name=people.csv');
    expect(submitQuery({ name: 'a b.txt' }, { header: true, report: true, emailColumn: 2, delimiter: 'tab', fields: ' age,gender ' })).toBe(
      'name=a+b.txt&header=true&email_column=2&delimiter=tab&report=true&fields=age%2Cgender',
    );
  });

  it('round-trips any file name and delimiter through URLSearchParams', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1, maxLength: 1 }), (name, delimiter) => {
        const query = new URLSearchParams(submitQuery({ name }, { header: true, report: false, delimiter }));
        return query.get('name') === name && query.get('delimiter') === delimiter && query.get('header') === 'true' && !query.has('report');
      }),
    );
  });
});
