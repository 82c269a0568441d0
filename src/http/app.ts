/**
 * buildApp(deps): the Fastify instance with every route, no listening. Tests call inject() on it;
 * `serve` adds TLS and listen.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { KeyAuthenticator } from '../accounts/key-authenticator.js';
import type { UsageMeter } from '../accounts/usage-meter.js';
import type { Logger } from '../core/logger.js';
import type { VerifyService } from '../verification/verify-service.js';
import type { EnrichService } from '../enrichment/enrich-service.js';
import type { AppendService } from '../identity/append/index.js';
import { enrichmentRoutes } from './routes/enrichment.js';
import { identityRoutes } from './routes/identity.js';
import { installAuth } from './auth.js';
import { clientErrorHandler, frameworkErrorHandler, installErrorHandler } from './error-handler.js';
import { SECURITY_HEADERS } from './security-headers.js';
import { installHttpsOnly } from './https-only.js';
import { parseQueryString } from './query-string.js';
import { createKeyRateLimiter, createNamedRateLimiter, createRecordRateLimiter } from './rate-limit.js';
import { installBodyDeadlines } from './body-deadlines.js';
import { createBulkSlots, type BulkSlots } from './bulk-slots.js';
import { healthRoutes, type ReadinessCheck } from './routes/health.js';
import type { ProberHealthBody } from '../verification/health/render-health.js';
import type { EgressStatus } from '../verification/smtp/egress-pool.js';
import { listRoutes } from './routes/lists.js';
import { installEndAfterDrain } from './end-after-drain.js';
import { installRequestTelemetry } from './request-telemetry.js';
import type { Metrics } from '../observability/metrics.js';
import type { ListService } from '../lists/list-service.js';
import { verifyRoutes } from './routes/verify.js';
import { DASHBOARD_CSP, dashboardRoutes } from './dashboard.js';
import { adminRoutes, type AdminDeps } from './routes/admin.js';
import { DOCS_OPTIONS, openApiOptions } from './openapi.js';
import type { OutcomeIngest } from '../outcomes/ingest-outcomes.js';
import { OUTCOME_DELIVERIES_PER_SECOND, outcomeRoutes } from './routes/outcomes.js';
import './route-config.js';

export interface AppDeps {
  logger: Logger;
  authenticator: KeyAuthenticator;
  meter: UsageMeter;
  verify: VerifyService;
  enrich: EnrichService;
  append: AppendService;
  /** The List API's operations. */
  lists: ListService;
  /** Shared rate-limit store; null keeps the limiter in-process. */
  redis: Redis | null;
  /** Redis key prefix of the rate-limit counters (tests isolate themselves with it). */
  rateLimitNamespace?: string;
  /** Bulk calls one key may have in progress at once (MAILSURE_BULK_CALLS_PER_KEY). */
  bulkCallsPerKey: number;
  /** The cap's own counter instead of one made from `bulkCallsPerKey` (tests watch it). */
  bulkSlots?: BulkSlots;
  /** Plain HTTP behind a proxy that must forward `X-Forwarded-Proto: https`. */
  trustProxy: boolean;
  readiness: Record<string, ReadinessCheck>;
  /** Whether an error is a dependency that did not answer in time (a stalled database): 503, not 500. */
  isDependencyStall?: (error: unknown) => boolean;
  /** Prober health for `/readyz`'s body (reported, never a reason to be unready). */
  proberHealth?: () => ProberHealthBody;
  /** Each SMTP egress by label, for the operator view (never in /readyz, which counts them only). */
  egresses?: () => EgressStatus[];
  /** The object store of lists, when configured: reported by /readyz, never making it unready. */
  listStoreCheck?: ReadinessCheck;
  /** Longest time to receive one whole request, body included (MAILSURE_REQUEST_TIMEOUT_SECONDS): a list upload's deadline. */
  requestTimeoutMs?: number;
  /** Longest time for any other body (a bulk call's JSON) to arrive whole (MAILSURE_BODY_TIMEOUT_SECONDS). */
  bodyTimeoutMs?: number;
  /** Bodies one client address may have arriving at once (MAILSURE_BODIES_PER_ADDRESS). */
  bodiesPerAddress?: number;
  /** Request counters and latencies by route (MAILSURE_METRICS); absent, none are kept. */
  metrics?: Metrics;
  /** The operator's API (/v5/admin/…) and its stores, when MAILSURE_ADMIN_TOKEN is set; absent: no such routes. */
  admin?: AdminDeps;
  /** Outcome ingestion (POST /v5/outcomes/{token}/{source}); absent: no such route. */
  outcomes?: OutcomeIngest;
  /** The built dashboard's folder (default dist/dashboard/, where scripts/build.mjs writes it). */
  dashboardDir?: string;
  /** Options for the underlying server, e.g. `https` (set by `serve`). */
  serverOptions?: { https?: { key: Buffer; cert: Buffer } };
}

/**
 * Request ids: a random prefix per process and a counter — unique across processes and restarts
 * without a random UUID per request.
 */
