/**
 * `explain=true` at the test world's simulated providers (issue 28 part 3): the provider profile
 * that decided (an accept-all provider is never probed), a gateway whose acceptance proves
 * nothing, and a prober the provider throttles or blocks: unknown, the rule and a one-line reason,
 * never invalid.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { untilSmtpQuiet } from '../helpers/quiet-smtp.js';
import { providerScenario, startTestWorld, type TestWorld } from '../helpers/world/index.js';
import { PROVIDERS } from '../helpers/world/provider-scenario.js';

let world: TestWorld<typeof providerScenario>;
let t: TestApp;
let key: string;

beforeAll(async () => {
  world = await startTestWorld(providerScenario);
  t = await makeTestApp({ env: { ...world.env, MAILSURE_VERIFY_DEPTH: 'mailbox', MAILSURE_SMTP_HELO: 'probe.mailsure-test.com' } });
  key = (await t.key('explained', { evidence: true })).key;
});
beforeEach(async () => {
  await untilSmtpQuiet(world);
  world.reset();
});
afterAll(async () => {
  await t?.close();
  await world?.close();
});

async function explain(email: string) {
  const res = await t.app.inject({ url: `/v5/ev?email=${encodeURIComponent(email)}&api_key=${key}&explain=true` });
  expect(res.statusCode).toBe(200);
  const body = res.json() as {
    safe_to_send: { status: string; status_code: number };
    evidence: { rule: string; reason?: string; stages: { stage: string }[]; smtp: unknown[] };
  };
  return { ...body.safe_to_send, evidence: body.evidence };
}

describe('provider profiles in the evidence', () => {
  it('an accept-all provider: its profile decided, and nothing was probed', async () => {
    const answer = await explain(`alice@${PROVIDERS.yahoo.domains[0]}`);
    expect([answer.status_code, answer.evidence.rule]).toEqual([20, 'provider.accepts-all']);
    expect(answer.evidence.stages).toContainEqual({ stage: 'provider', profile: 'yahoo', rcpt: 'none' });
    expect(answer.evidence.reason).toBe('the provider accepts every recipient at RCPT time and bounces later: not probed');
    expect(answer.evidence.smtp).toEqual([]);
    expect(world.smtp.yahoo.connections).toBe(0);
  });

  it('a gateway: its acceptance is no proof (20), its refusal of an unknown user is (400)', async () => {
    const accepted = await explain(`alice@${PROVIDERS.mimecast.domains[0]}`);
    expect([accepted.status_code, accepted.evidence.rule]).toEqual([20, 'mailbox.accepted-unproven']);
    expect(accepted.evidence.stages).toContainEqual({ stage: 'provider', profile: 'mimecast', rcpt: 'refusals-only' });
    const refused = await explain(`nobody.here@${PROVIDERS.mimecast.domains[0]}`);
    expect([refused.status_code, refused.evidence.rule]).toEqual([400, 'mailbox.unknown-user']);
  });

  it('Gmail: an existing user and an unknown one, by its profile', async () => {
    expect((await explain(`alice@${PROVIDERS.google.domains[0]}`)).evidence.rule).toBe('mailbox.accepted');
    const unknown = await explain(`nobody.here@${PROVIDERS.google.domains[0]}`);
    expect([unknown.status_code, unknown.evidence.rule]).toEqual([400, 'mailbox.unknown-user']);
    expect(unknown.evidence.stages).toContainEqual({ stage: 'provider', profile: 'google', rcpt: 'mailbox' });
  });

  it('a prober the provider throttles: unknown, the throttle named, never invalid', async () => {
    world.setProviderMode('google', 'throttled');
    for (const email of [`alice@${PROVIDERS.google.domains[0]}`, `nobody.here@${PROVIDERS.google.domains[0]}`]) {
      const answer = await explain(email);
      expect([answer.status_code, answer.evidence.rule]).toEqual([20, 'mailbox.throttled']);
      expect(answer.evidence.reason).toMatch(/^mailbox not checked: the provider asked us to slow down/);
    }
  });

  it('a prober the provider blocks: a refusal of us, never a verdict about the address', async () => {
    world.setProviderMode('microsoft-365', 'blocked');
    const answer = await explain(`nobody.here@${PROVIDERS['microsoft-365'].domains[0]}`);
    expect([answer.status_code, answer.evidence.rule]).toEqual([20, 'mailbox.refusal-of-us']);
    expect(answer.evidence.reason).toMatch(/^mailbox not checked: the provider refused us/);
  });
});
