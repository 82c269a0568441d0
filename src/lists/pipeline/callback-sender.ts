/**
 * Delivers the list-completion callback (decisions §6): a POST of the list resource, signed
 * with the key's webhook secret, to the addresses the target check allowed (connecting to the
 * checked address, so a DNS answer that changes between check and connect can't redirect it),
 * retried with back-off until a 2xx or the last try. Every attempt is recorded on the list.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { KeyStore } from '../../storage/interfaces.js';
import { checkCallbackTarget, type LookupAll } from '../callback/callback-url.js';
import { CALLBACK_TIMEOUT_MS, isDelivered, nextAttemptDelayMs } from '../callback/retry-schedule.js';
import { SIGNATURE_HEADER, signBody } from '../callback/sign-body.js';
import type { ListStore } from '../list-record.js';
import { renderList } from './list-resource.js';

export interface CallbackSender {
  /** Starts delivery for a finished list (attempt 1 now, retries on their timers). */
  send(listId: number): void;
  /** Pending retries are dropped: the attempts so far stay recorded. */
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
}): CallbackSender {
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const attempt = async (listId: number, number: number): Promise<void> => {
    const list = await deps.store.get(listId);
    if (!list?.callbackUrl) return;
    const key = await deps.keys.findById(list.keyId);
    if (!key) return;
    const body = JSON.stringify(renderList(list, list.records));
    const url = new URL(list.callbackUrl);
    let status: number | null = null;
    let error: string | null = null;
    const target = await checkCallbackTarget(url, { allowPrivate: deps.allowPrivateTargets, ...(deps.lookup ? { lookup: deps.lookup } : {}) });
    if (!target.ok) error = target.reason;
    else {
      try {
        status = await post(url, target.value[0]!, body, signBody(key.webhookSecret, body));
        if (!isDelivered(status)) error = `answered HTTP ${status}`;
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
    }
    await deps.store.addCallbackAttempt(listId, { at: new Date(deps.clock.now()).toISOString(), status, error });
    if (error === null) return;
    deps.logger.warn({ list_id: listId, attempt: number, reason: error }, 'list callback not delivered');
    const delay = nextAttemptDelayMs(number);
    if (delay === undefined || closed) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      void attempt(listId, number + 1).catch((e: unknown) => deps.logger.error({ err: e, list_id: listId }, 'list callback failed'));
    }, delay * (deps.delayScale ?? 1));
    timer.unref();
    timers.add(timer);
  };

  return {
    send(listId) {
      if (closed) return;
      void attempt(listId, 1).catch((e: unknown) => deps.logger.error({ err: e, list_id: listId }, 'list callback failed'));
    },
    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

function post(url: URL, address: string, body: string, signature: string): Promise<number> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        timeout: CALLBACK_TIMEOUT_MS,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), [SIGNATURE_HEADER]: signature, 'user-agent': 'Mailsure' },
        // Connect to the address that was checked, whatever DNS says now.
        lookup: (_host, options, callback) => {
          const family = isIP(address);
          if ((options as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
          else (callback as (e: null, a: string, f: number) => void)(null, address, family);
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${CALLBACK_TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
    req.end(body);
  });
}
