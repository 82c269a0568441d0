/** What `mailsure doctor` (doctor.ts) runs: the prober-health checks once, reported. */
import { systemClock } from '../core/clock.js';
import { loadConfig } from '../core/config.js';
import { checkEachEgress, createProberHealthFor, egressPoolOf } from '../wiring/verification.js';
import { createNodeDnsClient } from '../verification/dns/node-dns-client.js';
import { doctorExitCode, renderDoctorReport, renderEgresses } from '../verification/health/render-health.js';
import { print } from './output.js';

export async function doctor(): Promise<void> {
  const config = loadConfig(process.env);
  // Every check runs whatever the depth, so an operator can see what mailbox depth would meet.
  const resolver = createNodeDnsClient(config.dnsServers);
  const pool = egressPoolOf(config, systemClock);
  const health = createProberHealthFor({ ...config, verifyDepth: 'mailbox' }, resolver, systemClock, undefined, {}, pool);
  const state = await health.checkNow();
  health.stop();
  print(renderDoctorReport(state, config.verifyDepth));
  // With several egresses, each is checked on its own (the canaries' banners through it).
  if (pool.egresses.length > 1) print(`\n${renderEgresses(await checkEachEgress(config, resolver, pool))}`);
  process.exitCode = doctorExitCode(state, config.verifyDepth);
}
