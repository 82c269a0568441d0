/**
 * Keeps a bench's server child off the bench's own CPU: the server on CPU 0, this process (the
 * baseline, the test world's DNS and SMTP servers, polling) on the others, so the two do not take
 * turns on one core. Answers the command prefix to start the server with (`taskset -c 0`), or
 * nothing where there is one CPU or no taskset.
 */
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';

export function pinServer(): string[] {
  if (cpus().length < 2 || spawnSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' }).status !== 0) return [];
  spawnSync('taskset', ['-a', '-p', '-c', `1-${cpus().length - 1}`, String(process.pid)], { stdio: 'ignore' });
  return ['taskset', '-c', '0'];
}
