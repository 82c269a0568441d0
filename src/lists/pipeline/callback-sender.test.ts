import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createKey } from '../../accounts/key-admin.js';
import { systemClock } from '../../core/clock.js';
import { createLogger } from '../../core/logger.js';
import type { Storage } from '../../storage/interfaces.js';
import { openMemoryStorage, openStorage } from '../../storage/open-storage.js';
import { newList } from '../../storage/contract/fixtures.js';
import { verifySignature } from '../callback/sign-body.js';
import { createCallbackSender, sweepCallbacks, type CallbackSender } from './callback-sender.js';
import { until } from '../../../test/helpers/until.js';

const logger = createLogger('silent');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const stores: [string, () => Promise<Storage>][] = [
  ['memory', async () => openMemoryStorage()],
  [
    'sqlite',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'mailsure-callback-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      return openStorage({ dataDir: dir });
    },
  ],
];

/** A receiver that answers 200 slowly, so a second sender would overlap a try in flight. */
async function receiver(): Promise<{ url: string; received: { body: string; signature: string | undefined }[] }> {
  const received: { body: string; signature: string | undefined }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ body, signature: req.headers['x-mailsure-signature'] as string | undefined });
      setTimeout(() => res.end('ok'), 50);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

describe('callback sender against a receiver that trickles', () => {
  it('gives up on the whole attempt at its time limit, though bytes keep coming, and ignores the body', async () => {
    const storage = openMemoryStorage();
    cleanups.push(() => storage.close());
    // Headers never finish: a byte of them every 100 ms, for ever.
    const sockets = new Set<Socket>();
    const trickler = createNetServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.write('HTTP/1.1 200 OK\r\n');
      const drip = setInterval(() => socket.write('X'), 100);
      socket.once('close', () => clearInterval(drip));
    });
    await new Promise<void>((r) => trickler.listen(0, '127.0.0.1', r));
    cleanups.push(() => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => trickler.close(() => r()));
    });
    const key = await createKey(storage.keys, 'acme', { services: 'verification,lists' });
    const list = await storage.lists.create(
      newList(key.record.id, { callbackUrl: `http://127.0.0.1:${(trickler.address() as AddressInfo).port}/hook` }),
    );
    await storage.lists.update(list.id, { status: 'Results' });
    const sender = createCallbackSender({
      store: storage.lists,
      keys: storage.keys,
      clock: systemClock,
      logger,
      allowPrivateTargets: true,
      worker: 'w',
      timeoutMs: 500,
    });
    cleanups.push(() => sender.close());
    sender.send(list.id);
    const attempts = await until(async () => {
      const recorded = await storage.lists.callbackAttempts(list.id);
      return recorded.length > 0 ? recorded : undefined;
    }, 'the attempt that timed out');
    // The silence timer never fires (a byte comes every 100 ms); only the whole-attempt limit ends it.
    expect(attempts.map((a) => [a.status, a.error])).toEqual([[null, 'no answer within 0.5 s']]);
  });
});

describe.each(stores)('callback sender on %s', (_, open) => {
  it('two senders started on one store deliver a pending callback exactly once', async () => {
    const storage = await open();
    cleanups.push(() => storage.close());
    const { url, received } = await receiver();
    const key = await createKey(storage.keys, 'acme', { services: 'verification,lists' });
    const list = await storage.lists.create(newList(key.record.id, { callbackUrl: url }));
    await storage.lists.update(list.id, { status: 'Results' });
    // An earlier process's first try failed two minutes ago: the second is overdue.
    await storage.lists.addCallbackAttempt(list.id, {
      at: new Date(Date.now() - 120_000).toISOString(),
      status: null,
      error: 'connect ECONNREFUSED',
    });

    const sender = (worker: string): CallbackSender => {
      const s = createCallbackSender({
        store: storage.lists,
        keys: storage.keys,
        clock: systemClock,
        logger,
        allowPrivateTargets: true,
        worker,
      });
      cleanups.push(() => s.close());
      return s;
    };
    const [a, b] = [sender('a'), sender('b')];
    await Promise.all([a.resume(), b.resume()]);
    // The runner of either process asking too changes nothing.
    a.send(list.id);
    b.send(list.id);

    await until(async () => (await storage.lists.callbackAttempts(list.id)).length >= 2, 'the delivery');
    // Time for a second delivery to show, were there one.
    await new Promise((r) => setTimeout(r, 200));
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ list_id: list.id, status: 'Results' });
    expect(verifySignature(key.webhookSecret, received[0]!.body, received[0]!.signature)).toBe(true);
    expect((await storage.lists.callbackAttempts(list.id)).map((x) => [x.status, x.error])).toEqual([
      [null, 'connect ECONNREFUSED'],
      [200, null],
    ]);
  });

  it('takes over, within a sweep, a callback that became due after this process started', async () => {
    const storage = await open();
    cleanups.push(() => storage.close());
    const { url, received } = await receiver();
    const key = await createKey(storage.keys, 'acme', { services: 'verification,lists' });
    const sender = createCallbackSender({
      store: storage.lists,
      keys: storage.keys,
      clock: systemClock,
      logger,
      allowPrivateTargets: true,
      worker: 'survivor',
    });
    cleanups.push(() => sender.close());
    await sender.resume(); // Nothing pending yet.
    cleanups.push(sweepCallbacks(sender, logger, 30));

    // Another process finished this list, failed its first try and died before the second.
    const list = await storage.lists.create(newList(key.record.id, { callbackUrl: url }));
    await storage.lists.update(list.id, { status: 'Results' });
    await storage.lists.addCallbackAttempt(list.id, {
      at: new Date(Date.now() - 120_000).toISOString(),
      status: null,
      error: 'connect ECONNREFUSED',
    });

    // The delivery is recorded once the sender has the receiver's answer, after the receiver saw it.
    await until(async () => (await storage.lists.callbackAttempts(list.id)).length >= 2, 'the delivery');
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ list_id: list.id, status: 'Results' });
    await new Promise((r) => setTimeout(r, 150));
    // Later sweeps find it delivered: no second try.
    expect((await storage.lists.callbackAttempts(list.id)).map((x) => x.status)).toEqual([null, 200]);
  });
});
