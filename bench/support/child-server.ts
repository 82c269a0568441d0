/** Starts a benchmark server script in a child process and waits for its {"port","key"} line. */
import { spawn, type ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { createInterface } from 'node:readline';

let pinned = false;

function hasTaskset(): boolean {
  if (cpus().length < 2) return false;
  const found = spawnSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' }).status === 0;
  if (found && !pinned) {
    // This process generates the load: keep it off the server's core.
    spawnSync('taskset', ['-a', '-p', '-c', `1-${cpus().length - 1}`, String(process.pid)], { stdio: 'ignore' });
    pinned = true;
  }
  return found;
}

export interface ChildServer {
  port: number;
  key: string;
  stop(): Promise<void>;
}

/**
 * Where `taskset` exists (Linux), the server is pinned to CPU 0 and the load generator (this
 * process) to the others, so the two do not fight over one core and rounds are comparable.
 */
export async function startChildServer(script: string, args: string[], env: Record<string, string> = {}): Promise<ChildServer> {
  const pin = hasTaskset();
  const command = pin ? 'taskset' : process.execPath;
  const commandArgs = pin ? ['-c', '0', process.execPath, 'bin/run-ts.js', script, ...args] : ['bin/run-ts.js', script, ...args];
  const child: ChildProcess = spawn(command, commandArgs, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
  const { port, key } = JSON.parse(first) as { port: number; key: string };
  return {
    port,
    key,
    stop: () =>
      new Promise((resolve) => {
        // A child that already died (killed from outside) never emits 'exit' again.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
