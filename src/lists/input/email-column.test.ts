import { describe, expect, it } from 'vitest';
import { emailColumnMismatch, parseEmailColumn, pickEmailColumn } from './email-column.js';
import { decideHeader, looksLikeEmail } from './header-row.js';

describe('looksLikeEmail', () => {
  it.each([
    ['a@b', true],
    [' john@example.com ', true],
    ['@b.com', false],
    ['a@', false],
    ['email', false],
    ['', false],
  ])('%j → %s', (value, expected) => expect(looksLikeEmail(value)).toBe(expected));
});

describe('decideHeader', () => {
  it('trusts the parameter in the ordinary cases', () => {
    expect(decideHeader(['Contact', 'Name'], true)).toEqual({ header: true, overruled: false });
    expect(decideHeader(['a@b.com', 'Ann'], false)).toEqual({ header: false, overruled: false });
    expect(decideHeader(['whatever'], false)).toEqual({ header: false, overruled: false });
  });

  it('takes an unmistakable header row as a header despite header=false', () => {
    expect(decideHeader(['Email'], false)).toEqual({ header: true, overruled: true });
    expect(decideHeader(['email', 'first name', 'notes'], false)).toEqual({ header: true, overruled: true });
  });

  it('keeps an address row as data despite header=true', () => {
    expect(decideHeader(['john@example.com', 'John'], true)).toEqual({ header: false, overruled: true });
    // A recognised name wins: the row is a header even when a cell looks like an address.
    expect(decideHeader(['email', 'x@y'], true)).toEqual({ header: true, overruled: false });
  });
});

describe('parseEmailColumn', () => {
  it.each([
    [undefined, { ok: true, value: undefined }],
    ['', { ok: true, value: undefined }],
    ['3', { ok: true, value: 3 }],
    ['0', { ok: false, reason: 'Invalid parameter email_column: must be a 1-based column number' }],
    ['-1', { ok: false, reason: 'Invalid parameter email_column: must be a 1-based column number' }],
    ['1.5', { ok: false, reason: 'Invalid parameter email_column: must be a 1-based column number' }],
    ['abc', { ok: false, reason: 'Invalid parameter email_column: must be a 1-based column number' }],
  ])('%j', (raw, expected) => expect(parseEmailColumn(raw)).toEqual(expected));
});

describe('pickEmailColumn', () => {
  const rows = [
    ['Ann', 'ann@example.com', 'x'],
    ['Bob', 'bob@example.com', ''],
  ];

  it('uses email_column within the file', () => {
    expect(pickEmailColumn({ sample: rows, columnCount: 3, emailColumn: 3 })).toEqual({ ok: true, value: 2 });
    expect(pickEmailColumn({ sample: rows, columnCount: 3, emailColumn: 4 })).toEqual({
      ok: false,
      reason: 'email_column is 4 but the file has 3 columns',
    });
    expect(pickEmailColumn({ sample: [['a']], columnCount: 1, emailColumn: 2 })).toEqual({
      ok: false,
      reason: 'email_column is 2 but the file has 1 column',
    });
  });

  it('takes a one-column file as all emails', () => {
    expect(pickEmailColumn({ sample: [['not an address']], columnCount: 1 })).toEqual({ ok: true, value: 0 });
  });

  it("uses the header's email column", () => {
    expect(pickEmailColumn({ header: ['Name', 'E-mail', 'Other'], sample: rows, columnCount: 3 })).toEqual({ ok: true, value: 1 });
  });

  it('refuses two email headers without email_column', () => {
    expect(pickEmailColumn({ header: ['Email', 'x', 'Email Address'], sample: rows, columnCount: 3 })).toEqual({
      ok: false,
      reason: 'Ambiguous email columns: 1 (Email), 3 (Email Address); choose one with email_column',
    });
    expect(pickEmailColumn({ header: ['Email', 'x', 'Email Address'], sample: rows, columnCount: 3, emailColumn: 3 })).toEqual({
      ok: true,
      value: 2,
    });
  });

  it('detects the address column from the values', () => {
    expect(pickEmailColumn({ sample: rows, columnCount: 3 })).toEqual({ ok: true, value: 1 });
    expect(pickEmailColumn({ header: ['Name', 'Contact', 'Notes'], sample: rows, columnCount: 3 })).toEqual({ ok: true, value: 1 });
  });

  it('does not take a column where addresses are the exception', () => {
    const notes = [
      ['a@b.com', 'x@y.com'],
      ['a@b.com', 'call me'],
      ['c@d.com', 'n/a'],
    ];
    expect(pickEmailColumn({ sample: notes, columnCount: 2 })).toEqual({ ok: true, value: 0 });
  });

  it('refuses several address columns without a header', () => {
    const two = [['a@b.com', 'Ann', 'c@d.com']];
    expect(pickEmailColumn({ sample: two, columnCount: 3 })).toEqual({
      ok: false,
      reason: 'Ambiguous email columns: 1, 3; choose one with email_column',
    });
  });

  it('finds none: an error without a header, no column with one', () => {
    const none = [['Ann', 'Smith']];
    expect(pickEmailColumn({ sample: none, columnCount: 2 })).toEqual({ ok: false, reason: 'No email column found' });
    expect(pickEmailColumn({ header: ['first', 'last'], sample: none, columnCount: 2 })).toEqual({ ok: true, value: undefined });
  });
});

describe('emailColumnMismatch', () => {
  const rows = [
    ['ann@example.com', 'Ann', '555-0100', 'ann@home.example'],
    ['bob@example.com', 'Bob', '', 'bob@home.example'],
  ];

  it('names the column and the ones that hold addresses', () => {
    expect(emailColumnMismatch({ header: ['Mail', 'Name', 'Phone', 'Home'], sample: rows, columnCount: 4, emailColumn: 2 })).toBe(
      'email_column 2 (Name) holds no email addresses; columns 1 (Mail), 4 (Home) do',
    );
    expect(emailColumnMismatch({ sample: rows.map((r) => r.slice(0, 3)), columnCount: 3, emailColumn: 3 })).toBe(
      'email_column 3 holds no email addresses; column 1 does',
    );
    expect(emailColumnMismatch({ sample: [['Ann', 'Lee']], columnCount: 2, emailColumn: 1 })).toBe(
      'email_column 1 holds no email addresses',
    );
  });

  it('accepts a column with any address in the sample, and no parameter at all', () => {
    expect(
      emailColumnMismatch({
        sample: [
          ['x', 'not one'],
          ['y', 'a@b.com'],
        ],
        columnCount: 2,
        emailColumn: 2,
      }),
    ).toBeUndefined();
    expect(emailColumnMismatch({ sample: rows, columnCount: 4 })).toBeUndefined();
  });
});
