/**
 * /metrics after a known sequence of calls, scraped over HTTP from the listener `serve` starts
 * (MAILSURE_METRICS): request counts by route pattern, verdicts by code, SMTP and DNS outcomes,
 * cache hits, list progress and callbacks, prober health. And what must never be there: an
 * address, a key, a list id as a label, or the metrics on the API port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startCallbackReceiver } from '../helpers/callback-receiver.js';
import { multipart } from '../helpers/multipart.js';
import { startTestWorld, type TestWorld } from '../helpers/world/index.js';
import { until } from '../helpers/until.js';

let world: TestWorld;
let t: TestApp;
let key: string;
let receiver: Awaited<ReturnType<typeof startCallbackReceiver>>;

beforeAll(async () => {
  world = await startTestWorld();
  receiver = await startCallbackReceiver();
  t = await makeTestApp({
    env: { ...world.env, MAILSURE_VERIFY_DEPTH: 'mailbox', MAILSURE_METRICS: '127.0.0.1:0', MAILSURE_ALLOW_PRIVATE_TARGETS: 'on' },
  });
  key = (await t.key('metrics', { services: 'verification,lists' })).key;
  await t.health.start();
  await t.lifecycle.startBackground();
});
afterAll(async () => {
  await t.close();
  receiver.close();
  await world.close();
});

/** Every sample of the exposition text, `name{labels}` → value. */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    found.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return found;
}

async function scrape(path = '/metrics'): Promise<Response> {
  const server = t.lifecycle.metricsServer();
  if (!server) throw new Error('the metrics listener did not start');
  return fetch(`http://127.0.0.1:${server.port}${path}`);
}

const verify = async (email: string, k = key) => {
  const res = await t.app.inject({ url: `/v5/ev?email=${encodeURIComponent(email)}&api_key=${k}` });
  return { status: res.statusCode, code: res.statusCode === 200 ? (res.json().safe_to_send.status_code as number) : undefined };
};

