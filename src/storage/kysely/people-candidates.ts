/**
 * Identity candidates: one indexed id query per block kind and chunk, then one fetch of those
 * people with their emails. Row-value `IN` reads the composite indexes on both engines.
 */
import type { Kysely } from 'kysely';
import type { PersonRecord } from '../../enrichment/person.js';
import type { CandidateBlock } from '../../identity/match/candidate-block.js';
import { chunks, LOOKUP_CHUNK } from '../chunks.js';
import type { Database } from '../database.js';
import { foldPeople, type JoinedRow } from './person-row.js';

/** Two values a tuple. */
const TUPLES = Math.floor(LOOKUP_CHUNK / 2);

export async function findCandidates(db: Kysely<Database>, blocks: readonly CandidateBlock[]): Promise<PersonRecord[]> {
  const ids = new Set<number>();
  const byKind = <K extends CandidateBlock['kind']>(kind: K) => blocks.filter((b): b is Extract<CandidateBlock, { kind: K }> => b.kind === kind);

  for (const chunk of chunks(byKind('zip-house'), TUPLES)) {
    const rows = await db
      .selectFrom('people')
      .select('id')
      .where((eb) => eb(eb.refTuple('zip5', 'house_number'), 'in', chunk.map((b) => eb.tuple(b.zip5, b.houseNumber))))
      .execute();
    for (const row of rows) ids.add(row.id);
  }
  for (const chunk of chunks(byKind('phonetic-zip'), TUPLES)) {
    const rows = await db
      .selectFrom('people')
      .select('id')
      .where((eb) => eb(eb.refTuple('last_phonetic', 'zip5'), 'in', chunk.map((b) => eb.tuple(b.lastPhonetic, b.zip5))))
      .execute();
    for (const row of rows) ids.add(row.id);
  }
  for (const chunk of chunks(byKind('state-house'), TUPLES)) {
    const rows = await db
      .selectFrom('people')
      .select('id')
      .where((eb) => eb(eb.refTuple('state', 'house_number'), 'in', chunk.map((b) => eb.tuple(b.state, b.houseNumber))))
      .execute();
    for (const row of rows) ids.add(row.id);
  }

  const found = new Map<number, PersonRecord>();
  for (const chunk of chunks([...ids].sort((a, b) => a - b), LOOKUP_CHUNK)) {
    const rows = await db
      .selectFrom('people as p')
      .leftJoin('person_emails as o', 'o.person_id', 'p.id')
      .selectAll('p')
      .select('o.email as owned')
      .where('p.id', 'in', chunk)
      .orderBy('p.id')
      .orderBy('o.position')
      .execute();
    foldPeople(rows as JoinedRow[], (row) => row.id, found);
  }
  return [...found.values()];
}
