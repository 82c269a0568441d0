/**
 * Lints an OpenAPI document with Redocly's engine (@redocly/openapi-core, what `redocly lint`
 * runs) and its `recommended` rules, offline. `npm run lint:openapi` lints the document the
 * server serves; test/http/openapi.test.ts asserts it has no error.
 */
import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core';

export interface LintProblem {
  severity: 'error' | 'warn';
  rule: string;
  message: string;
  where: string;
}

export async function lintOpenApi(document: object): Promise<LintProblem[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems: NormalizedProblem[] = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
  return problems.map((p) => ({
    severity: p.severity === 'error' ? 'error' : 'warn',
    rule: p.ruleId,
    message: p.message,
    where: p.location[0]?.pointer ?? '',
  }));
}
