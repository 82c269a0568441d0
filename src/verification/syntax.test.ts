import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifySyntax, MAX_INPUT_LENGTH, type SyntaxCode, type SyntaxVerdict } from './syntax.js';

function codeOf(input: string): SyntaxCode | 'ok' {
  const v = classifySyntax(input);
  return v.ok ? 'ok' : v.code;
}

describe('classifySyntax: well-formed addresses', () => {
  it.each([
    'john.doe@example.com',
    'a@x.au',
    "!#$%&'*+-/=?^_`{|}~@iana.org",
    'user+mailbox/department=shipping@example.com',
    '"quoted local part"@example.org',
    '"quoted.with.at@"@example.com',
    '"escaped\\"quote"@example.com',
    '""@iana.org',
    'xn--test@iana.org',
    'test@c--n.com',
    'ñoñó@example.com',
    '我買@example.com',
    'jeff@臺網中心.tw',
    'user@xn--mller-kva.de',
    'test@nic.no',
    'someone@sub.domain.co.uk',
    `${'a'.repeat(64)}@${'b'.repeat(63)}.com`,
  ])('%s is ok', (input) => {
    expect(codeOf(input)).toBe('ok');
  });

  it('standardizes: lower-case domain and unquoted username, quoted username kept', () => {
    expect(classifySyntax('John.Doe@Example.COM')).toMatchObject({
      ok: true,
      address: 'john.doe@example.com',
      local: 'john.doe',
      domain: 'example.com',
      asciiDomain: 'example.com',
    });
    expect(classifySyntax('"John Doe"@Example.com')).toMatchObject({ ok: true, address: '"John Doe"@example.com' });
  });

  it('keeps a Unicode domain in Unicode and gives its A-label form', () => {
    expect(classifySyntax('User@MÜLLER.de')).toMatchObject({
      ok: true,
      address: 'user@müller.de',
      domain: 'müller.de',
      asciiDomain: 'xn--mller-kva.de',
    });
    // An address given with A-labels stays ASCII: converting it would require SMTPUTF8.
    expect(classifySyntax('user@XN--MLLER-KVA.de')).toMatchObject({ address: 'user@xn--mller-kva.de', asciiDomain: 'xn--mller-kva.de' });
  });

  it('puts a Unicode username in NFC', () => {
    const v = classifySyntax('Jose\u0301@example.com');
    expect(v).toMatchObject({ ok: true, local: 'jos\u00e9' });
  });
});

