/** An app verifying at depth mailbox in the test world, prober health started, and what tests ask it: verdicts and /readyz. */
import { expect } from 'vitest';
import type { HealthTuning } from '../../src/wiring/prober-health.js';
import { makeTestApp, type TestApp } from './app.js';
import type { TestWorld } from './world/index.js';

export interface MailboxApp {
  t: TestApp;
  /** A key of the current variant (safe_to_send). */
  key: string;
  /** A key of the legacy variant (email_validation). */
  legacy: string;
}

/**
 * An app at depth mailbox in `world`, its first health check done (as `serve` does), added to
 * `apps` for the caller to close; `env` overrides the world's variables.
 */
export async function startMailboxApp(
  world: Pick<TestWorld, 'env'>,
  apps: TestApp[],
  env: Record<string, string> = {},
  health: HealthTuning = {},
): Promise<MailboxApp> {
  const t = await makeTestApp({
    env: { ...world.env, MAILSURE_VERIFY_DEPTH: 'mailbox', MAILSURE_SMTP_HELO: 'probe.mailsure-test.com', ...env },
    health,
  });
  apps.push(t);
  await t.health.start();
  return { t, key: (await t.key('k')).key, legacy: (await t.key('legacy', { variant: 'email_validation' })).key };
}

/** The verdict's body, whichever variant the key gets. */
export async function ev(t: TestApp, key: string, email: string) {
  const res = await t.app.inject({ url: `/v5/ev?email=${encodeURIComponent(email)}&api_key=${key}` });
  expect(res.statusCode).toBe(200);
  const body = res.json() as Record<string, { status: string; status_code: number }>;
  return body.safe_to_send ?? body.email_validation;
}

interface ProberConcern {
  state: string;
  evidence: string[];
  hint?: string;
}

/** The /readyz body (asserted 200). */
export async function readyz(t: TestApp) {
  const res = await t.app.inject({ url: '/readyz' });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    status: string;
    prober: Record<'resolver' | 'smtp_egress' | 'identity', ProberConcern> & {
      mailbox_verification: string;
      smtp_egresses?: { healthy: number; total: number };
    };
  };
}
