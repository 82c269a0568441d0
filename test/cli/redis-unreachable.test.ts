/**
 * Issue 19 (8): a process started while Redis cannot be reached (a closed port, or a black hole
 * that accepts connections and never answers) waits for it with one log line and bounded memory,
 * then stops with one line naming Redis and the setting; nothing is built on Redis meanwhile (a
 * BullMQ worker started against an unreachable Redis once froze a process that grew to 2.8 GB).
 * When Redis comes up during the wait, the process starts. Through the real `mailsure` command.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT, ROOT } from '../helpers/cli.js';
import { startPausableProxy } from '../helpers/pausable-proxy.js';
import { claimRedisDb, type OwnRedisDb } from '../helpers/redis-db.js';

const BIN = join(ROOT, 'bin', 'mailsure.js');
const dirs: string[] = [];
const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
  sockets.splice(0).forEach((s) => s.destroy());
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listen(onConnection: (socket: Socket) => void, port = 0): Promise<number> {
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
    onConnection(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Largest resident set seen while it ran, in MB. */
  peakRssMb: number;
}

/**
 * Runs `mailsure COMMAND` until it exits (or until `until` matches its stdout, then SIGKILL),
 * sampling its resident memory all along.
 */
async function runMailsure(
  command: string,
  env: Record<string, string>,
  options: { until?: RegExp; onStdout?: (text: string, child: ChildProcess) => void } = {},
): Promise<Run> {
  const apiPort = String(await closedPort());
  const dataDir = mkdtempSync(join(tmpdir(), 'mailsure-redis-start-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, [BIN, command], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      MAILSURE_DATA_DIR: dataDir,
      MAILSURE_HOST: '127.0.0.1',
      MAILSURE_PORT: apiPort,
      MAILSURE_DEMO: '0',
      MAILSURE_LOG_LEVEL: 'info',
      MAILSURE_DNS_SERVERS: '127.0.0.1:9',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let peakKb = 0;
  const sample = setInterval(() => {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
      peakKb = Math.max(peakKb, kb);
    } catch {
      // exited between two samples
    }
  }, 100);
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    options.onStdout?.(stdout, child);
    if (options.until?.test(stdout)) child.kill('SIGKILL');
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => {
      clearInterval(sample);
      resolve({ status, stdout, stderr, peakRssMb: peakKb / 1024 });
    });
  });
}

/** The JSON log lines of a run that carry `msg`. */
const logLines = (stdout: string, msg: string) =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === msg);

function expectStoppedWaitingForRedis(run: Run, where: string): void {
  expect(run.status, run.stderr).toBe(1);
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toContain(`mailsure: cannot reach Redis at ${where} (`);
  expect(lines[0]).toContain('start Redis, or fix MAILSURE_REDIS_URL');
  expect(run.stderr).not.toContain('s3cret');
  expect(run.stdout).not.toContain('s3cret');
  // One line said it was waiting, however many attempts were made; the process never got further.
  expect(logLines(run.stdout, 'redis does not answer; waiting for it before starting')).toHaveLength(1);
  expect(run.stdout).not.toMatch(/Mailsure listening on|Mailsure list worker running/);
  expect(run.peakRssMb).toBeGreaterThan(0);
  expect(run.peakRssMb).toBeLessThan(400);
}

describe('starting while Redis cannot be reached', () => {
  it(
    'a closed port: serve and worker wait, then stop with one line naming Redis, never its password',
    async () => {
      const port = await closedPort();
      const env = { MAILSURE_REDIS_URL: `redis://:s3cret@127.0.0.1:${port}/3`, MAILSURE_REDIS_START_WAIT_SECONDS: '3' };
      // Both at once: each waits out its own MAILSURE_REDIS_START_WAIT_SECONDS.
      for (const run of await Promise.all(['worker', 'serve'].map((command) => runMailsure(command, env)))) {
        expectStoppedWaitingForRedis(run, `127.0.0.1:${port}/3`);
        expect(run.stderr).toContain('ECONNREFUSED');
      }
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'a black hole (accepts, never answers): serve and worker wait, then stop with one line',
    async () => {
      const port = await listen(() => undefined);
      const env = { MAILSURE_REDIS_URL: `redis://127.0.0.1:${port}`, MAILSURE_REDIS_START_WAIT_SECONDS: '3' };
      for (const run of await Promise.all(['worker', 'serve'].map((command) => runMailsure(command, env)))) {
        expectStoppedWaitingForRedis(run, `127.0.0.1:${port}`);
        expect(run.stderr).toMatch(/timed out|ETIMEDOUT/i);
      }
    },
    CLI_TEST_TIMEOUT,
  );

  const redisUrl = process.env.MAILSURE_TEST_REDIS_URL;
  /** The workers' own Redis database (its queue keys apart from every other test's). */
  let own: OwnRedisDb | undefined;
  const ownDb = async () => (own ??= await claimRedisDb(redisUrl!)).db;
  afterAll(() => own?.release());
  it.skipIf(!redisUrl)(
    'Redis that comes up during the wait: the worker starts',
    async () => {
      const target = new URL(redisUrl!);
      const port = await closedPort();
      let forwarding = false;
      const run = await runMailsure(
        'worker',
        { MAILSURE_REDIS_URL: `redis://127.0.0.1:${port}/${await ownDb()}`, MAILSURE_REDIS_START_WAIT_SECONDS: '600' },
        {
          until: /Mailsure list worker running/,
          onStdout: (stdout) => {
            // Redis "comes up" once the process said it waits: a forwarder to the real one on that port.
            if (forwarding || !stdout.includes('redis does not answer; waiting for it before starting')) return;
            forwarding = true;
            void listen((client) => {
              const upstream = connect({ host: target.hostname, port: Number(target.port || 6379) });
              sockets.push(upstream);
              upstream.on('error', () => client.destroy());
              client.pipe(upstream).pipe(client);
            }, port);
          },
        },
      );
      expect(forwarding).toBe(true);
      expect(run.stdout).toContain('Mailsure list worker running');
      expect(logLines(run.stdout, 'redis does not answer; waiting for it before starting')).toHaveLength(1);
      expect(logLines(run.stdout, 'redis answers; starting')).toHaveLength(1);
      expect(run.peakRssMb).toBeLessThan(400);
    },
    CLI_TEST_TIMEOUT,
  );

  it.skipIf(!redisUrl)(
    'Redis that stops answering after the start: SIGTERM still stops the worker',
    async () => {
      const target = new URL(redisUrl!);
      const proxy = await startPausableProxy({ host: target.hostname, port: Number(target.port || 6379) });
      try {
        let paused = false;
        const run = await runMailsure(
          'worker',
          { MAILSURE_REDIS_URL: `redis://127.0.0.1:${proxy.port}/${await ownDb()}` },
          {
            onStdout: (stdout, child) => {
              if (paused || !stdout.includes('Mailsure list worker running')) return;
              paused = true;
              proxy.pause();
              child.kill('SIGTERM');
            },
          },
        );
        expect(paused).toBe(true);
        expect(run.status, run.stderr).toBe(0);
        expect(logLines(run.stdout, 'list queue did not close in time (Redis not answering); stopping without it')).toHaveLength(1);
      } finally {
        await proxy.close();
      }
    },
    CLI_TEST_TIMEOUT,
  );
});