const REQUEST_ID_PREFIX = crypto.randomUUID().slice(0, 8);
let requestSeq = 0;
const nextRequestId = () => `${REQUEST_ID_PREFIX}-${(++requestSeq).toString(36)}`;
/** Half an hour: a 1 GB list at under 1 MB/s still arrives; a connection held for ever does not. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 1_800_000;

/**
 * A minute for a JSON body: the largest accepted (16 MB, bodyLimit) at 4 Mbit/s takes 34 s, and a
 * 5,000-record bulk call (about 1 MB) at 1 Mbit/s 8 s.
 */
export const DEFAULT_BODY_TIMEOUT_MS = 60_000;

/** Bodies arriving at once from one address: well past the bulk and upload caps of a few keys behind one NAT. */
export const DEFAULT_BODIES_PER_ADDRESS = 64;

/** What a trusted proxy's `X-Request-Id` may look like to be kept (it lands in logs and headers). */
const FORWARDED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * A proxy's `X-Request-Id` is kept only when proxies are trusted (`trustProxy`) and it is a plain
 * token; otherwise any client could choose the ids our logs are searched by.
 */
function requestIdGenerator(trustProxy: boolean): (request: { headers: Record<string, string | string[] | undefined> }) => string {
  if (!trustProxy) return nextRequestId;
  return (request) => {
    const given = request.headers['x-request-id'];
    return typeof given === 'string' && FORWARDED_REQUEST_ID.test(given) ? given : nextRequestId();
  };
}

/** The API's version in the OpenAPI document: the path version (`/v5`) and this server's release. */
const API_VERSION = '5';

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger,
    ...(deps.serverOptions ?? {}),
    trustProxy: deps.trustProxy,
    requestIdHeader: false,
    logController: new LogController({
      requestIdLogLabel: 'request_id',
      // One line per request instead, written when the answer is sent (request-telemetry.ts).
      disableRequestLogging: true,
    }),
    genReqId: requestIdGenerator(deps.trustProxy),
    routerOptions: { querystringParser: parseQueryString, ignoreTrailingSlash: true },
    // Our error body also for what fails before routing, or before Fastify sees a request at all.
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    bodyLimit: 16 * 1024 * 1024,
    // A body that never ends (a slow-loris upload) is cut off: 408 and the connection closed.
    requestTimeout: deps.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
  }) as unknown as FastifyInstance;
  // Fastify sets requestTimeout on the server after making it, leaving Node's headersTimeout at
  // 60 s; Node then takes the larger of the two as the request's deadline (it swaps them), so a
  // 20 s setting cut bodies after 60 s, found at the next of its 30-second checks: 80 s.
  app.server.headersTimeout = Math.min(app.server.headersTimeout, app.server.requestTimeout || Infinity);

  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    // The dashboard's pages run their own scripts and styles (src/http/dashboard.ts); nothing else does.
    if (/^\/dashboard(?:[/?]|$)/.test(request.url)) reply.header('content-security-policy', DASHBOARD_CSP);
    reply.header('x-request-id', request.id);
    // Answers carry personal data (verdicts, people, lists): no cache along the way keeps them.
    if (request.url.startsWith('/v5/')) reply.header('cache-control', 'no-store');
    done();
  });

  installRequestTelemetry(app, deps.metrics);
  installEndAfterDrain(app);
  installErrorHandler(app, deps.isDependencyStall);
  if (deps.trustProxy) installHttpsOnly(app);
  const rateNamespace = deps.rateLimitNamespace ?? 'mailsure:rate';
  installAuth(app, {
    ...deps,
    limiter: createKeyRateLimiter(deps.redis, rateNamespace),
    recordLimiter: createRecordRateLimiter(deps.redis, `${rateNamespace}:records`),
    bulkSlots:
      deps.bulkSlots ?? createBulkSlots(deps.bulkCallsPerKey, deps.redis, { prefix: `${rateNamespace}:bulk`, logger: deps.logger }),
  });
  // After auth: its hook goes in front of auth's on every route, so an address past its cap is refused unread.
  installBodyDeadlines(app, {
    jsonMs: deps.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    uploadMs: deps.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    perAddress: deps.bodiesPerAddress ?? DEFAULT_BODIES_PER_ADDRESS,
    headers: SECURITY_HEADERS,
  });
  await app.register(swagger, openApiOptions(API_VERSION));

  healthRoutes(app, deps.readiness, deps.proberHealth, undefined, deps.listStoreCheck);
  verifyRoutes(app, deps);
  enrichmentRoutes(app, deps);
  identityRoutes(app, deps);
  await listRoutes(app, deps.lists);
  if (deps.outcomes)
    await outcomeRoutes(app, deps.outcomes, createNamedRateLimiter(deps.redis, `${rateNamespace}:outcomes`, OUTCOME_DELIVERIES_PER_SECOND));
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(swaggerUi, DOCS_OPTIONS);
  if (deps.admin) await adminRoutes(app, deps.admin, deps.lists, deps.proberHealth, deps.egresses);
  dashboardRoutes(app, deps.dashboardDir);
  return app;
}
