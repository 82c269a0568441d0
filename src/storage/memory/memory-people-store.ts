import type { LookupKey, MatchedProfile, PersonProfile, PersonRecord, PreparedRecord } from '../../people/person.js';
import type { CandidateBlock } from '../../identity/match/candidate-block.js';
import type { CandidateStore } from '../../identity/match/candidate-store.js';
import type { BlockingColumnsStore, BlockingRow } from '../../identity/match/blocking-columns-store.js';
import {
  MAX_NAME_MATCHES,
  type BlockingColumns,
  type NormalizedPerson,
  type NormalizedQuery,
  type PeopleBatch,
  type PeopleStore,
} from '../../people/people-store.js';

interface Stored {
  record: PersonRecord;
  normalized: NormalizedPerson;
  blocking: BlockingColumns;
  prepared: PreparedRecord;
}

/**
 * Applies people one by one, the reference the kysely store's batched plan must agree with.
 * Records are cloned in and out, so callers can't change stored state by mutating a result.
 */
export class MemoryPeopleStore implements PeopleStore, CandidateStore, BlockingColumnsStore {
  private readonly byKey = new Map<string, Stored>();
  private readonly byId = new Map<number, Stored>();
  /** email → person id */
  private readonly owners = new Map<string, number>();
  private readonly sha1s = new Map<string, string>();
  private readonly md5s = new Map<string, string>();
  /** email → mailbox key, for the addresses whose domain has one */
  private readonly mailboxes = new Map<string, string>();
  private lastId = 0;
  /** None recorded until set (a new store's re-derivation has nobody to read, and records it). */
  private blockingDerivedWith = 0;

  async blockingVersion(): Promise<number> {
    return this.blockingDerivedWith;
  }

  async blockingRows(afterId: number, limit: number): Promise<BlockingRow[]> {
    return [...this.byId.entries()]
      .filter(([id]) => id > afterId)
      .sort(([a], [b]) => a - b)
      .slice(0, limit)
      .map(([id, { record, blocking }]) => ({
        id,
        firstName: record.firstName,
        lastName: record.lastName,
        address: record.address,
        ...blocking,
      }));
  }

  async setBlockingColumns(rows: readonly BlockingRow[]): Promise<void> {
    for (const { id, firstName, lastName, address, houseNumber, lastPhonetic } of rows) {
      const stored = this.byId.get(id);
      const person = stored?.record;
      if (person?.firstName !== firstName || person.lastName !== lastName || person.address !== address) continue;
      stored!.blocking = { houseNumber, lastPhonetic };
    }
  }

  async setBlockingVersion(version: number): Promise<void> {
    this.blockingDerivedWith = version;
  }

  async upsert(batch: PeopleBatch): Promise<{ inserted: number; updated: number }> {
    let inserted = 0;
    for (const { person, normalized, blocking, record } of batch.rows) {
      const previous = this.byKey.get(person.personKey);
      if (previous === undefined) inserted += 1;
      const id = previous?.record.id ?? ++this.lastId;
      for (const email of previous?.record.emails ?? []) this.owners.delete(email);
      const emails = person.emails;
      for (const email of emails) {
        const from = this.owners.get(email);
        if (from !== undefined && from !== id) {
          const loser = this.byId.get(from)!.record;
          loser.emails = loser.emails.filter((e) => e !== email);
        }
        this.owners.set(email, id);
        const { sha1, md5, mailbox } = batch.hashes.get(email)!;
        this.sha1s.set(sha1, email);
        this.md5s.set(md5, email);
        if (mailbox !== null) this.mailboxes.set(email, mailbox);
      }
      const stored: Stored = { record: clone({ ...person, id, emails }), normalized, blocking, prepared: record };
      this.byKey.set(person.personKey, stored);
      this.byId.set(id, stored);
    }
    return { inserted, updated: batch.rows.length - inserted };
  }

  async findByEmail(email: string): Promise<PersonRecord | undefined> {
    return this.byEmail(email);
  }

  async findBySha1(hex: string): Promise<PersonRecord | undefined> {
    return this.byEmail(this.sha1s.get(hex));
  }

  async findByMd5(hex: string): Promise<PersonRecord | undefined> {
    return this.byEmail(this.md5s.get(hex));
  }

