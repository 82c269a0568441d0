/**
 * First start on an empty database: a demo key with every service, printed with a curl line a
 * newcomer can paste (decisions §2, MAILSURE_DEMO).
 */
import { createKey, type CreatedKey } from '../accounts/key-admin.js';
import type { Config } from '../core/config.js';
import type { Storage } from '../storage/interfaces.js';

export async function ensureDemoKey(storage: Storage, config: Pick<Config, 'demo'>): Promise<CreatedKey | null> {
  if (config.demo === false) return null;
  if (config.demo === null && (await storage.keys.count()) > 0) return null;
  if (await storage.keys.findByName('demo')) return null;
  return createKey(storage.keys, 'demo', { services: 'all' });
}

export function demoBanner(created: CreatedKey, baseUrl: string, demoEmail?: string): string {
  return [
    '',
    `Demo key created (shown once; MAILSURE_DEMO=0 turns this off): ${created.key}`,
    'Try it:',
    `  curl -k "${baseUrl}/v5/ev?email=john..doe@gmail.com&api_key=${created.key}"`,
    ...(demoEmail
      ? [
          `  curl -k "${baseUrl}/v5/td?email=${encodeURIComponent(demoEmail)}&api_key=${created.key}"`,
          '(1,000 synthetic people were loaded for the demo; `mailsure generate people` makes more.)',
        ]
      : []),
    '',
  ].join('\n');
}
