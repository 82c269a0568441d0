/**
 * Waits until no SMTP session is open at any of the world's servers. Sessions are shared and
 * stay open a moment after their last answer (batch-prober.ts): a test that changes a server's
 * behaviour, or counts its sessions, waits for the earlier ones to QUIT first.
 */
import { until } from './until.js';

export async function untilSmtpQuiet(world: { smtp: Record<string, { active: number }> }): Promise<void> {
  await until(() => Object.values(world.smtp).every((log) => log.active === 0), 'every SMTP session of the test world to end');
}
