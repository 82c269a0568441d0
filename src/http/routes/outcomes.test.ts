/**
 * The outcome route's per-token rate limit, over a limiter the test controls (no clock): a token
 * over its rate is answered 429 with Retry-After before its body is read or ingested, and the
 * limiter is told the token's hash, never the token.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { generateOutcomeToken, hashOutcomeToken } from '../../outcomes/ingest-token.js';
import type { OutcomeIngest } from '../../outcomes/ingest-outcomes.js';
import { installErrorHandler } from '../error-handler.js';
import { outcomeRoutes } from './outcomes.js';

async function appWith(wait: number | undefined) {
  const named: string[] = [];
  const ingested: string[] = [];
  const ingest: OutcomeIngest = {
    ingest: async (token) => {
      ingested.push(token);
      return { ok: true, keyId: 1, applied: 0, repeated: 0, subscription: false, events: [] };
    },
  };
  const app = Fastify();
  installErrorHandler(app);
  await outcomeRoutes(app, ingest, {
    consume: async (name) => {
      named.push(name);
      return wait;
    },
  });
  return { app, named, ingested };
}

describe('POST /v5/outcomes rate limit', () => {
  const token = generateOutcomeToken();
  const post = (app: Awaited<ReturnType<typeof appWith>>['app']) =>
    app.inject({ method: 'POST', url: `/v5/outcomes/${token}/sendgrid`, headers: { 'content-type': 'application/json' }, payload: '[]' });

  it('lets a token within its rate through', async () => {
    const { app, named, ingested } = await appWith(undefined);
    const answer = await post(app);
    expect(answer.statusCode).toBe(200);
    expect(ingested).toEqual([token]);
    expect(named).toEqual([`t${hashOutcomeToken(token).slice(0, 32)}`]);
    expect(named.join()).not.toContain(token);
  });

  it('answers 429 with Retry-After to a token over it, and ingests nothing', async () => {
    const { app, ingested } = await appWith(3);
    const answer = await post(app);
    expect({ status: answer.statusCode, retryAfter: answer.headers['retry-after'], body: answer.json() }).toEqual({
      status: 429,
      retryAfter: '3',
      body: { error_code: 429, error_msg: 'Rate limit exceeded' },
    });
    expect(ingested).toEqual([]);
  });
});
