/**
 * The operator's API behind MAILSURE_ADMIN_TOKEN (off, and these routes absent, without it): keys
 * with their usage and quotas, creating and revoking keys, prober health, the recent lists of
 * every key, and the accuracy measured from ESP outcomes. The dashboard's operator view calls it; so can a script. The token comes as
 * `Authorization: Bearer <token>` and is compared in constant time; wrong tokens from one address
 * are slowed (admin-throttle.ts). Never in the OpenAPI document
 * (the typed client is for integrators, not operators). Secrets never leave: no key hash and no
 * webhook secret but once, at creation.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createKey, KeyOptionError, type KeyOptions } from '../../accounts/key-admin.js';
import type { ApiKeyRecord } from '../../accounts/key-config.js';
import { DuplicateKeyName, type KeyStore } from '../../accounts/key-store.js';
import type { UsageStore } from '../../accounts/usage-store.js';
import type { Clock } from '../../core/clock.js';
import { errors } from '../../core/errors.js';
import type { ListService } from '../../lists/list-service.js';
import { accuracyReport, DEFAULT_ACCURACY_DAYS, windowStart } from '../../outcomes/accuracy.js';
import type { OutcomeStore } from '../../outcomes/outcome-store.js';
import type { ProberHealthBody } from '../../verification/health/render-health.js';
import type { EgressStatus } from '../../verification/smtp/egress-pool.js';
import type { AdminThrottle } from '../admin-throttle.js';
import { valueOf } from '../error-handler.js';

export interface AdminDeps {
  /** MAILSURE_ADMIN_TOKEN. */
  token: string;
  /** Slows token guessing per client address (admin-throttle.ts). */
  throttle: AdminThrottle;
  keys: KeyStore;
  usage: UsageStore;
  /** The accuracy counts of outcome ingestion (GET /v5/admin/outcomes); absent: no such route. */
  outcomes?: { store: Pick<OutcomeStore, 'accuracy'>; clock: Clock };
}

/** Lists shown per key, and in all, in the recent-lists view. */
const LISTS_PER_KEY = 20;
const RECENT_LISTS = 50;

const digest = (value: string) => createHash('sha256').update(value).digest();

function authorize(expected: Buffer, throttle: AdminThrottle, request: FastifyRequest): void {
  const header = request.headers.authorization;
  const given = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  // No token is no guess: it is answered 401 and never slowed (the dashboard asks so whether the
  // operator view exists).
  if (!given) throw errors.invalidAdminToken();
  const wait = throttle.waitSeconds(request.ip);
  if (wait > 0) throw errors.adminSlowedDown(wait);
  // Digests of equal length, so the comparison takes the same time whatever was sent.
  if (!timingSafeEqual(digest(given), expected)) {
    throttle.failed(request.ip);
    throw errors.invalidAdminToken();
  }
  throttle.succeeded(request.ip);
}

function keyView(record: ApiKeyRecord, usage?: Record<string, number>) {
  return {
    name: record.name,
    key_prefix: record.keyPrefix,
    services: record.services,
    variant: record.variant,
    fields: record.fields,
    quota: record.quota,
    calls_used: record.callsUsed,
    rate: record.rate,
    record_rate: record.recordRate,
    trial: record.trial,
    evidence: record.evidence,
    created_at: record.createdAt,
    revoked_at: record.revokedAt,
    ...(usage ? { usage } : {}),
  };
}

/**
 * `services` or `fields` as the key resource answers them (an array of names) or as `mailsure keys
 * create` takes them (a comma-separated string): an array becomes that string, its names then
 * checked as the CLI's.
 */
function listOption(option: 'services' | 'fields', value: unknown): string | null | undefined {
  if (value === undefined || value === null || typeof value === 'string') return value;
  const what = option === 'services' ? 'service' : 'field';
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) {
    throw errors.badRequest(`Invalid key: ${option} must be an array of ${what} names or a comma-separated string`);
  }
  if (value.length === 0) throw errors.badRequest(`Invalid key: ${option} must name at least one ${what}`);
  // One name per entry: "a,b" in one entry is no name, not two.
  const unnamed = value.filter((name) => name.trim() === '' || name.includes(','));
  if (unnamed.length) throw errors.badRequest(`Invalid key: unknown ${what} ${unnamed.map((name) => JSON.stringify(name)).join(', ')}`);
  return value.join(',');
}

