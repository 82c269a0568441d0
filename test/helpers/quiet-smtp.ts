/**
 * Waits until no SMTP session is open at any of the world's servers. Sessions are shared and
 * stay open a moment after their last answer (batch-prober.ts): a test that changes a server's
 * behaviour, or counts its sessions, waits for the earlier ones to QUIT first.
 */
import { expect } from 'vitest';

export async function untilSmtpQuiet(world: { smtp: Record<string, { active: number }> }): Promise<void> {
  const quiet = () => Object.values(world.smtp).every((log) => log.active === 0);
  for (let i = 0; i < 500 && !quiet(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(quiet()).toBe(true);
}
