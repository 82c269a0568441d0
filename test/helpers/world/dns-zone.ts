/**
 * The zone the test DNS server serves, as a plain object, and the pure decision of what to answer.
 * Kept apart from the sockets so a scenario can be read (and unit-tested) as data.
 */

export type DnsBehaviour =
  /** RCODE 3: the name does not exist. Same answer as a name absent from the zone. */
  | 'nxdomain'
  /** RCODE 2: the authoritative side is broken. */
  | 'servfail'
  /** Never answer, so the client's own timeout decides. */
  | 'timeout';

export interface MxRecord {
  priority: number;
  exchange: string;
}

export interface ZoneEntry {
  behaviour?: DnsBehaviour;
  /** RFC 7505 null MX: a single `MX 0 .`, "this domain accepts no mail". */
  nullMx?: boolean;
  mx?: MxRecord[];
  a?: string[];
  aaaa?: string[];
  ns?: string[];
  /** PTR names, for reverse names (`4.3.2.1.in-addr.arpa`). */
  ptr?: string[];
  /** Each TXT record is one string or several character-strings (SPF/DKIM split at 255). */
  txt?: (string | string[])[];
  /** Default TTL for this name's records (seconds). */
  ttl?: number;
  /** Per-type TTL overriding `ttl`. */
  ttls?: Partial<Record<RecordType, number>>;
}

/** Names are matched case-insensitively, with or without the trailing dot. */
export type Zone = Record<string, ZoneEntry>;

export type RecordType = 'mx' | 'a' | 'aaaa' | 'ns' | 'txt' | 'ptr';

/** Wire type numbers (RFC 1035 / 3596) for the types we serve. */
export const TYPE_NUMBER: Record<RecordType, number> = { a: 1, ns: 2, ptr: 12, mx: 15, txt: 16, aaaa: 28 };
const TYPE_BY_NUMBER = new Map(Object.entries(TYPE_NUMBER).map(([name, number]) => [number, name as RecordType]));

export const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;
export const DEFAULT_TTL = 300;
/** SOA minimum in negative answers (RFC 2308 negative-caching TTL). */
export const NEGATIVE_TTL = 60;

export type RecordData =
  | { type: 'mx'; priority: number; exchange: string }
  | { type: 'a' | 'aaaa'; address: string }
  | { type: 'ns'; ns: string }
  | { type: 'ptr'; domain: string }
  | { type: 'txt'; data: string[] };

export type ZoneAnswer =
  { kind: 'drop' } | { kind: 'rcode'; rcode: number } | { kind: 'records'; records: { ttl: number; data: RecordData }[] };

const ANY = 255;

export function normaliseName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

export function lookupZone(zone: Zone, name: string, typeNumber: number): ZoneAnswer {
  const wanted = normaliseName(name);
  const entry = Object.entries(zone).find(([key]) => normaliseName(key) === wanted)?.[1];
  if (!entry || entry.behaviour === 'nxdomain') return { kind: 'rcode', rcode: RCODE.NXDOMAIN };
  if (entry.behaviour === 'servfail') return { kind: 'rcode', rcode: RCODE.SERVFAIL };
  if (entry.behaviour === 'timeout') return { kind: 'drop' };
  // ANY gets everything we hold (what node:dns resolveAny asks for).
  const types = typeNumber === ANY ? [...TYPE_BY_NUMBER.values()] : [TYPE_BY_NUMBER.get(typeNumber)];
  const records = types.flatMap((type) => {
    // Types we do not model (SOA, CAA, …) exist-but-empty: NOERROR/NODATA, as for a real zone.
    if (!type) return [];
    const ttl = entry.ttls?.[type] ?? entry.ttl ?? DEFAULT_TTL;
    return recordsOf(entry, type).map((data) => ({ ttl, data }));
  });
  return { kind: 'records', records };
}

function recordsOf(entry: ZoneEntry, type: RecordType): RecordData[] {
  switch (type) {
    case 'mx':
      if (entry.nullMx) return [{ type: 'mx', priority: 0, exchange: '' }];
      return (entry.mx ?? []).map((mx) => ({ type: 'mx', ...mx }));
    case 'a':
    case 'aaaa':
      return (entry[type] ?? []).map((address) => ({ type, address }));
    case 'ns':
      return (entry.ns ?? []).map((ns) => ({ type: 'ns', ns }));
    case 'txt':
      return (entry.txt ?? []).map((txt) => ({ type: 'txt', data: Array.isArray(txt) ? txt : [txt] }));
    case 'ptr':
      return (entry.ptr ?? []).map((domain) => ({ type: 'ptr', domain }));
  }
}

/**
 * How the whole server lies, whatever the zone says (the resolvers of captive networks, broken
 * containers and NXDOMAIN-rewriting ISPs):
 * - `nxdomain`: every name is NXDOMAIN;
 * - `hijack`: names the zone does not hold answer an A record (an ISP's search page) instead of
 *   NXDOMAIN, and NODATA to other types;
 * - `silent`: nothing is ever answered.
 */
export type ResolverMode = { kind: 'honest' } | { kind: 'nxdomain' } | { kind: 'hijack'; address: string } | { kind: 'silent' };

export function lookupWithMode(zone: Zone, mode: ResolverMode, name: string, typeNumber: number): ZoneAnswer {
  switch (mode.kind) {
    case 'honest':
      return lookupZone(zone, name, typeNumber);
    case 'nxdomain':
      return { kind: 'rcode', rcode: RCODE.NXDOMAIN };
    case 'silent':
      return { kind: 'drop' };
    case 'hijack': {
      const answer = lookupZone(zone, name, typeNumber);
      if (answer.kind !== 'rcode' || answer.rcode !== RCODE.NXDOMAIN) return answer;
      const records = typeNumber === TYPE_NUMBER.a ? [{ ttl: DEFAULT_TTL, data: { type: 'a' as const, address: mode.address } }] : [];
      return { kind: 'records', records };
    }
  }
}
