import fc from 'fast-check';
import { classifySyntax } from './src/verification/syntax.ts';
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: codeUnit, maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.string({ unit: fc.constantFrom('a', 'Z', '0', '.', '@', '"', '\\', ' ', '-', '[', ']', '(', 'ü', 'é', '\u0300', '\u200b', '\ud800', 'x', 'n', '\t', '+', 'İ', 'ẞ', 'ς', 'Σ', '\u0345', 'ǅ', 'ﬀ', '\u212a', '\u037e', '\uff0e','ｇ','ß','c','o','m'), maxLength: 40 }),
  fc.tuple(fc.string({ unit: 'grapheme', minLength:1, maxLength: 20 }), fc.string({ unit: 'grapheme', minLength:1, maxLength: 20 }), fc.constantFrom('com','de','рф','org')).map(([a,b,c])=>`${a}@${b}.${c}`),
  fc.tuple(fc.string({ unit: 'binary', minLength:1, maxLength: 20 }), fc.string({ unit: 'binary', minLength:1, maxLength: 20 }), fc.constantFrom('com','de','рф','org')).map(([a,b,c])=>`${a}@${b}.${c}`),
);
let oks = 0;
fc.assert(fc.property(anyString, (s) => {
  const v = classifySyntax(s);
  if (v.ok) { oks++; const w = classifySyntax(v.address); if (JSON.stringify(w) !== JSON.stringify(v)) throw new Error('not idempotent ' + JSON.stringify(s) + JSON.stringify(v) + JSON.stringify(w)); }
}), { numRuns: 300000 });
console.log('ok count', oks);
