/**
 * Lookups over the Publication 28 tables in `data/`, built once on first use. Every lookup takes
 * one upper-case token (or a run of tokens) as the tokenizer leaves it: no periods, no commas.
 */
import { DIRECTIONALS } from './data/directionals.js';
import { ROUTE_PREFIX_TABLE } from './data/route-prefixes.js';
import { STATES } from './data/states.js';
import { COMMON_SUFFIXES, STREET_SUFFIX_OLDER_FORMS, STREET_SUFFIX_TABLE } from './data/street-suffixes.js';
import { UNIT_DESIGNATOR_TABLE } from './data/unit-designators.js';

export interface UnitDesignator {
  /** Publication 28 abbreviation (`APT`, `STE`, `#`). */
  abbreviation: string;
  /** Publication 28 says a secondary range must follow (`APT 4`, not `REAR 4`). */
  requiresRange: boolean;
}

export interface RoutePrefix {
  canonical: string;
  /** How many tokens the matched variant spans. */
  length: number;
  anywhere: boolean;
  /** Only before a road number (a token with a digit): `ST HWY 61`, not `ST RD`. */
  numbered: boolean;
}

interface Tables {
  suffixes: ReadonlyMap<string, string>;
  suffixNames: ReadonlySet<string>;
  directionals: ReadonlyMap<string, string>;
  units: ReadonlyMap<string, UnitDesignator>;
  states: ReadonlyMap<string, string>;
  stateCodes: ReadonlySet<string>;
  routePrefixes: ReadonlyMap<string, { canonical: string; anywhere: boolean; numbered: boolean }>;
}

let tables: Tables | undefined;

function dataLines(table: string): string[][] {
  return table
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => line.split(/\s+/));
}

function routeKey(words: readonly string[], suffixes: ReadonlyMap<string, string>): string {
  return words.map((word) => suffixes.get(word) ?? word).join(' ');
}

function build(): Tables {
  const suffixes = new Map<string, string>();
  const lines = dataLines(STREET_SUFFIX_TABLE);
  // Standard abbreviations first, so a common form listed under a neighbour (`MDW` among the
  // forms of MEADOWS) cannot take a standard abbreviation away from its own suffix.
  for (const [standard] of lines) suffixes.set(standard!, standard!);
  for (const [standard, ...names] of lines) for (const name of names) if (!suffixes.has(name)) suffixes.set(name, standard!);
  for (const [standard, ...forms] of dataLines(STREET_SUFFIX_OLDER_FORMS))
    for (const form of forms) if (!suffixes.has(form)) suffixes.set(form, standard!);
  const suffixNames = new Set(lines.map(([, primary]) => primary!));

  const directionals = new Map<string, string>();
  for (const [word, abbreviation] of Object.entries(DIRECTIONALS)) {
    directionals.set(word, abbreviation);
    directionals.set(abbreviation, abbreviation);
  }

  const units = new Map<string, UnitDesignator>();
  for (const [abbreviation, range, ...names] of dataLines(UNIT_DESIGNATOR_TABLE)) {
    const designator = { abbreviation: abbreviation!, requiresRange: range === 'range' };
    for (const name of [abbreviation!, ...names]) units.set(name, designator);
  }

  const states = new Map<string, string>();
  for (const [name, code] of Object.entries(STATES)) {
    states.set(name, code);
    states.set(code, code);
  }

  // Keyed with suffix words abbreviated (routeKey), so `CO ROAD`, `CO RD` and `CO RDS`… are one
  // key and any spelling of a listed variant matches it.
  const routePrefixes = new Map<string, { canonical: string; anywhere: boolean; numbered: boolean }>();
  for (const line of ROUTE_PREFIX_TABLE.split('\n')) {
    const [canonical, where, variants] = line.split('|').map((part) => part.trim());
    if (!canonical || !variants) continue;
    for (const variant of variants.split(','))
      routePrefixes.set(routeKey(variant.trim().split(' '), suffixes), {
        canonical,
        anywhere: where !== 'leading',
        numbered: where === 'numbered',
      });
  }

  return { suffixes, suffixNames, directionals, units, states, stateCodes: new Set(states.values()), routePrefixes };
}

function t(): Tables {
  return (tables ??= build());
}

/** Publication 28 standard suffix abbreviation for a suffix name or common form (`AVENUE` → `AVE`). */
export function suffixOf(token: string): string | undefined {
  return t().suffixes.get(token);
}

/** Whether the token is a suffix's primary name spelled out (`LAKE`, `PARK`), not an abbreviation. */
export function isSuffixName(token: string): boolean {
  return t().suffixNames.has(token);
}

const COMMON = new Set(COMMON_SUFFIXES);

/** Whether a suffix abbreviation is one of the common street types (`ST`, `AVE`, `RD`…). */
export function isCommonSuffix(abbreviation: string | undefined): boolean {
  return abbreviation !== undefined && COMMON.has(abbreviation);
}

/** Publication 28 directional abbreviation (`NORTH` → `N`, `NE` → `NE`). */
export function directionalOf(token: string): string | undefined {
  return t().directionals.get(token);
}

/**
 * A directional at the end of a street: also `NO` (`13TH AVE NO`), which lists use for North
 * there but which is not a Publication 28 form.
 */
export function postDirectionalOf(token: string): string | undefined {
  return token === 'NO' ? 'N' : directionalOf(token);
}

/** A directional before the name: also `SO` (`612 SO LAKE ST`), not a Publication 28 form. */
export function preDirectionalOf(token: string): string | undefined {
  return token === 'SO' ? 'S' : directionalOf(token);
}

export function unitDesignatorOf(token: string): UnitDesignator | undefined {
  return t().units.get(token);
}

/** Two-letter code of a state name or code (`NEW YORK` → `NY`). */
export function stateOf(phrase: string): string | undefined {
  return t().states.get(phrase);
}

export function isStateCode(code: string): boolean {
  return t().stateCodes.has(code);
}

/**
 * The longest route prefix (`CO RD`, `US HWY`) that starts at `tokens[at]`, if any. `numberNext`:
 * the caller asks whether a number put after the tokens would be the road's (route-words.ts).
 */
export function routePrefixAt(tokens: readonly string[], at: number, numberNext = false): RoutePrefix | undefined {
  for (let length = Math.min(4, tokens.length - at); length >= 1; length--) {
    const found = t().routePrefixes.get(routeKey(tokens.slice(at, at + length), t().suffixes));
    // A `numbered` variant without its number is not a route (`ST RD` is a road named St).
    if (found && (!found.numbered || /\d/.test(tokens[at + length] ?? (numberNext ? '0' : '')))) {
      return { canonical: found.canonical, length, anywhere: found.anywhere, numbered: found.numbered };
    }
  }
  return undefined;
}