describe('GET /metrics', () => {
  it('counts a known sequence of calls, lists and callbacks', async () => {
    expect(await verify(world.addresses.known)).toEqual({ status: 200, code: 50 });
    expect(await verify(world.addresses.unknown)).toEqual({ status: 200, code: 400 });
    expect(await verify(world.addresses.knownToo)).toEqual({ status: 200, code: 50 });
    expect((await verify(world.addresses.known, 'wrong-key')).status).toBe(401);
    expect((await t.app.inject({ url: '/no/such/path' })).statusCode).toBe(404);

    const csv = `email\n${world.addresses.known}\n${world.addresses.unknown}\nbob@${world.domains.nxdomain}\n`;
    const { payload, headers } = multipart([{ name: 'file', filename: 'three.csv', content: csv }]);
    const submitted = await t.app.inject({
      method: 'POST',
      url: `/v5/list?header=true&callback_url=${encodeURIComponent(receiver.url)}`,
      headers: { ...headers, api_key: key },
      payload,
    });
    expect(submitted.statusCode).toBe(202);
    const listId = (submitted.json() as { list_id: number }).list_id;
    await t.lists.idle();
    // Counted once the sender has the receiver's answer (and recorded the attempt), after the receiver saw it.
    await until(async () => (await t.storage.lists.callbackAttempts(listId)).length > 0, 'the recorded callback attempt');
    expect(receiver.received).toHaveLength(1);

    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    const m = samples(text);

    expect(m.get('mailsure_http_requests_total{method="GET",route="/v5/ev",status="200"}')).toBe(3);
    expect(m.get('mailsure_http_requests_total{method="GET",route="/v5/ev",status="401"}')).toBe(1);
    expect(m.get('mailsure_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(m.get('mailsure_http_requests_total{method="POST",route="/v5/list",status="202"}')).toBe(1);
    expect(m.get('mailsure_http_request_duration_seconds_count{method="GET",route="/v5/ev"}')).toBe(4);

    // Real time: 50, 400, 50. The list: 50, 400 and NXDOMAIN (310).
    expect(m.get('mailsure_verdicts_total{code="50",status="safetosend",depth="mailbox"}')).toBe(3);
    expect(m.get('mailsure_verdicts_total{code="400",status="invalid",depth="mailbox"}')).toBe(2);
    expect(m.get('mailsure_verdicts_total{code="310",status="invalid",depth="mailbox"}')).toBe(1);
    expect(m.get('mailsure_smtp_recipient_replies_total{provider="default",class="no-mailbox"}')).toBeGreaterThanOrEqual(2);
    expect(m.get('mailsure_smtp_recipient_replies_total{provider="default",class="accepted"}')).toBeGreaterThanOrEqual(3);
    expect(m.get('mailsure_smtp_probes_total{provider="default",outcome="replies"}')).toBeGreaterThanOrEqual(1);
    expect(m.get('mailsure_dns_mail_routes_total{outcome="nxdomain"}')).toBeGreaterThanOrEqual(1);
    // Two domains, each looked up once (the domain stage keeps what it learnt); the one domain
    // probed five times learns whether it accepts all once and reads it from the cache after.
    expect(m.get('mailsure_cache_lookups_total{cache="mx",result="miss"}')).toBe(2);
    expect(m.get('mailsure_cache_lookups_total{cache="catch-all",result="miss"}')).toBe(1);
    expect(m.get('mailsure_cache_lookups_total{cache="catch-all",result="hit"}')).toBeGreaterThanOrEqual(3);

    expect(m.get('mailsure_list_records_processed_total')).toBe(3);
    expect(m.get('mailsure_list_state_changes_total{status="Pending"}')).toBe(1);
    expect(m.get('mailsure_list_state_changes_total{status="Results"}')).toBe(1);
    expect(m.get('mailsure_lists{status="Results"}')).toBe(1);
    expect(m.get('mailsure_lists{status="Pending"}')).toBe(0);
    expect(m.get('mailsure_list_duration_seconds_count{status="Results"}')).toBe(1);
    expect(m.get('mailsure_list_queue_jobs{state="active"}')).toBe(0);
    expect(m.get('mailsure_list_callbacks_total{outcome="delivered"}')).toBe(1);
    expect(m.get('mailsure_prober_health{concern="resolver",state="ok"}')).toBe(1);
    expect(m.get('mailsure_prober_health{concern="resolver",state="failed"}')).toBe(0);
    expect(m.get('mailsure_smtp_egress_healthy{egress="egress-1"}')).toBe(1);
    // prom-client's process metrics keep their standard names, which stock Node.js dashboards read.
    for (const name of [
      'process_resident_memory_bytes',
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ])
      expect(m.has(name), name).toBe(true);
    expect([...m.keys()].filter((name) => name.startsWith('mailsure_process_') || name.startsWith('mailsure_nodejs_'))).toEqual([]);

    // Nothing personal, nothing secret, nothing unbounded.
    expect(text).not.toContain('@');
    expect(text).not.toContain(key);
    expect(text).not.toContain(world.domains.mailboxOk);
    expect(listId).toBeGreaterThan(0);
    // Bounded label names only: ours, and the process metrics' own (heap space, Node version, GC kind).
    const labelNames = new Set([...text.matchAll(/[{,]([a-z_]+)="/g)].map((match) => match[1]));
    // (`egress`: one value per configured egress, its opaque label.)
    const allowed = [
      'method',
      'route',
      'status',
      'code',
      'depth',
      'limit',
      'outcome',
      'class',
      'provider',
      'cache',
      'result',
      'concern',
      'state',
      'egress',
      'le',
      'space',
      'version',
      'major',
      'minor',
      'patch',
      'kind',
      'type',
    ];
    expect([...labelNames].filter((name) => !allowed.includes(name!))).toEqual([]);
  });

  it('logs one line per request, each list state change and each delivered callback, without addresses', () => {
    const lines = t.logs.map((line) => JSON.parse(line) as { msg: string; url?: string; status?: number; ms?: number });
    const requests = lines.filter((l) => l.msg.startsWith('GET /v5/ev'));
    expect(requests).toHaveLength(4);
    expect(requests[0]).toMatchObject({ url: '/v5/ev?email=~&api_key=~', status: 200 });
    expect(typeof requests[0]!.ms).toBe('number');
    expect(lines.some((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toBe(false);
    const listLines = lines.map((l) => l.msg).filter((msg) => /^list \d+ /.test(msg));
    expect(listLines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^list \d+ submitted$/),
        expect.stringMatching(/^list \d+ Processing → Results$/),
        expect.stringMatching(/^list \d+ callback delivered$/),
      ]),
    );
    expect(t.logs.join('\n')).not.toContain(world.addresses.known);
  });

  it('is served only on its own listener: 404 elsewhere there, and not on the API port', async () => {
    expect((await scrape('/other')).status).toBe(404);
    expect((await scrape('/metrics?x=1')).status).toBe(200);
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(404);
  });
});
