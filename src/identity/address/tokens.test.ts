import { describe, expect, it } from 'vitest';
import { MAX_TOKENS, isHouseNumber, isUnitId, tokenize } from './tokens.js';

describe('tokenize', () => {
  it.each([
    ['123 Main St.', ['123', 'MAIN', 'ST']],
    ['P.O. Box 12', ['PO', 'BOX', '12']],
    ['P.O.Box 12', ['POBOX', '12']],
    ['N.W. 5th', ['NW', '5TH']],
    ['St.Louis', ['ST', 'LOUIS']],
    ["O'Neil", ['ONEIL']],
    ['Peñasco', ['PENASCO']],
    ['12 1/2', ['12', '1/2']],
    ['123-B 112-10 C-5', ['123-B', '112-10', 'C-5']],
    ['Wilkes-Barre I-95', ['WILKES', 'BARRE', 'I', '95']],
    ['Apt4 #12 RR2', ['APT', '4', '#', '12', 'RR', '2']],
    ['Main, Apt 4; NY', ['MAIN', ',', 'APT', '4', ',', 'NY']],
    ['Twenty-First Second', ['21ST', '2ND']],
    ['Peace & Plenty', ['PEACE', 'AND', 'PLENTY']],
    ['612 So Lake', ['612', 'S', 'LAKE']],
    ['# Apt 3, Main #', ['APT', '3', ',', 'MAIN']],
    ['39.2 Rd', ['39.2', 'RD']],
    [', , Main ,', ['MAIN']],
  ])('%j', (text, tokens) => {
    expect(tokenize(text)).toEqual(tokens);
  });

  it('caps the number of tokens and the length read', () => {
    expect(tokenize('a '.repeat(10_000)).length).toBeLessThanOrEqual(MAX_TOKENS);
    expect(tokenize('x'.repeat(1_000_000))[0]!.length).toBeLessThanOrEqual(512);
  });

  it('treats a non-string as empty', () => {
    expect(tokenize(42 as unknown as string)).toEqual([]);
  });
});

describe('isHouseNumber and isUnitId', () => {
  it.each(['123', '123A', '123-B', '112-10', '39.2', 'N95W18855'])('%s is a house number', (token) => {
    expect(isHouseNumber(token)).toBe(true);
  });
  it.each(['1ST', 'MAIN', 'N165', 'A1A', '#'])('%s is not a house number', (token) => {
    expect(isHouseNumber(token)).toBe(false);
  });
  it.each(['4', '4B', 'D304', '1-B', 'A', 'AB', '2ND'])('%s is a unit id', (token) => {
    expect(isUnitId(token)).toBe(true);
  });
  // Street words are not ids, so the canonical line of a street never grows a unit.
  it.each(['E', 'NE', 'ST', 'FL', 'NO', 'MAIN', '#'])('%s is not a unit id', (token) => {
    expect(isUnitId(token)).toBe(false);
  });
});
