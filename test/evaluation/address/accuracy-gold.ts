/**
 * Expected components from the two corpora's own label sets (see the mapping in
 * address-accuracy.ts). Pure functions over one corpus row each.
 */
import type { ComponentName, Components } from './accuracy-normalize.js';
import { unitDesignatorOf } from '../../../src/identity/address/pub28.js';
import { routeBoxAt } from '../../../src/identity/address/street-box.js';
import { COMMA, tokenize } from '../../../src/identity/address/tokens.js';

export interface UsaddressRow {
  input: string;
  components: Record<string, string>;
  tokens: [string, string][];
  source: string;
}

export interface ParseAddressRow {
  input: string;
  components: Record<string, string>;
}

/** Labels for text that is not part of a delivery address; rows with them are left out. */
export const OUT_OF_SCOPE_LABELS: readonly string[] = [
  'Recipient',
  'BuildingName',
  'LandmarkName',
  'NotAddress',
  'IntersectionSeparator',
  'CornerOf',
];

/** The us50 rows label the whole street (`South Burr Street`) as StreetName. */
export function isCoarse(row: UsaddressRow): boolean {
  return row.source.includes('us50');
}

function labelled(row: UsaddressRow, labels: readonly string[]): string {
  return row.tokens
    .filter(([, label]) => labels.includes(label))
    .map(([token]) => token)
    .join(' ');
}

const PO_WORDS = new Set(['BOX', 'BX', 'POB', 'POBOX']);

function boxName(row: UsaddressRow): string {
  const type = row.components.USPSBoxType ?? '';
  const groupType = row.components.USPSBoxGroupType;
  const groupId = row.components.USPSBoxGroupID;
  if (groupId !== undefined) {
    const route = routeBoxAt(tokenize(`${groupType ?? ''} ${groupId} BOX 1`), 0);
    if (route) return route.name;
  }
  const words = tokenize(type).filter((w) => w !== COMMA);
  if (words.some((w) => PO_WORDS.has(w)) || words.join(' ') === 'POST OFFICE') return 'PO BOX';
  return words.join(' ');
}

/**
 * The unit labels in order: the leading run of type tokens is the unit type (`mail code`), the
 * rest the id. An identifier written before its type (`27TH FL`) is swapped; an identifier with
 * no type that starts with a designator (`# 16988`, `No 2202`, `Suite100`, `lobby`) has that
 * designator as its type (Publication 28 section 213 for `#`).
 */
function unitOf(row: UsaddressRow): Pick<Components, 'unitType' | 'unitId'> {
  let parts = row.tokens.filter(([, label]) => /^(Occupancy|Subaddress)(Type|Identifier)$/.test(label));
  if (parts.length === 0) return {};
  const isType = ([, label]: [string, string]): boolean => label.endsWith('Type');
  if (parts.length >= 2 && !isType(parts[0]!) && isType(parts[1]!) && !/^(#|no\.?)$/i.test(parts[0]![0]))
    parts = [parts[1]!, parts[0]!, ...parts.slice(2)];
  const typeEnd = parts.findIndex((part) => !isType(part));
  const types = (typeEnd < 0 ? parts : parts.slice(0, typeEnd)).map(([token]) => token);
  const ids = (typeEnd < 0 ? [] : parts.slice(typeEnd)).map(([token]) => token);
  if (types.length > 0) return { unitType: types.join(' '), unitId: ids.join(' ') };
  const words = tokenize(ids.join(' ')).filter((w) => w !== COMMA);
  const designator = unitDesignatorOf(words[0] ?? '');
  return designator ? { unitType: words[0], unitId: words.slice(1).join(' ') } : { unitId: words.join(' ') };
}

export function usaddressExpected(row: UsaddressRow): Components {
  const c = row.components;
  const out: Components = {
    ...unitOf(row),
    city: c.PlaceName,
    state: c.StateName,
    zip5: c.ZipCode,
    plus4:
      c.ZipPlus4 ??
      (c.ZipCode !== undefined && c.ZipCode.replace(/\D/g, '').length === 9 ? c.ZipCode.replace(/\D/g, '').slice(5) : undefined),
  };
  const hasStreet = c.AddressNumber !== undefined || c.StreetName !== undefined;
  if (!hasStreet && c.USPSBoxType !== undefined) {
    out.number = c.USPSBoxID;
    out.name = boxName(row);
    out.street = out.name;
    return out;
  }
  out.number = labelled(row, ['AddressNumberPrefix', 'AddressNumber', 'AddressNumberSuffix']);
  out.street = labelled(row, [
    'StreetNamePreDirectional',
    'StreetNamePreModifier',
    'StreetNamePreType',
    'StreetName',
    'StreetNamePostType',
    'StreetNamePostDirectional',
  ]);
  if (!isCoarse(row)) {
    out.preDirectional = c.StreetNamePreDirectional;
    out.name = labelled(row, ['StreetNamePreModifier', 'StreetNamePreType', 'StreetName']);
    out.suffix = c.StreetNamePostType;
    out.postDirectional = c.StreetNamePostDirectional;
  }
  return out;
}

/** Components the coarse us50 labels cannot tell apart. */
export const COARSE_SKIPPED: readonly ComponentName[] = ['preDirectional', 'name', 'suffix', 'postDirectional'];

const PO_BOX_TYPE = /^p\W*(?:o|ost\s*office)\W*b(?:ox)?$/i;

/**
 * parse-address's expected `parseLocation` output as components. It files a PO Box under
 * `sec_unit_type`/`sec_unit_num`; we file it as name `PO BOX` + number.
 */
export function parseAddressExpected(row: ParseAddressRow): Components {
  const c = row.components;
  const box = c.sec_unit_type !== undefined && PO_BOX_TYPE.test(c.sec_unit_type.trim());
  const street = [c.prefix, c.street, c.type, c.suffix].filter((part) => part !== undefined).join(' ');
  return {
    number: box ? c.sec_unit_num : c.number,
    preDirectional: c.prefix,
    name: box ? 'PO BOX' : c.street,
    suffix: c.type,
    postDirectional: c.suffix,
    unitType: box ? undefined : c.sec_unit_type,
    unitId: box ? undefined : c.sec_unit_num,
    street: box ? 'PO BOX' : street,
    city: c.city,
    state: c.state,
    zip5: c.zip,
    plus4: c.plus4,
  };
}

export function isIntersection(row: ParseAddressRow): boolean {
  return row.components.street1 !== undefined;
}
