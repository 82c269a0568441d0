/** What `mailsure doctor` (doctor.ts) runs: the prober-health checks once, reported. */
import { systemClock } from '../core/clock.js';
import { loadConfig } from '../core/config.js';
import { createProberHealthFor } from '../verification-wiring.js';
import { createNodeDnsClient } from '../verification/dns/node-dns-client.js';
import { doctorExitCode, renderDoctorReport } from '../verification/health/render-health.js';
import { print } from './output.js';

export async function doctor(): Promise<void> {
  const config = loadConfig(process.env);
  // Every check runs whatever the depth, so an operator can see what mailbox depth would meet.
  const health = createProberHealthFor({ ...config, verifyDepth: 'mailbox' }, createNodeDnsClient(config.dnsServers), systemClock);
  const state = await health.checkNow();
  health.stop();
  print(renderDoctorReport(state, config.verifyDepth));
  process.exitCode = doctorExitCode(state, config.verifyDepth);
}
