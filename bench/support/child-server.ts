/** Starts a benchmark server script in a child process and waits for its {"port","key"} line. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ChildServer {
  port: number;
  key: string;
  stop(): Promise<void>;
}

export async function startChildServer(script: string, args: string[], env: Record<string, string> = {}): Promise<ChildServer> {
  const child: ChildProcess = spawn(process.execPath, ['bin/run-ts.js', script, ...args], {
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
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
