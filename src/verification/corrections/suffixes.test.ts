import { describe, expect, it } from 'vitest';
import { hasImpossibleSecondLevel, intendedSecondLevel, isRealTld, suffixState } from './suffixes.js';

describe('suffixState', () => {
  it.each([
    ['example.com', 'fine'],
    ['example.co', 'fine'],
    ['example.co.uk', 'fine'],
    ['example.com.co', 'fine'],
    ['example.co.za', 'fine'],
    ['example.con', 'tld'],
    ['examplecom', 'tld'],
    ['example.cm', 'tld'],
    ['example.om', 'tld'],
    ['example.co.br', 'second-level'],
    ['example.ed.br', 'second-level'],
    ['gmail.o.uk', 'second-level'],
    ['example.test', 'leave'],
    ['1.2.3.4', 'leave'],
  ])('%s is %s', (domain, state) => {
    expect(suffixState(domain)).toBe(state);
  });

  it('counts .za as a real TLD though the public suffix list only has its second levels', () => {
    expect(isRealTld('za')).toBe(true);
    expect(isRealTld('con')).toBe(false);
  });

  it('finds the registry ending a second-level slip meant', () => {
    expect(intendedSecondLevel('example.co.ar')).toEqual({ suffix: 'com.ar', cost: 0.75 });
    expect(intendedSecondLevel('example.gob.br')).toEqual({ suffix: 'gov.br', cost: 0.5 });
    expect(intendedSecondLevel('mail.bbc.uk')).toBeNull();
  });

  it('knows which registry labels a TLD lacks', () => {
    expect(hasImpossibleSecondLevel('example.co.pl')).toBe(true);
    expect(hasImpossibleSecondLevel('example.co.at')).toBe(false);
    expect(hasImpossibleSecondLevel('mail.example.pl')).toBe(false);
  });
});
