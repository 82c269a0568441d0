/**
 * The web dashboard (dashboard/, built by scripts/build.mjs into dist/dashboard/): its files served
 * under `/dashboard`, same origin as the API it calls, no key needed to load it (every call it then
 * makes is an ordinary API call with the key the user signs in with). The built files are read
 * once when the app starts and served from memory: a fixed set, so no path from a request ever
 * reaches the file system.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Where the build writes the dashboard: the same path from src/http/ (tests) and dist/http/ (serve). */
export const DASHBOARD_DIR = fileURLToPath(new URL('../../dist/dashboard/', import.meta.url));

/**
 * The dashboard's CSP: its own scripts, styles and images and calls to this origin only; still no
 * inline script, no framing, no form posting elsewhere. Every other answer keeps the API's CSP.
 */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

interface Asset {
  body: Buffer;
  type: string;
}

function readAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  if (!existsSync(dir)) return assets;
  const visit = (path: string) => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) visit(full);
      else
        assets.set(relative(dir, full).split(sep).join('/'), {
          body: readFileSync(full),
          type: TYPES[extname(name)] ?? 'application/octet-stream',
        });
    }
  };
  visit(dir);
  return assets;
}

export function dashboardRoutes(app: FastifyInstance, dir = DASHBOARD_DIR): void {
  const assets = readAssets(dir);
  const index = assets.get('index.html');
  const hide = { schema: { hide: true } };

  const page = (reply: FastifyReply) => {
    if (!index) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The dashboard is not built: run `npm run build` (npm start builds it on its own).\n');
    }
    return reply.type(index.type).header('cache-control', 'no-cache').send(index.body);
  };
  // `/dashboard` and `/dashboard/` alike (whether or not the router ignores a trailing slash); asset paths are absolute.
  app.get('/dashboard', hide, async (_request, reply) => page(reply));
  app.get<{ Params: { '*': string } }>('/dashboard/*', hide, async (request, reply) => {
    if (request.params['*'] === '') return page(reply);
    const asset = assets.get(request.params['*']);
    if (!asset || request.params['*'] === 'index.html') return reply.code(404).type('text/plain; charset=utf-8').send('Not found\n');
    // Vite names assets by their content hash: a name never changes meaning.
    const immutable = request.params['*'].startsWith('assets/');
    return reply
      .type(asset.type)
      .header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
      .send(asset.body);
  });
}
