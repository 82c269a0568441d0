/**
 * Issue 16: the dashboard's files under /dashboard, served by the server itself (no CDN), with a CSP
 * that lets its own scripts and styles run there and nowhere else.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_CSP, dashboardRoutes } from '../../src/http/dashboard.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(() => t.close());

describe('the built dashboard (dist/dashboard, built by npm test’s set-up)', () => {
  it('serves its page at /dashboard and /dashboard/, loading only its own assets', async () => {
    for (const url of ['/dashboard', '/dashboard/']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toBe(DASHBOARD_CSP);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.body).toContain('<div id="app">');
    }
    const page = (await t.app.inject({ url: '/dashboard/' })).body;
    const sources = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.filter((s) => s.startsWith('/dashboard/assets/')).length).toBeGreaterThanOrEqual(2);
    // Nothing from elsewhere, and no inline script the CSP would have to allow.
    expect(sources.filter((s) => /^(https?:)?\/\//.test(s))).toEqual([]);
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    for (const asset of sources.filter((s) => s.startsWith('/dashboard/assets/'))) {
      const res = await t.app.inject({ url: asset });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(asset.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-security-policy']).toBe(DASHBOARD_CSP);
    }
  });

  it('answers 404 for a file it does not have, a path that climbs out included', async () => {
    for (const url of [
      '/dashboard/assets/nope.js',
      '/dashboard/../package.json',
      '/dashboard/%2e%2e/package.json',
      '/dashboard/index.html',
    ]) {
      expect((await t.app.inject({ url })).statusCode).toBe(404);
    }
  });

  it('keeps the API’s CSP, which runs nothing, everywhere else', async () => {
    for (const url of ['/healthz', '/dashboardx', '/v5/ev?email=a@example.com']) {
      expect((await t.app.inject({ url })).headers['content-security-policy']).toBe(
        "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      );
    }
  });
});

describe('a dashboard that is not built', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mailsure-dashboard-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('is a 503 saying how to build it, not a blank page', async () => {
    const app = Fastify();
    dashboardRoutes(app, join(dir, 'missing'));
    const res = await app.inject({ url: '/dashboard' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toBe('The dashboard is not built: run `npm run build` (npm start builds it on its own).\n');
    await app.close();
  });

  it('serves exactly the files of the folder it is given', async () => {
    await mkdir(join(dir, 'built', 'assets'), { recursive: true });
    await writeFile(join(dir, 'built', 'index.html'), '<!doctype html><title>x</title>');
    await writeFile(join(dir, 'built', 'assets', 'a-1.js'), 'console.log(1)');
    const app = Fastify();
    dashboardRoutes(app, join(dir, 'built'));
    expect((await app.inject({ url: '/dashboard/' })).body).toBe('<!doctype html><title>x</title>');
    expect((await app.inject({ url: '/dashboard/assets/a-1.js' })).body).toBe('console.log(1)');
    expect((await app.inject({ url: '/dashboard/assets/a-2.js' })).statusCode).toBe(404);
    await app.close();
  });
});
