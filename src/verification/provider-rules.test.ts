import { describe, expect, it } from 'vitest';
import { providerFault, USERNAME_RULES } from './provider-rules.js';
import { classifySyntax } from './syntax.js';

const ok = (local: string, domain: string) => expect(providerFault(local, domain)).toBeNull();
const bad = (local: string, domain: string) => expect(providerFault(local, domain)).toMatchObject({ code: 125, rule: 'provider-username' });

describe('providerFault', () => {
  it('leaves domains without a rule alone', () => {
    ok('x', 'example.com');
    ok('_', 'gmail.co'); // not Gmail
  });

  it('Gmail: 6–30 letters or digits, dots free and uncounted, +tag ignored', () => {
    ok('abcdef', 'gmail.com');
    ok('a.b.c.d.e.f', 'googlemail.com');
    ok('john.smith+newsletters', 'gmail.com');
    ok('abcdef+', 'gmail.com');
    ok('a'.repeat(30), 'gmail.com');
    bad('abcde', 'gmail.com');
    bad('a.b.c.d.e', 'gmail.com');
    bad('a'.repeat(31), 'gmail.com');
    bad('john_smith', 'gmail.com');
    bad('john-smith', 'gmail.com');
    bad('abc+defghij', 'gmail.com'); // the tag does not count toward the length
  });

  it('Yahoo: 4–32, starts with a letter, letters/digits/_ and one dot; -keyword aliases accepted', () => {
    ok('john_smith', 'yahoo.com');
    ok('john.smith', 'ymail.com');
    ok('jo1n', 'rocketmail.com');
    ok('john-shopping', 'yahoo.com'); // disposable address
    ok('ab-x', 'yahoo.com'); // base names of disposable addresses have rules Yahoo does not publish
    bad('joh', 'yahoo.com');
    bad('1john', 'yahoo.com');
    bad('john.s.mith', 'yahoo.com');
    bad('john_', 'yahoo.com');
    bad('john+tag', 'yahoo.com'); // no plus addressing at Yahoo
    bad('a'.repeat(33), 'yahoo.com');
  });

  it('Outlook.com: starts with a letter; letters, digits, . _ -; +tag allowed', () => {
    ok('j', 'outlook.com');
    ok('john-smith_1.x', 'hotmail.com');
    ok('john+tag', 'live.com');
    bad('1john', 'msn.com');
    bad('_john', 'outlook.com');
    bad('john!', 'outlook.com');
  });

  it('AOL: 3–32, starts with a letter; letters, digits, _ and dots; no tags', () => {
    ok('joe', 'aol.com');
    ok('joe_b.c', 'aim.com');
    bad('jo', 'aol.com');
    bad('joe+x', 'aol.com');
    bad('9joe', 'aol.com');
  });

  it('iCloud: 3–20, starts with a letter; letters, digits, dots, _; +tag allowed', () => {
    ok('abc', 'icloud.com');
    ok('abc+shop', 'me.com');
    ok('a_b.c', 'mac.com');
    bad('ab', 'icloud.com');
    bad('a'.repeat(21), 'icloud.com');
    bad('1abc', 'icloud.com');
  });

  it('refuses quoted and non-ASCII usernames at these providers', () => {
    bad('"john.smith"', 'gmail.com');
    bad('jöhn.smith', 'gmail.com');
  });

  it('documents a source for every rule', () => {
    for (const rule of USERNAME_RULES) expect(rule.source.length).toBeGreaterThan(20);
  });

  it('applies to the standardized (lower-case) username through classifySyntax', () => {
    expect(classifySyntax('John.Smith@Gmail.com')).toMatchObject({ ok: true, address: 'john.smith@gmail.com' });
    expect(classifySyntax('js@gmail.com')).toMatchObject({ ok: false, code: 125 });
  });
});