describe('classifySyntax: each code', () => {
  const cases: Record<SyntaxCode, string[]> = {
    100: [''],
    110: [
      'test\u0000@iana.org',
      'm\ny@example.com',
      '"test\u0000"@iana.org',
      '"a\tb"@example.com',
      '\u007f@iana.org',
      'nbsp\u00a0test@test.com',
      '\u200b@example.com',
      '\u202dforward-\u202ereversed@example.com',
      '\ud800@example.com',
      'test@\udc00x.com',
      '\ue000@example.com',
      '\u0300a@example.com',
      '(comment)test@iana.org',
      'a,b@example.com',
      'first\\last@iana.org',
      '[test]@iana.org',
      'foo@_bar.com',
      'test@iana/icann.org',
      'me@x!.com',
      'a@b.com(comment)',
      '<\u0338me@example.com',
      'me.\u037e@example.com',
    ],
    115: [
      'test@[1.2.3.4]',
      'test@[IPv6:::1]',
      'test@[1.2.3.4',
      'a@b',
      'test@org',
      'test@.iana.org',
      'test@iana..com',
      'test@-iana.org',
      'test@iana-.com',
      'me@yy--0.tld',
      'me@xn--0.com',
      'test@xn--example.com',
      'somename@ｇｍａｉｌ.com',
      'my@\uff0eleadingfwdot.com',
      'me@\u2488wouldbeinvalid.com',
      'me@\u037e.com',
    ],
    120: [
      '.test@iana.org',
      'test.@iana.org',
      'test..test@iana.org',
      'test"@iana.org',
      'bad"quotes"@example.com',
      '"test"test@iana.org',
      '"test"."test"@iana.org',
      '"test@iana.org',
      '"\\"@iana.org',
      '"test\\\u00a9"@iana.org',
    ],
    125: ['test@gmail.com', 'john_smith@gmail.com', 'ab@yahoo.com', '1john@hotmail.com', 'jo@aol.com', 'ab@icloud.com'],
    130: [
      `${'a'.repeat(65)}@example.com`,
      `a@${'b'.repeat(64)}.com`,
      `a@${'abcdefghi.'.repeat(26)}com`,
      `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`,
      `${'é'.repeat(33)}@example.com`,
      `a@${'中'.repeat(60)}.com`,
      'x'.repeat(MAX_INPUT_LENGTH + 1),
    ],
    140: ['@iana.org', '@', '@x'],
    145: ['test@', '"a"@'],
    150: ['test', 'test.iana.org', ' test ', '"test@iana.org"', 'hello\uff20world'],
    155: ['a@b@c.com', 'test@@iana.org', 'wrong()[]",:;<>@@gmail.com', '"a@b"@c@d.com'],
    200: [
      'test@iana.a',
      'test@iana.123',
      'test@255.255.255.255',
      'test@example.tld',
      'user@mail.test',
      'user@foo.example',
      'user@x.invalid',
      'user@host.localhost',
      'user@printer.local',
      'user@abc.onion',
      'user@in-addr.arpa',
      'test@xn--hxajbheg2az3al.xn--jxalpdlp',
    ],
    210: [
      ' test@iana.org',
      'test@iana.org ',
      'test@iana.org\n',
      '\r\ntest@iana.org',
      'test@iana.org.',
      'a@bar.co.uk.',
      '\u00a0a@b.com',
      'a@b.com\ufeff',
    ],
    215: ['a b@c.com', 'test . test@iana.org', 'test@ iana .com', 'a\tb@c.com', 'My Name <me@example.org>', '"Display" <me@example.com>'],
  };

  for (const [code, inputs] of Object.entries(cases)) {
    it.each(inputs)(`%j is ${code}`, (input) => {
      expect(codeOf(input)).toBe(Number(code));
    });
  }

  it('gives a short English reason with every fault', () => {
    const v = classifySyntax('test..test@iana.org');
    expect(v).toMatchObject({ ok: false, code: 120, reason: 'consecutive dots in the username', rule: 'local-consecutive-dots' });
  });
});

describe('classifySyntax: precedence', () => {
  it.each<[string, SyntaxCode]>([
    [' a b@@c.com', 155], // @ first
    [' a b@c.com', 210], // outer white space before inner space
    ['a b@c.com.', 210], // trailing dot before inner space
    ['a b@', 215], // inner space before the empty domain
    ['@c d.com', 215],
    [`@${'x'.repeat(300)}`, 140], // empty username before length
    [`${'a'.repeat(70)}\u0000@x.com`, 130], // length before characters
    ['a(b..c@x.com', 110], // characters before username shape
    ['a..b@x_y.com', 110], // a bad domain character before the username shape
    ['a..b@-x.com', 120], // username shape before domain shape
    ['a@-x.123', 115], // domain shape before TLD
    ['ab@gmail.123', 200], // TLD before provider rules
  ])('%j is %s', (input, code) => {
    expect(codeOf(input)).toBe(code);
  });
});

describe('classifySyntax: role accounts', () => {
  it.each<[string, boolean]>([
    ['info@example.com', true],
    ['Sales+2024@example.com', true],
    ['"postmaster"@example.com', true],
    ['noreply@example.com', true],
    ['jane.doe@example.com', false],
    ['information.desk@example.com', false],
  ])('%s → %s', (input, role) => {
    expect(classifySyntax(input).roleAccount).toBe(role);
  });

  it('is set on invalid verdicts when a username can be identified', () => {
    expect(classifySyntax(' info@example.com')).toMatchObject({ ok: false, code: 210, roleAccount: true });
    expect(classifySyntax('admin@localhost')).toMatchObject({ ok: false, code: 115, roleAccount: true });
    expect(classifySyntax('support@example.invalid')).toMatchObject({ ok: false, code: 200, roleAccount: true });
    expect(classifySyntax('info')).toMatchObject({ ok: false, code: 150, roleAccount: false });
    expect(classifySyntax('info@a@b.com')).toMatchObject({ ok: false, code: 155, roleAccount: false });
  });
});

