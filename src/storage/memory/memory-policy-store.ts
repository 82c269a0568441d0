import type { PolicyEntry, PolicyKind, PolicyStore } from '../../verification/policy/policy-store.js';
import { orderPolicyMatches } from '../kysely/policy-store.js';

export class MemoryPolicyStore implements PolicyStore {
  private readonly byValue = new Map<string, Set<PolicyKind>>();

  async add(entries: PolicyEntry[]): Promise<number> {
    let added = 0;
    for (const { kind, value } of entries) {
      let kinds = this.byValue.get(value);
      if (!kinds) this.byValue.set(value, (kinds = new Set()));
      if (kinds.has(kind)) continue;
      kinds.add(kind);
      added += 1;
    }
    return added;
  }

  async match(address: string, domain: string): Promise<PolicyEntry[]> {
    const found = [...new Set([address, domain])].flatMap((value) => [...(this.byValue.get(value) ?? [])].map((kind) => ({ kind, value })));
    return orderPolicyMatches(found, address);
  }

  async hasAny(): Promise<boolean> {
    return this.byValue.size > 0;
  }

  async count(kind: PolicyKind): Promise<number> {
    let n = 0;
    for (const kinds of this.byValue.values()) if (kinds.has(kind)) n += 1;
    return n;
  }
}
