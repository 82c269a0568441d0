/**
 * Interactive docs at /docs (issue 15, item 2): Swagger UI over the server's own document, with
 * every asset served by this server. The page, its scripts' configuration and its stylesheets
 * name no other origin, and its Content-Security-Policy lets a browser load nothing from one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ url });

/** Every src/href of a page, and every url(…) of a stylesheet. */
const references = (text: string) => [...text.matchAll(/(?:src|href)="([^"]*)"|url\(["']?([^"')]*)["']?\)/g)].map((m) => m[1] ?? m[2]!);

describe('/docs', () => {
  it('serves Swagger UI whose every reference is on this server, and each answers', async () => {
    const page = await get('/docs');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<title>Mailsure API</title>');
    const refs = references(page.body);
    expect(refs.length).toBeGreaterThanOrEqual(5);
    for (const ref of refs) {
      expect(ref, 'a path on this server').toMatch(/^\/docs\/static\//);
      const asset = await get(ref);
      expect(asset.statusCode, ref).toBe(200);
      if (ref.endsWith('.css')) for (const inner of references(asset.body)) expect(inner, `${ref}: ${inner}`).toMatch(/^data:/);
    }
    expect(refs).toContain('/docs/static/swagger-initializer.js');
  });

  it('configures the UI with this server’s document and no validator elsewhere', async () => {
    const init = (await get('/docs/static/swagger-initializer.js')).body;
    expect(init).toContain("url: resolveUrl('./json')");
    expect(init).toMatch(/validatorUrl: null/);
    // Code (comments aside) names no absolute address.
    const code = init.replace(/\/\/[^\n]*/g, '');
    expect(code).not.toMatch(/https?:\/\//);
    const json = await get('/docs/json');
    expect(json.json()).toEqual((await get('/openapi.json')).json());
  });

  it('lets the browser load nothing from another origin', async () => {
    for (const url of ['/docs', '/docs/static/swagger-ui-bundle.js', '/docs/json']) {
      const csp = String((await get(url)).headers['content-security-policy']);
      expect(csp, url).toMatch(/default-src 'none'/);
      for (const directive of csp
        .split(';')
        .map((d) => d.trim())
        .filter(Boolean)) {
        const [, ...sources] = directive.split(/\s+/);
        for (const source of sources) expect(["'self'", "'none'", "'unsafe-inline'", 'data:'], `${url}: ${directive}`).toContain(source);
      }
    }
  });

  it('keeps the strict policy on the API itself', async () => {
    const csp = String((await get('/healthz')).headers['content-security-policy']);
    expect(csp).toBe("default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
  });
});
