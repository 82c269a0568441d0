/**
 * Name + postal queries for the identity benchmarks, read from the people dataset's own NDJSON
 * file (people-dataset.ts keeps it in the data dir): people spread over the whole file, each
 * asked for exactly as stored, the way a list column of known customers would ask.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { IdentityQuery } from '../../src/identity/match/index.js';
import type { PeopleDataset } from './people-dataset.js';

/** The fields /v5/eppend takes for an email append, all present. */
export type NamePostalQuery = Required<Pick<IdentityQuery, 'first' | 'last' | 'street' | 'city' | 'state' | 'zip'>>;

interface PersonLine {
  first_name?: string;
  last_name?: string;
  address?: string;
  city?: string;
  state?: string;
  zip?: string;
}

export async function identityQueries(data: PeopleDataset, wanted: number): Promise<NamePostalQuery[]> {
  const every = Math.max(1, Math.floor(data.count / wanted));
  const out: NamePostalQuery[] = [];
  let line = 0;
  for await (const text of createInterface({ input: createReadStream(join(data.dataDir, 'people.ndjson')), crlfDelay: Infinity })) {
    if (out.length === wanted) break;
    if (line++ % every !== 0) continue;
    const p = JSON.parse(text) as PersonLine;
    if (p.first_name && p.last_name && p.address && p.city && p.state && p.zip) {
      out.push({ first: p.first_name, last: p.last_name, street: p.address, city: p.city, state: p.state, zip: p.zip });
    }
  }
  if (out.length < wanted / 2) throw new Error(`only ${out.length} people of the dataset have a full name and address`);
  return out;
}

/** A GET /v5/eppend path for one query. */
export function eppendPath(q: NamePostalQuery, key: string): string {
  const params = new URLSearchParams({
    first: q.first,
    last: q.last,
    street: q.street,
    city: q.city,
    state: q.state,
    zip: q.zip,
    api_key: key,
  });
  return `/v5/eppend?${params.toString()}`;
}
