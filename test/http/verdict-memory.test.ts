/**
 * The verdict memory in the test world (real DNS and SMTP servers on loopback): with a 30 % repeat
 * rate, the simulators see one RCPT per distinct address for real-time calls and for a list (the
 * catch-all probes counted apart), and a remembered verdict never hides what the lists and DNS
 * say now (a newly listed trap, a domain that lost its MX) nor crosses from one key to another.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { openMemoryStorage } from '../../src/storage/open-storage.js';
import { verdictMemoryKey } from '../../src/verification/verdict-memory.js';
import { createVerification } from '../../src/wiring/verification.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { runList, validationCodes } from '../helpers/lists.js';
import { ev } from '../helpers/mailbox-app.js';
import { untilSmtpQuiet } from '../helpers/quiet-smtp.js';
import { defaultScenario, startTestWorld, type TestWorld } from '../helpers/world/index.js';

let world: TestWorld;
let t: TestApp;
let key: string;
const MEMORY_ON = { MAILSURE_VERIFY_DEPTH: 'mailbox', MAILSURE_VERDICT_MEMORY: 'on' };

beforeAll(async () => {
  world = await startTestWorld();
  t = await makeTestApp({ env: { ...world.env, ...MEMORY_ON, MAILSURE_METRICS: '127.0.0.1:0' } });
  key = (await t.key('memory', { services: 'verification,lists', variant: 'email_validation' })).key;
  await t.lifecycle.startBackground();
});
afterAll(async () => {
  await t.close();
  await world.close();
});

/** Every RCPT the mailbox simulators received, in order. */
function rcpts(): string[] {
  return [world.smtp.mailboxes, world.smtp.mailboxFull].flatMap((log) =>
    log.sessions.flatMap((session) => session.rcpts.map((r) => r.address)),
  );
}

/** `distinct` in order, in 10 calls per 7 addresses: calls 3, 6 and 9 of every ten repeat an address already asked (30 %). */
function withRepeats(distinct: readonly string[]): string[] {
  const calls: string[] = [];
  let next = 0;
  for (let i = 0; i < (distinct.length / 7) * 10; i++)
    calls.push(i % 10 === 3 || i % 10 === 6 || i % 10 === 9 ? distinct[(i * 7) % next]! : distinct[next++]!);
  return calls;
}

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${t.lifecycle.metricsServer()!.port}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : 0;
}

const { addresses: a, domains: d } = defaultScenario;
const users = (from: number, count: number) => Array.from({ length: count }, (_, i) => `user${from + i}@${d.mailboxOk}`);
/** 28 distinct addresses of all three remembered classes: 50, 400 (the `user…`) and 410. */
const realTimeDistinct = [a.known, a.full452, a.knownToo, a.unknown, a.full552, a.fullDomainKnown, ...users(0, 22)];
const expected = (address: string) =>
  address === a.full452 || address === a.full552 ? 410 : address.startsWith('user') || address === a.unknown ? 400 : 50;

