// One "process" of sqlite-processes.test.ts: opens (and migrates) the shared file, then writes.
import { openStorage } from '../../src/storage/open-storage.js';

const [dataDir, name, startAt] = process.argv.slice(2);
if (!dataDir || !name) throw new Error('usage: sqlite-child.ts DATA_DIR KEY_NAME [START_AT_MS]');
// Line the processes up on one instant, so they really race for the fresh file.
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt ?? 0) - Date.now())));
const storage = await openStorage({ dataDir });
try {
  const key = await storage.keys.create({
    name,
    keyHash: `hash-of-${name}`,
    keyPrefix: 'test',
    webhookSecret: 'secret',
    services: ['verification'],
    variant: 'safe_to_send',
    fields: null,
    quota: null,
    rate: 500,
    recordRate: null,
    trial: false,
    bouncers: false,
    evidence: false,
  });
  for (let i = 0; i < 25; i += 1) await storage.keys.addCalls(1, 1);
  await storage.clientLists.add(key.id, [{ kind: 'suppression', value: `${name}.example` }]);
} finally {
  await storage.close();
}