export async function adminRoutes(
  app: FastifyInstance,
  deps: AdminDeps,
  lists: ListService,
  proberHealth?: () => ProberHealthBody,
  egresses?: () => EgressStatus[],
): Promise<void> {
  const expected = digest(deps.token);
  const hide = { hide: true };
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request) => authorize(expected, deps.throttle, request));

    scope.get('/v5/admin/keys', { schema: hide }, async () => {
      const all = await deps.keys.list();
      return { keys: await Promise.all(all.map(async (record) => keyView(record, await deps.usage.totals(record.id)))) };
    });

    scope.post<{ Body: { name?: unknown } & Record<string, unknown> }>('/v5/admin/keys', { schema: hide }, async (request, reply) => {
      const body = request.body ?? {};
      if (typeof body !== 'object' || typeof body.name !== 'string') throw errors.badRequest('Invalid key: name is required');
      const options: KeyOptions = {};
      // The body's names are the key resource's (record_rate), the options' the CLI's (recordRate).
      for (const [field, option] of [
        ['services', 'services'],
        ['fields', 'fields'],
        ['quota', 'quota'],
        ['rate', 'rate'],
        ['record_rate', 'recordRate'],
        ['variant', 'variant'],
      ] as const) {
        const value = field === 'services' || field === 'fields' ? listOption(field, body[field]) : body[field];
        if (value === undefined || value === null || value === '') continue;
        if (typeof value !== 'string' && typeof value !== 'number') throw errors.badRequest(`Invalid key: ${field} must be a string`);
        options[option] = String(value);
      }
      if (body.evidence !== undefined && body.evidence !== null) {
        if (typeof body.evidence !== 'boolean') throw errors.badRequest('Invalid key: evidence must be true or false');
        options.evidence = body.evidence;
      }
      try {
        const created = await createKey(deps.keys, body.name, options);
        return reply.code(201).send({ key: created.key, webhook_secret: created.webhookSecret, ...keyView(created.record) });
      } catch (error) {
        if (error instanceof KeyOptionError) throw errors.badRequest(`Invalid key: ${error.message}`);
        if (error instanceof DuplicateKeyName) throw errors.duplicateKeyName(body.name);
        throw error;
      }
    });

    scope.delete<{ Params: { name: string } }>('/v5/admin/keys/:name', { schema: hide }, async (request) => {
      const revoked = await deps.keys.revoke(request.params.name, new Date().toISOString());
      if (!revoked) throw errors.noSuchKey();
      return keyView(revoked);
    });

    // Prober health, and each SMTP egress by its label and kind (never its address or credentials).
    scope.get('/v5/admin/health', { schema: hide }, async () => ({
      ...(proberHealth?.() ?? {}),
      ...(egresses
        ? {
            smtp_egress_pool: egresses().map(({ label, way, healthy, detail, since }) => ({
              label,
              way,
              healthy,
              ...(detail !== undefined ? { detail } : {}),
              ...(since !== undefined ? { since: new Date(since).toISOString() } : {}),
            })),
          }
        : {}),
    }));

    scope.get('/v5/admin/lists', { schema: hide }, async () => {
      const keys = await deps.keys.list();
      const pages = await Promise.all(
        keys.map(async (key) =>
          valueOf(await lists.page(key, { per_page: String(LISTS_PER_KEY) })).lists.map((list) => ({ key_name: key.name, ...list })),
        ),
      );
      const recent = pages.flat().sort((a, b) => b.created_at.localeCompare(a.created_at) || b.list_id - a.list_id);
      return { lists: recent.slice(0, RECENT_LISTS) };
    });

    // What ESPs reported after our verdicts, every key, over the rolling window: per verdict class and kind, and per ESP.
    const outcomes = deps.outcomes;
    if (outcomes)
      scope.get('/v5/admin/outcomes', { schema: hide }, async () => {
        const since = windowStart(outcomes.clock.now(), DEFAULT_ACCURACY_DAYS);
        const report = accuracyReport(await outcomes.store.accuracy(undefined, since), since);
        return { since: report.since, total: report.total, classes: report.classes, by_source: report.bySource };
      });
  });
}
