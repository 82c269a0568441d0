/**
 * `mailsure doctor`: every prober-health check, now, as a readable report (pass/warn/fail,
 * evidence, what to fix). Exits non-zero when verdicts at the configured depth cannot be
 * trusted: a broken resolver, or (at depth mailbox) a blocked SMTP egress. Needs no database.
 */
import type { Command } from 'commander';

// The checks load the verification engine's wiring: only when the command runs (main.ts says why).

export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description('check the resolver, SMTP egress and prober identity that verification relies on')
    .action(async () => (await import('./doctor-run.js')).doctor());
}
