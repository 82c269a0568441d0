/**
 * Whether there is any list to look in, remembered for a few seconds: most keys have no
 * suppressions or exceptions, and most deployments no policy list, so the per-address lookups
 * are skipped for them. An import made by the CLI (another process) is seen within `ttlMs`.
 */
import type { Clock } from '../core/clock.js';
import type { ClientListStore } from './client-list-store.js';
import type { PolicyStore } from './policy/policy-store.js';

export interface ListPresence {
  policy(): Promise<boolean>;
  client(keyId: number): Promise<boolean>;
  /** The remembered answers without waiting: undefined when not known or expired. */
  peekPolicy(): boolean | undefined;
  peekClient(keyId: number): boolean | undefined;
  /** Whether any key's outcomes listed any address (false without an outcome store). */
  outcomes(): Promise<boolean>;
  peekOutcomes(): boolean | undefined;
}

/** What presence asks of the outcome lists. */
export interface OutcomePresence {
  hasEntries(): Promise<boolean>;
}

export function createListPresence(
  policy: PolicyStore,
  clientLists: ClientListStore,
  clock: Clock,
  ttlMs = 5_000,
  outcomes?: OutcomePresence,
): ListPresence {
  const known = new Map<string, { present: boolean; expires: number }>();
  const remembered = async (key: string, ask: () => Promise<boolean>): Promise<boolean> => {
    const hit = known.get(key);
    if (hit && hit.expires > clock.now()) return hit.present;
    const present = await ask();
    if (known.size > 50_000) known.clear();
    known.set(key, { present, expires: clock.now() + ttlMs });
    return present;
  };
  const peek = (key: string): boolean | undefined => {
    const hit = known.get(key);
    return hit && hit.expires > clock.now() ? hit.present : undefined;
  };
  return {
    peekPolicy: () => peek('policy'),
    peekClient: (keyId) => peek(`client:${keyId}`),
    policy: () => remembered('policy', () => policy.hasAny()),
    client: (keyId) => remembered(`client:${keyId}`, () => clientLists.hasAny(keyId)),
    peekOutcomes: () => (outcomes ? peek('outcomes') : false),
    outcomes: () => (outcomes ? remembered('outcomes', () => outcomes.hasEntries()) : Promise.resolve(false)),
  };
}
