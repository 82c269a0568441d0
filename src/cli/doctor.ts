/**
 * `mailsure doctor`: every prober-health check, now, as a readable report (pass/warn/fail,
 * evidence, what to fix). Exits non-zero when verdicts at the configured depth cannot be
 * trusted: a broken resolver, or (at depth mailbox) a blocked SMTP egress. Needs no database.
 */
import type { Command } from 'commander';
import { systemClock } from '../core/clock.js';
import { loadConfig } from '../core/config.js';
import { createProberHealthFor } from '../verification-wiring.js';
import { createNodeDnsClient } from '../verification/dns/node-dns-client.js';
import { doctorExitCode, renderDoctorReport } from '../verification/health/render-health.js';
import { print } from './output.js';

export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description('check the resolver, SMTP egress and prober identity that verification relies on')
    .action(async () => {
      const config = loadConfig(process.env);
      // Every check runs whatever the depth, so an operator can see what mailbox depth would meet.
      const health = createProberHealthFor({ ...config, verifyDepth: 'mailbox' }, createNodeDnsClient(config.dnsServers), systemClock);
      const state = await health.checkNow();
      health.stop();
      print(renderDoctorReport(state, config.verifyDepth));
      process.exitCode = doctorExitCode(state, config.verifyDepth);
    });
}
