/**
 * Delivers the list-completion callback (decisions §6): a POST of the list resource, signed
 * with the key's webhook secret, to the addresses the target check allowed (connecting to the
 * checked address, so a DNS answer that changes between check and connect can't redirect it),
 * retried with back-off until a 2xx or the last try. Every attempt is recorded on the list.
 *
 * The recorded attempts are the schedule (retry-schedule.ts `nextCallbackTry`): timers here only
 * wait for the next try's time, so a restarted process resumes every undelivered callback from
 * the store (`resume`), the next try at its time or at once when overdue.
 *
 * Several processes may follow one callback (scale-out: each resumes it at start). Each try is
 * made under the list's lease CALLBACK_STEP (ListStore.claim, as chunks and steps are), held from
 * before the try until it is recorded, and only if, once the lease is held, no other try was
 * recorded since the schedule was read: one process makes each try. We reuse the lease rather than add a compare-and-set column because a lease
 * also covers a process dying mid-try — the lease runs out and another process makes the
 * unrecorded try again (a receiver may then, rarely, see one callback twice) — where a claimed
 * counter would lose the try; and it needs no migration.
 */
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import type { ApiKeyRecord } from '../../accounts/key-config.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { KeyStore } from '../../accounts/key-store.js';
import { checkCallbackTarget, type LookupAll } from '../callback/callback-url.js';
import { CALLBACK_TIMEOUT_MS, isDelivered, MAX_ATTEMPTS, nextCallbackTry } from '../callback/retry-schedule.js';
import { SIGNATURE_HEADER, signBody } from '../callback/sign-body.js';
import type { ListRow, ListStore } from '../list-record.js';
import { notifiesCallback } from '../states.js';
import { CALLBACK_STEP, createLeases, LEASE_MS } from './lease.js';
import { renderList } from './list-resource.js';

export interface CallbackSender {
  /** Follows a finished list's callback: the next try now (or when due), the rest on their timers. */
  send(listId: number): void;
  /** Follows every callback an earlier process left undelivered (at start). */
  resume(): Promise<void>;
  /** Stops waiting: the attempts so far stay recorded and the next start resumes the rest. */
  close(): void;
}

export function createCallbackSender(deps: {
  store: ListStore;
  keys: Pick<KeyStore, 'findById'>;
  clock: Clock;
  logger: Logger;
  allowPrivateTargets: boolean;
  lookup?: LookupAll;
  /** Scales the back-off (tests). */
  delayScale?: number;
  /** This process's name in leases (default host:pid:random). */
  worker?: string;
  /** Limit on one whole attempt (default CALLBACK_TIMEOUT_MS, 10 s). */
  timeoutMs?: number;
}): CallbackSender {
  const leases = createLeases(deps.store, deps.worker ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`, deps.clock);
  /** Lists this process follows (one chain of timers each, whoever asked: the runner or resume). */
  const following = new Set<number>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const later = (listId: number, ms: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      void step(listId);
    }, ms);
    timer.unref();
    timers.add(timer);
  };

  /** One look at a list's callback: stop following it, wait for the next try, or make it. */
  const step = async (listId: number): Promise<void> => {
    try {
      for (;;) {
        if (closed) return;
        const list = await deps.store.get(listId);
        const key = list?.callbackUrl && notifiesCallback(list.status) ? await deps.keys.findById(list.keyId) : undefined;
        const attempts = await deps.store.callbackAttempts(listId);
        const next = list && key ? nextCallbackTry(attempts, deps.delayScale) : undefined;
        if (!list || !key || !next) break;
        const wait = next.dueAt - deps.clock.now();
        if (wait > 0) return later(listId, wait);
        // Another process is making this try: look again once its lease would have run out.
        if (!(await leases.take(listId, CALLBACK_STEP))) return later(listId, LEASE_MS);
        await leases.hold(listId, CALLBACK_STEP, async () => {
          // Held: a try recorded since the read above was another process's; count from it instead.
          if ((await deps.store.callbackAttempts(listId)).length === attempts.length) await attempt(list, key, next.number);
        });
        // Recorded: whoever takes the lease next reads this try and counts from it.
        await leases.release(listId, CALLBACK_STEP);
      }
    } catch (e) {
      // A store that failed now may answer later: the attempts recorded say where to go on.
      deps.logger.error({ err: e, list_id: listId }, 'list callback failed');
      if (!closed) return later(listId, LEASE_MS);
    }
    following.delete(listId);
  };

  const attempt = async (list: ListRow, key: ApiKeyRecord, number: number): Promise<void> => {
    const body = JSON.stringify(renderList(list, list.records));
    const url = new URL(list.callbackUrl!);
    let status: number | null = null;
    let error: string | null = null;
    const target = await checkCallbackTarget(url, {
      allowPrivate: deps.allowPrivateTargets,
      ...(deps.lookup ? { lookup: deps.lookup } : {}),
    });
    if (!target.ok) error = target.reason;
    else {
      try {
        status = await post(url, target.value[0]!, body, signBody(key.webhookSecret, body), deps.timeoutMs ?? CALLBACK_TIMEOUT_MS);
        if (!isDelivered(status)) error = `answered HTTP ${status}`;
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
    }
    await deps.store.addCallbackAttempt(list.id, { at: new Date(deps.clock.now()).toISOString(), status, error });
    if (error !== null) deps.logger.warn({ list_id: list.id, attempt: number, reason: error }, 'list callback not delivered');
  };

  const follow = (listId: number) => {
    if (closed || following.has(listId)) return;
    following.add(listId);
    void step(listId);
  };

  return {
    send: follow,
    async resume() {
      for (const list of await deps.store.pendingCallbacks(MAX_ATTEMPTS)) follow(list.id);
    },
    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

/** How often a process looks for callbacks nobody follows (their process died after its start). */
export const CALLBACK_SWEEP_MS = 60_000;

/**
 * Resumes callbacks every `everyMs`: a list whose callback a process began and then died with is
 * taken over by a live one within a sweep, not only when some process next starts. Following is
 * idempotent and each try is leased, so sweeping processes never send one try twice.
 */
export function sweepCallbacks(
  sender: Pick<CallbackSender, 'resume'>,
  logger: Pick<Logger, 'warn'>,
  everyMs = CALLBACK_SWEEP_MS,
): () => void {
  const timer = setInterval(
    () => void sender.resume().catch((error: unknown) => logger.warn({ err: error }, 'could not look for list callbacks')),
    everyMs,
  );
  timer.unref();
  return () => clearInterval(timer);
}

function post(url: URL, address: string, body: string, signature: string, timeoutMs: number): Promise<number> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        timeout: timeoutMs,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          [SIGNATURE_HEADER]: signature,
          'user-agent': 'Mailsure',
        },
        // Connect to the address that was checked, whatever DNS says now.
        lookup: (_host, options, callback) => {
          const family = isIP(address);
          if ((options as { all?: boolean }).all)
            (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
          else (callback as (e: null, a: string, f: number) => void)(null, address, family);
        },
      },
      (res) => {
        // The status is all we need: the body is not read, so a receiver cannot hold us with it.
        clearTimeout(whole);
        resolve(res.statusCode ?? 0);
        res.destroy();
      },
    );
    // A limit on the whole exchange, not only on silence: a receiver trickling a byte every few
    // seconds would otherwise hold each attempt as long as it likes.
    const late = () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`));
    const whole = setTimeout(late, timeoutMs);
    req.on('timeout', late);
    req.on('error', (error) => {
      clearTimeout(whole);
      reject(error);
    });
    req.end(body);
  });
}
