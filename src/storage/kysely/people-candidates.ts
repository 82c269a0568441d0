/**
 * Identity candidates: one statement per group of blocks — the ids of every block kind, united,
 * then those people with their emails — compiled once per shape (how many blocks of each kind)
 * and run through the raw reader: kysely's compilation and driver path cost more than the
 * indexed lookups themselves. Row-value `IN` reads the composite indexes on both engines.
 */
import type { Kysely } from 'kysely';
import type { PersonRecord } from '../../people/person.js';
import type { CandidateBlock } from '../../identity/match/candidate-block.js';
import { chunks } from '../chunks.js';
import type { Database } from '../database.js';
import { foldPeople, PERSON_COLUMNS, type JoinedRow } from './person-row.js';
import type { RawRead } from './raw-read.js';

/** Blocks a statement: two parameters each, well under both engines' limits. */
const BLOCKS_PER_STATEMENT = 300;
const MAX_SHAPES = 256;

type Of<K extends CandidateBlock['kind']> = Extract<CandidateBlock, { kind: K }>;

export class CandidateQueries {
  private readonly compiled = new Map<string, string>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly read: RawRead,
  ) {}

  async find(blocks: readonly CandidateBlock[]): Promise<PersonRecord[]> {
    const found = new Map<number, PersonRecord>();
    for (const group of chunks([...blocks], BLOCKS_PER_STATEMENT)) {
      const zh = group.filter((b): b is Of<'zip-house'> => b.kind === 'zip-house');
      const pz = group.filter((b): b is Of<'phonetic-zip'> => b.kind === 'phonetic-zip');
      const sh = group.filter((b): b is Of<'state-house'> => b.kind === 'state-house');
      const parameters = [
        ...zh.flatMap((b) => [b.zip5, b.houseNumber]),
        ...pz.flatMap((b) => [b.lastPhonetic, b.zip5]),
        ...sh.flatMap((b) => [b.state, b.houseNumber]),
      ];
      const sql = this.sqlFor(zh, pz, sh, parameters);
      foldPeople(await this.read<JoinedRow>(sql, parameters), (row) => row.id, found);
    }
    return [...found.values()];
  }

  private sqlFor(zh: Of<'zip-house'>[], pz: Of<'phonetic-zip'>[], sh: Of<'state-house'>[], parameters: readonly string[]): string {
    const shape = `${zh.length}:${pz.length}:${sh.length}`;
    let sql = this.compiled.get(shape);
    if (sql !== undefined) return sql;
    const compiled = this.query(zh, pz, sh).compile();
    // Guard the assumption above: the blocks' values are exactly the parameters, in this order.
    if (compiled.parameters.length !== parameters.length || compiled.parameters.some((p, i) => p !== parameters[i])) {
      throw new Error('identity candidate query has unexpected parameters');
    }
    sql = compiled.sql;
    if (this.compiled.size >= MAX_SHAPES) this.compiled.delete(this.compiled.keys().next().value!);
    this.compiled.set(shape, sql);
    return sql;
  }

  private query(zh: Of<'zip-house'>[], pz: Of<'phonetic-zip'>[], sh: Of<'state-house'>[]) {
    const db = this.db;
    const parts = [
      zh.length > 0 &&
        db
          .selectFrom('people')
          .select('id')
          .where((eb) =>
            eb(
              eb.refTuple('zip5', 'house_number'),
              'in',
              zh.map((b) => eb.tuple(b.zip5, b.houseNumber)),
            ),
          ),
      pz.length > 0 &&
        db
          .selectFrom('people')
          .select('id')
          .where((eb) =>
            eb(
              eb.refTuple('last_phonetic', 'zip5'),
              'in',
              pz.map((b) => eb.tuple(b.lastPhonetic, b.zip5)),
            ),
          ),
      sh.length > 0 &&
        db
          .selectFrom('people')
          .select('id')
          .where((eb) =>
            eb(
              eb.refTuple('state', 'house_number'),
              'in',
              sh.map((b) => eb.tuple(b.state, b.houseNumber)),
            ),
          ),
    ].filter((p) => p !== false);
    const ids = parts.slice(1).reduce((union, part) => union.union(part), parts[0]!);
    return db
      .selectFrom('people as p')
      .leftJoin('person_emails as o', 'o.person_id', 'p.id')
      .select(PERSON_COLUMNS)
      .select('o.email as owned')
      .where('p.id', 'in', ids)
      .orderBy('p.id')
      .orderBy('o.position');
  }
}
