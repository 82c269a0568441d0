/** The verdict pipeline as the conformance suite drives it against a real MTA: /v5/ev, both variants. */
import { expect } from 'vitest';
import { makeTestApp, type TestApp } from '../app.js';

export interface ConformanceApp {
  app: TestApp;
  current: string;
  legacy: string;
  /** A key with the evidence permission (explain=true). */
  explained: string;
}

/**
 * An app probing port 25 through the test's DNS server, with `from` as MAIL FROM (undefined: the
 * default). `greylistRetryMs`: the wait before its one retry of a temporary refusal (100 ms: a retry
 * that comes back before any greylisting delay ends; production's is 3 s).
 */
export async function conformanceApp(
  dnsServer: string,
  canary: string,
  from: string | undefined,
  greylistRetryMs = 100,
): Promise<ConformanceApp> {
  const app = await makeTestApp({
    env: {
      MAILSURE_DNS_SERVERS: dnsServer,
      MAILSURE_SMTP_PORT: '25',
      MAILSURE_ALLOW_PRIVATE_TARGETS: '1',
      MAILSURE_SMTP_THROTTLE: 'off',
      MAILSURE_VERDICT_MEMORY: 'off',
      MAILSURE_CANARY_DOMAINS: canary,
      MAILSURE_VERIFY_DEPTH: 'mailbox',
      MAILSURE_SMTP_HELO: 'probe.prober-ok.com',
      ...(from === undefined ? {} : { MAILSURE_SMTP_FROM: from }),
    },
    greylistRetryMs,
  });
  return {
    app,
    current: (await app.key('current')).key,
    legacy: (await app.key('legacy', { variant: 'email_validation' })).key,
    explained: (await app.key('explained', { evidence: true })).key,
  };
}

export interface ExplainedStep {
  command?: string;
  role?: string;
  code?: number;
  enhanced?: string;
  text?: string;
}

/** A verdict with its evidence (explain=true): the code, the rule and this call's SMTP steps. */
export async function explained(
  t: TestApp,
  key: string,
  email: string,
  timeout = CALL_TIMEOUT_S,
): Promise<{ code: number; rule: string; steps: ExplainedStep[] }> {
  const res = await t.app.inject({ url: `/v5/ev?email=${encodeURIComponent(email)}&api_key=${key}&timeout=${timeout}&explain=true` });
  expect(res.statusCode).toBe(200);
  const body = res.json() as { safe_to_send: { status_code: number }; evidence: { rule: string; smtp: { transcript: ExplainedStep[] }[] } };
  if (process.env.MAILSURE_PRINT_EVIDENCE === '1') console.log(JSON.stringify(body, null, 2));
  return { code: body.safe_to_send.status_code, rule: body.evidence.rule, steps: body.evidence.smtp.flatMap((host) => host.transcript) };
}

/**
 * The call's deadline: the most the API allows (30 s), the one upper bound a cell has. Every wait on
 * the MTAs' side (their DNS, policy services, callouts) is configured no shorter, and every wait the
 * cells rely on (a greylisting delay, a tarpit, a callout) is a lower bound far inside it.
 */
export const CALL_TIMEOUT_S = 30;
/** A test's own limit: two calls that each may run to their deadline, and some room. */
export const CELL_TIMEOUT_MS = 2 * CALL_TIMEOUT_S * 1_000 + 20_000;

export async function verdict(
  t: TestApp,
  key: string,
  email: string,
  timeout = CALL_TIMEOUT_S,
): Promise<{ status_code: number; status: string }> {
  const res = await t.app.inject({ url: `/v5/ev?email=${encodeURIComponent(email)}&api_key=${key}&timeout=${timeout}` });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  return (body.safe_to_send ?? body.email_validation) as { status_code: number; status: string };
}