// Arbitraries for the properties: raw strings of every kind, and strings built from the
// characters that matter to the grammar so that deep paths are reached often.
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: codeUnit, maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.string({
    unit: fc.constantFrom(
      'a',
      'Z',
      '0',
      '.',
      '@',
      '"',
      '\\',
      ' ',
      '-',
      '[',
      ']',
      '(',
      'ü',
      'é',
      '\u0300',
      '\u200b',
      '\ud800',
      'x',
      'n',
      '\t',
      '+',
    ),
    maxLength: 80,
  }),
);

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/).filter((l) => !/^..--/.test(l));
const atom = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]{1,10}$/);
const unicodeAtom = fc.string({ unit: fc.constantFrom('ü', 'É', 'ß', 'ж', 'Ω', '中', 'ñ', 'a', 'B', '1'), minLength: 1, maxLength: 6 });
const localPart = fc.oneof(
  fc.array(fc.oneof(atom, unicodeAtom), { minLength: 1, maxLength: 3 }).map((atoms) => atoms.join('.')),
  fc.stringMatching(/^"([ !#-[\]-~]|\\[ -~]){0,12}"$/),
);
const domain = fc
  .tuple(
    fc.array(fc.oneof(label, fc.constantFrom('bücher', 'müller', 'пример', '例え')), { minLength: 1, maxLength: 3 }),
    fc.constantFrom('com', 'org', 'de', 'CO.UK', 'xn--p1ai', 'рф', 'io', 'Net'),
  )
  .map(([labels, tld]) => `${labels.join('.')}.${tld}`);
const wellFormed = fc.tuple(localPart, domain).map(([l, d]) => `${l}@${d}`);

describe('classifySyntax: properties', () => {
  it('is total: never throws, always returns a verdict', () => {
    fc.assert(
      fc.property(fc.oneof(anyString, wellFormed), (input) => {
        const v: SyntaxVerdict = classifySyntax(input);
        expect(typeof v.ok).toBe('boolean');
        expect(typeof v.roleAccount).toBe('boolean');
        if (!v.ok) expect(v.reason.length).toBeGreaterThan(0);
      }),
      { numRuns: 3000 },
    );
  });

  it('never throws on hostile sizes', () => {
    for (const input of ['@'.repeat(100_000), '"'.repeat(50_000), `${'a.'.repeat(2000)}@x.com`, `a@${'a.'.repeat(2000)}com`]) {
      expect(() => classifySyntax(input)).not.toThrow();
    }
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(fc.oneof(anyString, wellFormed), (input) => {
        expect(classifySyntax(input)).toEqual(classifySyntax(input));
      }),
      { numRuns: 1000 },
    );
  });

  it('accepts the generated well-formed addresses (outside provider rules)', () => {
    fc.assert(
      fc.property(wellFormed, (input) => {
        expect(classifySyntax(input)).toMatchObject({ ok: true });
      }),
      { numRuns: 2000 },
    );
  });

  it('is idempotent on valid outputs: the standardized address classifies to itself', () => {
    fc.assert(
      fc.property(fc.oneof(wellFormed, anyString), (input) => {
        const v = classifySyntax(input);
        if (!v.ok) return;
        const again = classifySyntax(v.address);
        expect(again).toEqual(v);
      }),
      { numRuns: 3000 },
    );
  });

  it('gives 210 for a valid address wrapped in white space', () => {
    const space = fc.constantFrom(' ', '\t', '\n', '\r\n', '\u00a0', '\u3000', '\ufeff');
    fc.assert(
      fc.property(wellFormed, space, fc.constantFrom('before', 'after', 'both'), (address, ws, where) => {
        const input = where === 'before' ? ws + address : where === 'after' ? address + ws : ws + address + ws;
        expect(codeOf(input)).toBe(210);
      }),
      { numRuns: 1000 },
    );
  });
});
