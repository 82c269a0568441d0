import { orderMatches } from '../client-list-order.js';
import type { ClientListEntry, ClientListKind, ClientListStore } from '../../verification/client-list-store.js';

export class MemoryClientListStore implements ClientListStore {
  /** key id → kind → values. */
  private readonly lists = new Map<number, Record<ClientListKind, Set<string>>>();

  async add(keyId: number, entries: ClientListEntry[]): Promise<number> {
    const lists = this.listsOf(keyId);
    let added = 0;
    for (const { kind, value } of entries) {
      if (lists[kind].has(value)) continue;
      lists[kind].add(value);
      added += 1;
    }
    return added;
  }

  async match(keyId: number, address: string, domain: string): Promise<ClientListEntry[]> {
    const lists = this.lists.get(keyId);
    if (lists === undefined) return [];
    const kinds: ClientListKind[] = ['suppression', 'exception'];
    const values = [...new Set([address, domain])];
    const found = kinds.flatMap((kind) => values.filter((v) => lists[kind].has(v)).map((value) => ({ kind, value })));
    return orderMatches(found, address);
  }

  async hasAny(keyId: number): Promise<boolean> {
    const lists = this.lists.get(keyId);
    return lists !== undefined && (lists.suppression.size > 0 || lists.exception.size > 0);
  }

  async count(keyId: number, kind: ClientListKind): Promise<number> {
    return this.lists.get(keyId)?.[kind].size ?? 0;
  }

  private listsOf(keyId: number): Record<ClientListKind, Set<string>> {
    let lists = this.lists.get(keyId);
    if (lists === undefined) this.lists.set(keyId, (lists = { suppression: new Set(), exception: new Set() }));
    return lists;
  }
}