describe('the verdict memory', () => {
  it('real-time: repeats cost no RCPT, and answer what the first call did', async () => {
    world.reset();
    const calls = withRepeats(realTimeDistinct);
    expect(calls).toHaveLength(40);
    for (const email of calls) expect({ email, code: (await ev(t, key, email))!.status_code }).toEqual({ email, code: expected(email) });

    const asked = new Set(realTimeDistinct);
    const seen = rcpts();
    // One RCPT per distinct address; the rest are catch-all probes (a random local part at one of
    // the domains), counted apart: a domain's fact is learnt from the first call that waits for its
    // reply, and an unknown user or a full mailbox is answered before it (mailbox-stage.ts), so a
    // domain may be asked again while it has only such answers.
    expect(seen.filter((r) => asked.has(r)).sort()).toEqual([...realTimeDistinct].sort());
    const domains = new Set(realTimeDistinct.map((address) => address.slice(address.indexOf('@') + 1)));
    const catchAll = seen.filter((r) => !asked.has(r));
    expect(catchAll.length).toBeGreaterThanOrEqual(domains.size);
    expect(catchAll.length).toBeLessThanOrEqual(2 * domains.size);
    for (const probe of catchAll) expect(domains.has(probe.slice(probe.indexOf('@') + 1))).toBe(true);
    expect(await metric('mailsure_cache_lookups_total{cache="verdict-memory",result="hit"}')).toBe(12);
    expect(await metric('mailsure_cache_lookups_total{cache="verdict-memory",result="miss"}')).toBe(28);
  });

  it('a list: rows repeated in it or asked before cost no RCPT, and get the same verdicts', async () => {
    world.reset();
    const fresh = users(100, 70);
    // 100 rows: 70 new addresses, 15 of them twice in a row (so both are asked at once) and 15 asked by the real-time test.
    const rows = [...fresh.flatMap((email, i) => (i < 15 ? [email, email] : [email])), ...realTimeDistinct.slice(0, 15)];
    expect(rows).toHaveLength(100);
    const codes = validationCodes((await runList(t, key, rows, { header: true })).rows);
    for (const email of rows) expect({ email, code: codes.get(email) }).toEqual({ email, code: expected(email) });
    const probed = rcpts().filter((r) => rows.includes(r));
    expect(probed.sort()).toEqual([...fresh].sort());
  });

  it('real-time calls for one address at once: one probe, the others wait for it', async () => {
    await untilSmtpQuiet(world);
    world.reset();
    const email = `user500@${d.mailboxOk}`;
    const codes = await Promise.all([1, 2, 3].map(async () => (await ev(t, key, email))!.status_code));
    expect(codes).toEqual([400, 400, 400]);
    // (A session's RCPTs are logged when it ends.)
    await untilSmtpQuiet(world);
    expect(rcpts().filter((r) => r === email)).toHaveLength(1);
  });

  it('never hides a trap listed since, nor answers one key with what another key learnt', async () => {
    await untilSmtpQuiet(world);
    world.reset();
    // bob@ was remembered as 50 by the first test; since then he is listed as a trap.
    await t.storage.policy.add([{ kind: 'trap', value: a.knownToo }]);
    expect((await ev(t, key, a.knownToo))!.status_code).toBe(525);
    expect((await ev(t, key, a.known))!.status_code).toBe(50);
    expect(rcpts()).toEqual([]);
    // Another key asks alice@ again: a probe of its own (the scope is per key by default).
    const other = (await t.key('other', { variant: 'email_validation' })).key;
    expect((await ev(t, other, a.known))!.status_code).toBe(50);
    await untilSmtpQuiet(world);
    expect(rcpts()).toEqual([a.known]);
  });

  it('never hides a domain that lost its MX', async () => {
    // Its own pipeline, on a clock the test moves past the DNS cache's five minutes.
    let offset = 0;
    const clock = { now: () => Date.now() + offset };
    const dataDir = await mkdtemp(join(tmpdir(), 'mailsure-memory-'));
    const config = loadConfig({ ...world.env, ...MEMORY_ON, MAILSURE_DATA_DIR: dataDir });
    const tuning = { greylistRetryMs: 400, listPresenceTtlMs: 0, activityPresenceTtlMs: 0 };
    const { verify } = createVerification({
      config,
      storage: openMemoryStorage(),
      clock,
      tuning,
      memoryKey: verdictMemoryKey(Buffer.alloc(32, 7)),
    });
    const options = { timeoutMs: 10_000, key: { id: 1, bouncers: false, corrections: false } };
    try {
      world.reset();
      expect((await verify.verify(a.shortTtlKnown, options)).code).toBe(50);
      expect((await verify.verify(a.shortTtlKnown, options)).code).toBe(50);
      expect(rcpts().filter((r) => r === a.shortTtlKnown)).toHaveLength(1);
      const { [d.shortTtl]: _gone, ...rest } = defaultScenario.zone;
      world.dns.setZone(rest);
      offset = 6 * 60_000;
      expect((await verify.verify(a.shortTtlKnown, options)).code).toBe(310);
    } finally {
      world.dns.setZone(defaultScenario.zone);
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
