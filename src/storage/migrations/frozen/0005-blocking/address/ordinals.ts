// Migration 0005's frozen copy of identity/address/ordinals.ts as it stood at the freeze (frozen/0005-blocking.ts): never edit.
/**
 * Ordinal words as digits (`FIRST` → `1ST`, `TWENTY FIRST` → `21ST`), the way Publication 28
 * writes numbered streets. Done by the tokenizer, so every rule sees `1ST` however it was
 * written; `1ST` maps to itself.
 */
const UNIT_ORDINALS: Readonly<Record<string, number>> = {
  FIRST: 1,
  SECOND: 2,
  THIRD: 3,
  FOURTH: 4,
  FIFTH: 5,
  SIXTH: 6,
  SEVENTH: 7,
  EIGHTH: 8,
  NINTH: 9,
};
const ORDINALS: Readonly<Record<string, number>> = {
  ...UNIT_ORDINALS,
  TENTH: 10,
  ELEVENTH: 11,
  TWELFTH: 12,
  THIRTEENTH: 13,
  FOURTEENTH: 14,
  FIFTEENTH: 15,
  SIXTEENTH: 16,
  SEVENTEENTH: 17,
  EIGHTEENTH: 18,
  NINETEENTH: 19,
  TWENTIETH: 20,
  THIRTIETH: 30,
  FORTIETH: 40,
  FIFTIETH: 50,
  SIXTIETH: 60,
  SEVENTIETH: 70,
  EIGHTIETH: 80,
  NINETIETH: 90,
};
const TENS: Readonly<Record<string, number>> = {
  TWENTY: 20,
  THIRTY: 30,
  FORTY: 40,
  FIFTY: 50,
  SIXTY: 60,
  SEVENTY: 70,
  EIGHTY: 80,
  NINETY: 90,
};

export function ordinal(n: number): string {
  const lastTwo = n % 100;
  const last = n % 10;
  const tail = lastTwo >= 11 && lastTwo <= 13 ? 'TH' : last === 1 ? 'ST' : last === 2 ? 'ND' : last === 3 ? 'RD' : 'TH';
  return `${n}${tail}`;
}

export function ordinalWords(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const tens = TENS[token];
    const unit = UNIT_ORDINALS[tokens[i + 1] ?? ''];
    if (tens !== undefined && unit !== undefined) {
      out.push(ordinal(tens + unit));
      i++;
      continue;
    }
    const single = ORDINALS[token];
    out.push(single === undefined ? token : ordinal(single));
  }
  return out;
}
