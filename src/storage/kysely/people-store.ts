import type { Compilable, Kysely } from 'kysely';
import type { LookupKey, MatchedProfile, PersonRecord } from '../../people/person.js';
import { chunks, LOOKUP_CHUNK } from '../chunks.js';
import type { Database } from '../database.js';
import { MAX_NAME_MATCHES, type NormalizedQuery, type PeopleBatch, type PeopleStore } from '../../people/people-store.js';
import type { CandidateBlock } from '../../identity/match/candidate-block.js';
import type { CandidateStore } from '../../identity/match/candidate-store.js';
import type { BlockingColumnsStore } from '../../identity/match/blocking-columns-store.js';
import { kyselyBlockingColumns } from './people-blocking.js';
import { CandidateQueries } from './people-candidates.js';
import { rawReader, type RawRead } from './raw-read.js';
import {
  foldPeople,
  PERSON_COLUMNS,
  personRow,
  POSTAL_COLUMNS,
  PROFILE_COLUMNS,
  profileOf,
  type JoinedRow,
  type ProfileRow,
} from './person-row.js';

/** 20 columns a row: 450 rows bind 9,000 parameters. */
const PEOPLE_ROWS = 450;
/** 6 columns a row. */
const EMAIL_ROWS = 1_500;

export class KyselyPeopleStore implements PeopleStore, CandidateStore, BlockingColumnsStore {
  private readonly read: RawRead;
  private readonly candidates: CandidateQueries;
  private readonly blocking: BlockingColumnsStore;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.read = rawReader(db);
    this.candidates = new CandidateQueries(db, this.read);
    this.blocking = kyselyBlockingColumns(db);
  }

  blockingVersion(): Promise<number> {
    return this.blocking.blockingVersion();
  }

  blockingRows(afterId: number, limit: number) {
    return this.blocking.blockingRows(afterId, limit);
  }

  setBlockingColumns(rows: Parameters<BlockingColumnsStore['setBlockingColumns']>[0]): Promise<void> {
    return this.blocking.setBlockingColumns(rows);
  }

  setBlockingVersion(version: number): Promise<void> {
    return this.blocking.setBlockingVersion(version);
  }

  async upsert(batch: PeopleBatch, marks: { demo?: boolean } = {}): Promise<{ inserted: number; updated: number }> {
    if (batch.rows.length === 0) return { inserted: 0, updated: 0 };
    const plan = batch.plan;
    const updatedAt = this.now().toISOString();
    // One transaction: a batch lands whole or not at all, and SQLite syncs once per call.
    return this.db.transaction().execute(async (trx) => {
      const existing = new Set<string>();
      for (const keys of chunks(
        plan.map((row) => row.person.personKey),
        LOOKUP_CHUNK,
      )) {
        const rows = await trx.selectFrom('people').select('person_key').where('person_key', 'in', keys).execute();
        for (const { person_key } of rows) existing.add(person_key);
      }

      const ids = new Map<string, number>();
      for (const rows of chunks([...plan], PEOPLE_ROWS)) {
        const inserted = await trx
          .insertInto('people')
          .values(rows.map((row) => ({ ...personRow(row, updatedAt), demo: marks.demo ? 1 : 0 })))
          .onConflict((oc) =>
            oc.column('person_key').doUpdateSet((eb) => ({
              first_name: eb.ref('excluded.first_name'),
              middle_name: eb.ref('excluded.middle_name'),
              last_name: eb.ref('excluded.last_name'),
              address: eb.ref('excluded.address'),
              city: eb.ref('excluded.city'),
              state: eb.ref('excluded.state'),
              zip: eb.ref('excluded.zip'),
              zip5: eb.ref('excluded.zip5'),
              first_norm: eb.ref('excluded.first_norm'),
              last_norm: eb.ref('excluded.last_norm'),
              street_norm: eb.ref('excluded.street_norm'),
              city_norm: eb.ref('excluded.city_norm'),
              house_number: eb.ref('excluded.house_number'),
              last_phonetic: eb.ref('excluded.last_phonetic'),
              fields: eb.ref('excluded.fields'),
              interests: eb.ref('excluded.interests'),
              record: eb.ref('excluded.record'),
              record_fields: eb.ref('excluded.record_fields'),
              updated_at: eb.ref('excluded.updated_at'),
              // Whoever loaded the person last owns it: an import makes a demo person the operator's.
              demo: eb.ref('excluded.demo'),
            })),
          )
          .returning(['id', 'person_key'])
          .execute();
        for (const row of inserted) ids.set(row.person_key, row.id);
      }

      // Replace, not merge: the file's list is the person's list. New people have nothing to drop.
      const replaced = [...existing].map((key) => ids.get(key)!);
      for (const ids of chunks(replaced, LOOKUP_CHUNK)) {
        await trx.deleteFrom('person_emails').where('person_id', 'in', ids).execute();
      }
      const emailRows = plan.flatMap(({ person: p }) =>
        p.emails.map((email, position) => ({
          email,
          person_id: ids.get(p.personKey)!,
          position,
          sha1: batch.hashes.get(email)!.sha1,
          md5: batch.hashes.get(email)!.md5,
          mailbox: batch.hashes.get(email)!.mailbox,
        })),
      );
      for (const rows of chunks(emailRows, EMAIL_ROWS)) {
        // An address another person holds moves to this one.
        await trx
          .insertInto('person_emails')
          .values(rows)
          .onConflict((oc) =>
            oc.column('email').doUpdateSet((eb) => ({ person_id: eb.ref('excluded.person_id'), position: eb.ref('excluded.position') })),
          )
          .execute();
      }
      return batch.count(existing);
    });
  }

  async findByEmail(email: string): Promise<PersonRecord | undefined> {
    return (await this.findBy('email', [email])).get(email);
  }

  async findBySha1(hex: string): Promise<PersonRecord | undefined> {
    return (await this.findBy('sha1', [hex])).get(hex);
  }

  async findByMd5(hex: string): Promise<PersonRecord | undefined> {
    return (await this.findBy('md5', [hex])).get(hex);
  }

  findManyByEmail(emails: string[]): Promise<Map<string, PersonRecord>> {
    return this.findBy('email', emails);
  }

  findManyBySha1(hexes: string[]): Promise<Map<string, PersonRecord>> {
    return this.findBy('sha1', hexes);
  }

  findManyByMd5(hexes: string[]): Promise<Map<string, PersonRecord>> {
    return this.findBy('md5', hexes);
  }

  findManyByMailbox(mailboxes: string[]): Promise<Map<string, PersonRecord>> {
    return this.findBy('mailbox', mailboxes);
  }

  /**
   * One query per chunk: the matched email row, its person, and every email of that person. A
   * mailbox that two people's addresses reach is left out (the domain's rule: no guess).
   */
  private async findBy(column: LookupKey, values: readonly string[]): Promise<Map<string, PersonRecord>> {
    const found = new Map<string, PersonRecord>();
    const shared = new Set<string>();
    for (const chunk of chunks([...new Set(values)], LOOKUP_CHUNK)) {
      const rows = await this.readCompiled<JoinedRow>(`person:${column}:${chunk.length}`, chunk, () => this.personQuery(column, chunk));
      foldPeople(rows, (row) => row.matched!, found, column === 'mailbox' ? shared : undefined);
    }
    for (const key of shared) found.delete(key);
    return found;
  }

  async findProfiles(by: LookupKey, values: readonly string[], withPostal: boolean): Promise<Map<string, MatchedProfile>> {
    const found = new Map<string, MatchedProfile>();
    const owner = new Map<string, number>();
    const shared = new Set<string>();
    // One value (every /v5/td call) needs no de-duplication or chunking.
    for (const chunk of values.length === 1 ? [values] : chunks([...new Set(values)], LOOKUP_CHUNK)) {
      const shape = `profile:${by}:${withPostal}:${chunk.length}`;
      for (const row of await this.readCompiled<ProfileRow>(shape, chunk, () => this.profileQuery(by, chunk, withPostal))) {
        // Two addresses with one hash (never seen for SHA-1 or MD5 of distinct addresses): one answers.
        // Two people's addresses reaching one mailbox: none does.
        const first = owner.get(row.matched);
        if (first === undefined) {
          owner.set(row.matched, Number(row.person_id));
          found.set(row.matched, { email: row.email, profile: profileOf(row) });
        } else if (by === 'mailbox' && first !== Number(row.person_id)) shared.add(row.matched);
      }
    }
    for (const key of shared) found.delete(key);
    return found;
  }

  /**
   * Runs a lookup whose SQL for one shape (column and chunk length) never changes, the chunk's
   * values being its only parameters, in order: compiled once, because kysely's compilation
   * costs as much as the lookup itself.
   */
  private async readCompiled<R>(shape: string, chunk: readonly string[], build: () => Compilable): Promise<R[]> {
    let text = this.compiled.get(shape);
    if (text === undefined) {
      const compiled = build().compile();
      // Guard the assumption above: the chunk's values are exactly the parameters, in order.
      if (compiled.parameters.length !== chunk.length || compiled.parameters.some((p, i) => p !== chunk[i])) {
        throw new Error('people lookup query has unexpected parameters');
      }
      text = compiled.sql;
      this.compiled.set(shape, text);
    }
    return this.read<R>(text, chunk);
  }

  private readonly compiled = new Map<string, string>();

  private personQuery(column: LookupKey, chunk: readonly string[]) {
    return this.db
      .selectFrom('person_emails as m')
      .innerJoin('people as p', 'p.id', 'm.person_id')
      .innerJoin('person_emails as o', 'o.person_id', 'p.id')
      .select(PERSON_COLUMNS)
      .select([`m.${column} as matched`, 'o.email as owned'])
      .where(`m.${column}`, 'in', chunk)
      .orderBy('p.id')
      .orderBy('o.position');
  }

  /** The matched row and its person's row: no email list, so no second join and one row each. */
  private profileQuery(column: LookupKey, chunk: readonly string[], withPostal: boolean) {
    return this.db
      .selectFrom('person_emails as m')
      .innerJoin('people as p', 'p.id', 'm.person_id')
      .select(withPostal ? [...PROFILE_COLUMNS, ...POSTAL_COLUMNS] : PROFILE_COLUMNS)
      .select([`m.${column} as matched`, 'm.email as email', 'm.person_id as person_id'])
      .where(`m.${column}`, 'in', chunk);
  }

  async findByNameAndAddress(q: NormalizedQuery): Promise<PersonRecord[]> {
    let ids = this.db.selectFrom('people').select('id').where('last_norm', '=', q.lastNorm).where('first_norm', '=', q.firstNorm);
    if (q.streetNorm !== undefined) ids = ids.where('street_norm', '=', q.streetNorm);
    if (q.cityNorm !== undefined) ids = ids.where('city_norm', '=', q.cityNorm);
    if (q.state !== undefined) ids = ids.where('state', '=', q.state);
    if (q.zip5 !== undefined) ids = ids.where('zip5', '=', q.zip5);
    const rows = await this.db
      .selectFrom('people as p')
      .leftJoin('person_emails as o', 'o.person_id', 'p.id')
      .select(PERSON_COLUMNS)
      .select('o.email as owned')
      .where('p.id', 'in', ids.orderBy('id').limit(MAX_NAME_MATCHES))
      .orderBy('p.id')
      .orderBy('o.position')
      .execute();
    return [...foldPeople(rows as JoinedRow[], (row) => row.id).values()];
  }

  findCandidates(blocks: readonly CandidateBlock[]): Promise<PersonRecord[]> {
    if (blocks.length === 0) return Promise.resolve([]);
    return this.candidates.find(blocks);
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('people')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
