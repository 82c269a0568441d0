import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatStreetLine, streetKey } from './format-street.js';
import { parseStreet } from './parse-street.js';
import { parseUsAddress } from './parse-us-address.js';

// Words the parser treats specially, so generated lines hit its rules rather than only plain names.
const WORDS = [
  '123',
  '4',
  '12',
  '1/2',
  '4922',
  'B',
  'N',
  'S',
  'E',
  'W',
  'NE',
  'SW',
  'North',
  'West',
  'So',
  'No',
  'Main',
  'Park',
  'Circle',
  'Oak',
  'Street',
  'St',
  'St.',
  'Ave',
  'Avenue',
  'Rd',
  'Blvd',
  'Dr',
  'Ct',
  'Lake',
  'Hill',
  'Wells',
  'Way',
  'Hwy',
  'Highway',
  'US',
  'County',
  'Road',
  'CR',
  'I',
  'Route',
  'FM',
  'Apt',
  'Apt.',
  'Suite',
  'Ste',
  '#',
  '#12',
  'Unit',
  'Fl',
  'Floor',
  '2nd',
  'Second',
  'Rear',
  'Lobby',
  'Bldg',
  'A',
  '4B',
  'C-5',
  'PO',
  'P.O.',
  'Box',
  'RR',
  'HC',
  'Dept',
  'First',
  'Twenty',
  'First',
  'N165',
  'W2123',
  '48S',
  '400E',
  '60E',
  'One',
  'Saint',
  'John',
  ',',
  '-',
  '&',
  'Old',
  'of',
  'the',
];
const addressLike = fc.array(fc.constantFrom(...WORDS), { maxLength: 9 }).map((words) => words.join(' '));
const anyLine = fc.oneof(addressLike, fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }));

describe('parseStreet properties', () => {
  it('is total: any string gives a ParsedStreet with a string name', () => {
    fc.assert(
      fc.property(anyLine, (line) => {
        const p = parseStreet(line);
        expect(typeof p.name).toBe('string');
        for (const value of Object.values(p)) expect(typeof value).toBe('string');
      }),
      { numRuns: 3000 },
    );
  });

  it('parses its own canonical line back to the same parts', () => {
    fc.assert(
      fc.property(anyLine, (line) => {
        const p = parseStreet(line);
        expect(parseStreet(formatStreetLine(p))).toEqual(p);
      }),
      { numRuns: 5000 },
    );
  });

  it('ignores case, extra spaces and periods', () => {
    expect(streetKey(parseStreet('123 N. Main St.'))).toBe(streetKey(parseStreet('123 north main street')));
    fc.assert(
      fc.property(addressLike, fc.constantFrom('lower', 'upper', 'spaced', 'dotted'), (line, variant) => {
        const changed =
          variant === 'lower'
            ? line.toLowerCase()
            : variant === 'upper'
              ? line.toUpperCase()
              : variant === 'spaced'
                ? `  ${line.replace(/ /g, '   ')} `
                : line.replace(/([A-Za-z]{2,})( |$)/g, '$1.$2');
        expect(streetKey(parseStreet(changed))).toBe(streetKey(parseStreet(line)));
      }),
      { numRuns: 2000 },
    );
  });

  it('caps the work on very long input', () => {
    const long = `123 ${'Main '.repeat(200_000)}St`;
    const started = performance.now();
    parseStreet(long);
    parseUsAddress(long);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('parseUsAddress properties', () => {
  it('is total', () => {
    fc.assert(
      fc.property(anyLine, (line) => {
        const p = parseUsAddress(line);
        expect(typeof p.name).toBe('string');
      }),
      { numRuns: 2000 },
    );
  });
});