  async findManyByEmail(emails: string[]): Promise<Map<string, PersonRecord>> {
    return this.many(emails, (email) => email);
  }

  async findManyBySha1(hexes: string[]): Promise<Map<string, PersonRecord>> {
    return this.many(hexes, (hex) => this.sha1s.get(hex));
  }

  async findManyByMd5(hexes: string[]): Promise<Map<string, PersonRecord>> {
    return this.many(hexes, (hex) => this.md5s.get(hex));
  }

  async findManyByMailbox(mailboxes: string[]): Promise<Map<string, PersonRecord>> {
    return this.many(mailboxes, (mailbox) => this.mailboxOwner(mailbox));
  }

  async findProfiles(by: LookupKey, values: readonly string[], withPostal: boolean): Promise<Map<string, MatchedProfile>> {
    const found = new Map<string, MatchedProfile>();
    for (const value of values) {
      const email =
        by === 'email' ? value : by === 'mailbox' ? this.mailboxOwner(value) : (by === 'sha1' ? this.sha1s : this.md5s).get(value);
      const id = email === undefined ? undefined : this.owners.get(email);
      const stored = id === undefined ? undefined : this.byId.get(id);
      if (stored && email !== undefined) found.set(value, { email, profile: profileOf(stored, withPostal) });
    }
    return found;
  }

  async findByNameAndAddress(q: NormalizedQuery): Promise<PersonRecord[]> {
    const found: PersonRecord[] = [];
    // byId iterates in id order: ids only grow.
    for (const { record, normalized } of this.byId.values()) {
      if (found.length === MAX_NAME_MATCHES) break;
      if (matchesQuery(normalized, q)) found.push(clone(record));
    }
    return found;
  }

  async findCandidates(blocks: readonly CandidateBlock[]): Promise<PersonRecord[]> {
    const found: PersonRecord[] = [];
    for (const { record, normalized: n, blocking: b } of this.byId.values()) {
      const hit = blocks.some((block) =>
        block.kind === 'zip-house'
          ? n.zip5 === block.zip5 && b.houseNumber === block.houseNumber
          : block.kind === 'phonetic-zip'
            ? n.zip5 === block.zip5 && b.lastPhonetic === block.lastPhonetic
            : n.state === block.state && b.houseNumber === block.houseNumber,
      );
      if (hit) found.push(clone(record));
    }
    return found;
  }

  async count(): Promise<number> {
    return this.byKey.size;
  }

  /** A stored address that reaches the mailbox, when every such address is one person's. */
  private mailboxOwner(mailbox: string): string | undefined {
    let found: string | undefined;
    for (const [email, key] of this.mailboxes) {
      const owner = key === mailbox ? this.owners.get(email) : undefined;
      if (owner === undefined) continue;
      if (found !== undefined && this.owners.get(found) !== owner) return undefined;
      found ??= email;
    }
    return found;
  }

  private byEmail(email: string | undefined): PersonRecord | undefined {
    const id = email === undefined ? undefined : this.owners.get(email);
    const stored = id === undefined ? undefined : this.byId.get(id);
    return stored && clone(stored.record);
  }

  private many(values: string[], toEmail: (value: string) => string | undefined): Map<string, PersonRecord> {
    const found = new Map<string, PersonRecord>();
    for (const value of values) {
      const record = this.byEmail(toEmail(value));
      if (record) found.set(value, record);
    }
    return found;
  }
}

function profileOf({ record: person, prepared }: Stored, withPostal: boolean): PersonProfile {
  const { firstName, lastName, address, city, state, zip } = person;
  return withPostal ? { record: prepared, postal: { firstName, lastName, address, city, state, zip } } : { record: prepared };
}

function matchesQuery(person: NormalizedPerson, q: NormalizedQuery): boolean {
  return (
    person.firstNorm === q.firstNorm &&
    person.lastNorm === q.lastNorm &&
    (q.streetNorm === undefined || person.streetNorm === q.streetNorm) &&
    (q.cityNorm === undefined || person.cityNorm === q.cityNorm) &&
    (q.state === undefined || person.state === q.state) &&
    (q.zip5 === undefined || person.zip5 === q.zip5)
  );
}

function clone(record: PersonRecord): PersonRecord {
  return { ...record, fields: { ...record.fields }, interests: [...record.interests], emails: [...record.emails] };
}
