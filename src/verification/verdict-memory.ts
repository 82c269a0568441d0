/**
 * The verdict memory: definitive mailbox verdicts (50, 400, 410) remembered per address for a
 * time per class, so that an address asked again (real-time or in a list) costs no probe. A
 * catch-all domain (45) is a per-domain fact, cached apart (mailbox-stage.ts); anything else
 * (20, 5, a verdict our own network limited, a throttled one) is never remembered.
 *
 * The store holds no address and no reply text (replies echo the recipient): an entry is an HMAC
 * of the scope and the address as probed, under a key derived from the server secret for this use
 * alone, and the code. Pseudonymous, not anonymous: whoever holds the secret can test an address.
 * A new secret gives new ids, so what was remembered under the old one is never found again.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import type { VerdictMemoryScope } from '../core/config.js';
import { CODE, type StatusCode } from './codes.js';
import type { VerdictLimit } from './health/health-state.js';
import type { RememberedCode, RememberedVerdict, VerdictStore } from './verdict-store.js';

export type { RememberedCode, RememberedVerdict, VerdictStore } from './verdict-store.js';

export interface VerdictMemorySettings {
  /** How long each class is remembered; 0: not at all. */
  ttlMs: Record<RememberedCode, number>;
  /** `key`: a key never gets another key's verdicts; `shared`: every key reads what any key learnt. */
  scope: VerdictMemoryScope;
}

export interface VerdictMemory {
  /** The remembered verdict for the address (as probed: local part @ A-label domain), in the caller's scope. */
  recall(address: string, keyId: number | undefined): Promise<RememberedVerdict | undefined>;
  /**
   * Runs the mailbox stage's probe for the address and remembers its result when it is definitive
   * and nothing of ours limited it. While the same address (same scope) is being probed in this
   * process, a second caller waits for that probe instead (a list's repeated rows run at once),
   * until its own deadline: a definitive result is its answer too; any other, it probes itself.
   */
  probe<R extends MailboxOutcome>(
    address: string,
    keyId: number | undefined,
    deadline: number,
    run: () => Promise<R>,
  ): Promise<R | MailboxOutcome>;
}

/** What the memory reads of a mailbox stage's result. */
export interface MailboxOutcome {
  code: StatusCode;
  limit?: VerdictLimit;
}

const REMEMBERED: ReadonlySet<StatusCode> = new Set([CODE.deliverable, CODE.noMailbox, CODE.mailboxFull]);
const KEY_INFO = 'mailsure verdict memory v1';

/** The memory's own key (HKDF-SHA256 of the server secret): not the key that seals webhook secrets. */
export function verdictMemoryKey(serverSecret: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', serverSecret, Buffer.alloc(0), KEY_INFO, 32));
}

/** Names the key without revealing it, so a shared store can tell that the secret changed. */
export function verdictMemoryGeneration(memoryKey: Buffer): string {
  return createHmac('sha256', memoryKey).update('generation').digest('hex').slice(0, 16);
}

export function createVerdictMemory(store: VerdictStore, memoryKey: Buffer, settings: VerdictMemorySettings, clock: Clock): VerdictMemory {
  // 128 bits of the HMAC: collisions are out of reach, and the store stays small.
  const idOf = (address: string, keyId: number | undefined) =>
    createHmac('sha256', memoryKey)
      .update(settings.scope === 'shared' ? '*' : `key:${keyId ?? '-'}`)
      .update('\n')
      .update(address)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  const definitive = (outcome: MailboxOutcome) => outcome.limit === undefined && REMEMBERED.has(outcome.code);
  const inFlight = new Map<string, Promise<MailboxOutcome>>();
  return {
    async recall(address, keyId) {
      const remembered = await store.get(idOf(address, keyId));
      // Whatever else a shared store may hold is no verdict of ours.
      return remembered !== undefined && REMEMBERED.has(remembered.code) ? remembered : undefined;
    },
    async probe(address, keyId, deadline, run) {
      const id = idOf(address, keyId);
      const running = inFlight.get(id);
      if (running) {
        const shared = await beforeDeadline(running, deadline - clock.now());
        if (shared === undefined) return { code: CODE.timeout };
        if (definitive(shared)) return { code: shared.code };
      }
      const probing = run();
      inFlight.set(id, probing);
      try {
        const outcome = await probing;
        const ttlMs = definitive(outcome) ? settings.ttlMs[outcome.code as RememberedCode] : 0;
        if (ttlMs > 0) await store.set(id, { code: outcome.code as RememberedCode, at: clock.now() }, ttlMs);
        return outcome;
      } finally {
        if (inFlight.get(id) === probing) inFlight.delete(id);
      }
    },
  };
}

/** The promise's value, or undefined once `ms` pass (or when it fails: the caller then probes itself or times out). */
function beforeDeadline<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  if (ms <= 0) return Promise.resolve(undefined);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  return Promise.race([promise.catch(() => undefined), late]).finally(() => clearTimeout(timer));
}
