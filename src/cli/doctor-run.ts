/** What `mailsure doctor` (doctor.ts) runs: the prober-health checks once, reported. */
import { systemClock } from '../core/clock.js';
import { loadConfig } from '../core/config.js';
import { runDoctorChecks } from '../wiring/prober-health.js';
import { doctorExitCode, renderDoctorReport, renderEgresses } from '../verification/health/render-health.js';
import { print } from './output.js';

export async function doctor(): Promise<void> {
  const config = loadConfig(process.env);
  // Every check runs whatever the depth, so an operator can see what mailbox depth would meet.
  const { state, eachEgress } = await runDoctorChecks({ config, clock: systemClock });
  print(renderDoctorReport(state, config.verifyDepth));
  // With several egresses, each is checked on its own (the canaries' banners through it).
  if (eachEgress) print(`\n${renderEgresses(await eachEgress())}`);
  process.exitCode = doctorExitCode(state, config.verifyDepth);
}
