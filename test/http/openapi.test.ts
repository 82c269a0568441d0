/**
 * The OpenAPI document (issue 15, item 2): Redocly's recommended rules find no error; every
 * operation carries its security, responses and bodies; types generated from it (openapi-typescript)
 * type-check a program that uses every operation; the client's copy and types are up to date.
 */
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintOpenApi } from '../../scripts/openapi-lint.js';
import { DOCUMENT_FILE, documentText, generateTypes, TYPES_FILE } from '../../scripts/openapi.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

type Operation = {
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string }[];
  requestBody?: { required?: boolean; content: Record<string, unknown> };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
};
type Document = { servers?: { url: string }[]; paths: Record<string, Record<string, Operation>> };

let t: TestApp;
let doc: Document;
beforeAll(async () => {
  t = await makeTestApp();
  const res = await t.app.inject({ url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(() => t.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));

describe('the OpenAPI document', () => {
  it('has no Redocly error; the only warnings are the health probes having no 4xx answer', async () => {
    const problems = await lintOpenApi(doc);
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(problems.map((p) => `${p.rule} ${p.where}`).sort()).toEqual([
      'operation-4xx-response #/paths/~1healthz/get/responses',
      'operation-4xx-response #/paths/~1readyz/get/responses',
    ]);
  });

  it('fails the lint when security is missing (the rule is live)', async () => {
    const broken = structuredClone(doc);
    delete broken.paths['/v5/ev']!.get!.security;
    const problems = await lintOpenApi(broken);
    expect(problems).toContainEqual(
      expect.objectContaining({ severity: 'error', rule: 'security-defined', where: '#/paths/~1v5~1ev/get' }),
    );
  });

  it('documents every route the server has, each with an operationId', () => {
    // printRoutes draws a tree (each level 4 characters deeper): rebuild the full paths.
    const stack: string[] = [];
    const routes = t.app
      .printRoutes({ commonPrefix: false })
      .split('\n')
      .flatMap((line) => {
        const m = /^(.*?)(\/\S*) \(([A-Z, ]+)\)$/.exec(line);
        if (!m) return [];
        const depth = m[1]!.length / 4;
        stack.length = depth - 1;
        stack.push(m[2]!);
        return [[line, stack.join(''), m[3]!] as const];
      });
    expect(routes.map(([, path]) => path)).toContain('/v5/list/:list_id/purchase');
    const documented = new Set(operations().map(({ path, method }) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`));
    for (const [, path, methods] of routes) {
      // Pages for people, not API operations: the Swagger UI and the dashboard (issue 16).
      if (path === '/openapi.json' || path!.startsWith('/docs') || path!.startsWith('/dashboard') || path === '*') continue;
      for (const method of methods!.split(', '))
        if (method !== 'HEAD') expect(documented, `${method} ${path}`).toContain(`${method} ${path}`);
    }
    expect(
      operations()
        .map(({ op }) => op.operationId)
        .sort(),
    ).toEqual([
      'appendIdentity',
      'appendIdentityBulk',
      'cancelList',
      'enrichBulk',
      'enrichPerson',
      'getList',
      'getListEvidence',
      'getListResults',
      'health',
      'ingestOutcomes',
      'listLists',
      'purchaseList',
      'readiness',
      'submitList',
      'verifyEmail',
    ]);
  });

  it('applies the key per operation: the header on the List API, the query elsewhere, none on health and outcome webhooks', () => {
    for (const { path, op } of operations()) {
      const expected = path.startsWith('/v5/list')
        ? [{ headerKey: [] }]
        : path.startsWith('/v5/') && !path.startsWith('/v5/outcomes/')
          ? [{ queryKey: [] }]
          : [];
      expect(op.security, path).toEqual(expected);
      // The key is the security scheme's, not a parameter of its own.
      expect(op.parameters?.map((p) => p.name) ?? [], path).not.toContain('api_key');
    }
    expect(doc.servers?.length).toBeGreaterThan(0);
  });

  it('gives every operation a success answer with its body, and every keyed one its errors', () => {
    for (const { path, method, op } of operations()) {
      const success = Object.keys(op.responses).filter((s) => s.startsWith('2'));
      expect(success, `${method} ${path}`).toHaveLength(1);
      expect(op.responses[success[0]!]!.content, `${method} ${path}`).toBeDefined();
      if (!path.startsWith('/v5/')) continue;
      // An outcome webhook has no key, so no key's permissions (403): its token is the 401.
      const statuses = path.startsWith('/v5/outcomes/') ? ['401', '429', '500', '503'] : ['401', '403', '429', '500', '503'];
      for (const status of statuses) expect(Object.keys(op.responses), `${method} ${path}`).toContain(status);
      expect(op.responses['429']!.headers, `${method} ${path}`).toHaveProperty('retry-after');
      expect(op.responses['503']!.headers, `${method} ${path}`).toHaveProperty('retry-after');
    }
  });

  it('describes the List API: multipart upload, Location, Retry-After, the zip, the optional purchase body, the callback', () => {
    const submit = doc.paths['/v5/list']!.post!;
    expect(Object.keys(submit.requestBody!.content)).toEqual(['multipart/form-data']);
    expect(submit.requestBody!.required).toBe(true);
    expect(submit.responses['202']!.headers).toHaveProperty('location');
    expect(Object.keys(submit.responses)).toEqual(expect.arrayContaining(['400', '413', '415', '422']));
    expect(submit).toHaveProperty(['callbacks', 'listFinished']);
    expect(doc.paths['/v5/list/{list_id}']!.get!.responses['200']!.headers).toHaveProperty('retry-after');
    for (const file of ['results', 'evidence']) {
      const answers = doc.paths[`/v5/list/{list_id}/${file}`]!.get!.responses;
      expect(Object.keys(answers['200']!.content!)).toEqual(['application/zip']);
      expect(answers['200']!.headers).toHaveProperty('content-disposition');
      expect(Object.keys(answers)).toEqual(expect.arrayContaining(['302', '401', '404']));
    }
    expect(submit.parameters?.map((p) => p.name)).toContain('evidence');
    const purchase = doc.paths['/v5/list/{list_id}/purchase']!.post!;
    expect(purchase.requestBody).toMatchObject({ required: false, content: { 'application/json': expect.anything() } });
    for (const path of ['/v5/ei/bulk', '/v5/eppend/bulk'])
      expect(doc.paths[path]!.post!.requestBody).toMatchObject({ required: true, content: { 'application/json': expect.anything() } });
    expect(Object.keys(doc.paths['/v5/ev']!.get!.responses['401']!.content!)).toEqual(['text/plain']);
  });

  it('is the document the client package carries, and its types are generated from it', async () => {
    expect(await readFile(DOCUMENT_FILE, 'utf8'), 'run npm run openapi').toBe(documentText(doc));
    expect(await readFile(TYPES_FILE, 'utf8'), 'run npm run openapi').toBe(await generateTypes(doc));
  });

  it('generates types that type-check a program using every operation (and reject misuse)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mailsure-openapi-types-'));
    try {
      await writeFile(join(dir, 'openapi.ts'), await generateTypes(doc));
      await copyFile(join(import.meta.dirname, '..', 'fixtures', 'openapi', 'usage.ts'), join(dir, 'usage.ts'));
      const check = () => {
        const program = ts.createProgram([join(dir, 'usage.ts')], {
          strict: true,
          noEmit: true,
          target: ts.ScriptTarget.ES2022,
          module: ts.ModuleKind.NodeNext,
          moduleResolution: ts.ModuleResolutionKind.NodeNext,
          types: [],
          lib: ['lib.es2022.d.ts'],
        });
        return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      };
      expect(check()).toEqual([]);
      // The check is live: a document without one operation no longer satisfies the program.
      const fewer = structuredClone(doc);
      delete fewer.paths['/v5/list/{list_id}']!.delete;
      await writeFile(join(dir, 'openapi.ts'), await generateTypes(fewer));
      expect(check().join('\n')).toMatch(/cancelList/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
