/**
 * The real `mailsure serve` in a child process, and a small HTTPS client for the List API, for
 * tests and benches that must kill the server or measure it from outside (its own event loop,
 * its own peak memory). The key is made by the `mailsure keys create` CLI, as an operator would.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { Agent, request, type RequestOptions } from 'node:https';
import { createServer } from 'node:net';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { unzipEntries } from '../helpers/unzip.js';

const run = promisify(execFile);
const MAILSURE = fileURLToPath(new URL('../../bin/mailsure.js', import.meta.url));

export interface ServerOptions {
  dataDir: string;
  /** The test world's env (DNS server, SMTP port, private targets). */
  env: Record<string, string>;
  /** Extra arguments before the script, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
  /** Prefix for the command, e.g. `['taskset', '-c', '0']`. */
  wrap?: string[];
  /** The mailsure command and its options (default `serve`), e.g. `['worker']`, `['serve', '--no-worker']`. */
  command?: string[];
}

export interface ChildMailsure {
  port: number;
  pid: number;
  child: ChildProcess;
  /** SIGKILL: no shutdown hook runs, nothing is flushed. */
  kill(): Promise<void>;
  /** SIGTERM and wait: the graceful path (profiles are written on it). */
  stop(): Promise<void>;
  /** The last lines it logged at level error or above (a failure message's evidence). */
  errors(): string[];
}

function envFor(options: ServerOptions, port?: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    // Depth domain unless the caller's env says otherwise.
    MAILSURE_VERIFY_DEPTH: 'domain',
    ...options.env,
    MAILSURE_DATA_DIR: options.dataDir,
    MAILSURE_HOST: '127.0.0.1',
    MAILSURE_DEMO: '0',
    MAILSURE_LOG_LEVEL: 'warn',
    ...(port !== undefined ? { MAILSURE_PORT: String(port) } : {}),
  };
}

/** `mailsure keys create` on the data dir (with `extra` options such as `--evidence` or `--record-rate`); answers the printed key. */
export async function createKeyByCli(
  options: ServerOptions,
  name: string,
  services: string,
  rate = '100000',
  extra: readonly string[] = [],
): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    [MAILSURE, 'keys', 'create', '--name', name, '--services', services, '--rate', rate, ...extra],
    { env: envFor(options) },
  );
  const key = /^api key:\s+(\S+)$/m.exec(stdout)?.[1];
  if (!key) throw new Error(`no key in the output of keys create:\n${stdout}`);
  return key;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** Starts `mailsure serve` and resolves once it prints that it listens (unfinished lists are queued by then). */
export async function startMailsure(options: ServerOptions): Promise<ChildMailsure> {
  const port = await freePort();
  const mailsureCommand = options.command ?? ['serve'];
  const ready = mailsureCommand[0] === 'worker' ? 'Mailsure list worker running' : 'Mailsure listening on';
  const [command, ...args] = [...(options.wrap ?? []), process.execPath, ...(options.nodeArgs ?? []), MAILSURE, ...mailsureCommand];
  const child = spawn(command!, args, { env: envFor(options, port), stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const errors: string[] = [];
  const keep = (line: string) => {
    if (output.length < 200) output.push(line);
    if (/"level":(50|60)/.test(line) && errors.push(line) > 20) errors.shift();
  };
  createInterface({ input: child.stderr! }).on('line', keep);
  const lines = createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`mailsure ${mailsureCommand.join(' ')} exited with ${code} before it was ready:\n${output.join('\n')}`));
    child.once('exit', onExit);
    lines.on('line', (line) => {
      keep(line);
      if (line.startsWith(ready)) {
        child.off('exit', onExit);
        resolve();
      }
    });
  });
  const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
  return {
    port,
    pid: child.pid!,
    child,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
    errors: () => [...errors],
  };
}

/** The List API over HTTPS (the server's self-signed certificate is accepted). */
export class ListClient {
  /** Kept-alive connections: a TLS handshake per poll would load the server being measured. */
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 2, rejectUnauthorized: false });

  constructor(
    private readonly port: number,
    private readonly key: string,
  ) {}

  close(): void {
    this.agent.destroy();
  }

  private send(
    options: RequestOptions,
    body?: (req: import('node:http').ClientRequest) => void,
  ): Promise<{ status: number; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: this.port, agent: this.agent, ...options, headers: { api_key: this.key, ...options.headers } },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts) }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (body) body(req);
      else req.end();
    });
  }

  /** Streams the file as the `file` part of a multipart body; answers the list id. */
  async submit(path: string, query = '?header=true'): Promise<number> {
    const boundary = `----mailsure${Math.random().toString(16).slice(2)}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${basename(path)}"\r\nContent-Type: text/csv\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const size = (await stat(path)).size;
    const res = await this.send(
      {
        method: 'POST',
        path: `/v5/list${query}`,
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + size + tail.length),
        },
      },
      (req) => {
        req.write(head);
        const file = createReadStream(path);
        file.on('error', (error) => req.destroy(error));
        file.on('end', () => req.end(tail));
        file.pipe(req, { end: false });
      },
    );
    if (res.status !== 202) throw new Error(`submit answered ${res.status}: ${res.body.toString()}`);
    return (JSON.parse(res.body.toString()) as { list_id: number }).list_id;
  }

  async status(listId: number): Promise<ListStatusBody> {
    const res = await this.send({ path: `/v5/list/${listId}` });
    if (res.status !== 200) throw new Error(`status answered ${res.status}: ${res.body.toString()}`);
    return JSON.parse(res.body.toString()) as ListStatusBody;
  }

  /** Polls until the list is finished (any final state); throws past `timeoutMs`. */
  async waitFinished(listId: number, options: { everyMs: number; timeoutMs: number }): Promise<ListStatusBody> {
    const deadline = Date.now() + options.timeoutMs;
    for (;;) {
      const body = await this.status(listId);
      if (['Results', 'Cancelled', 'Invalid', 'Error'].includes(body.status)) return body;
      if (Date.now() > deadline)
        throw new Error(`list ${listId} still ${body.status} after ${options.timeoutMs} ms: ${JSON.stringify(body)}`);
      await new Promise((resolve) => setTimeout(resolve, options.everyMs));
    }
  }

  /** Polls every `everyMs` until the list has its results (benches: no time-out); throws if it ends any other way. */
  async waitResults(listId: number, everyMs: number): Promise<ListStatusBody> {
    for (;;) {
      const body = await this.status(listId);
      if (body.status === 'Results') return body;
      if (!['Pending', 'Processed', 'Processing'].includes(body.status))
        throw new Error(`the list ended ${body.status}: ${body.error ?? ''}`);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }

  /** Streams the results zip to `path`; answers its size in bytes. */
  downloadResults(listId: number, path: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: this.port, agent: this.agent, path: `/v5/list/${listId}/results`, headers: { api_key: this.key } },
        (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            return reject(new Error(`results answered ${res.statusCode}`));
          }
          pipeline(res, createWriteStream(path)).then(() => stat(path).then((s) => resolve(s.size)), reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  /** The results zip's single entry: its name and its bytes. */
  async results(listId: number, output: 'results' | 'evidence' = 'results'): Promise<{ name: string; content: Buffer; zipBytes: number }> {
    const res = await this.send({ path: `/v5/list/${listId}/${output}` });
    if (res.status !== 200) throw new Error(`${output} answered ${res.status}: ${res.body.toString()}`);
    const entries = await unzipEntries(res.body);
    if (entries.length !== 1) throw new Error(`the ${output} zip holds ${entries.length} files`);
    return { ...entries[0]!, zipBytes: res.body.length };
  }
}

export interface ListStatusBody {
  list_id: number;
  status: string;
  records: number;
  services: Record<string, { input_count: number; completed_count: number; status: string; reporting?: unknown }>;
  error?: string;
}

/** Peak resident set of a live process (Linux): VmHWM from /proc, in bytes; undefined elsewhere. */
/** The single entry of a results zip on disk, streamed to `sink` (a million rows need not sit in memory). */
export async function readZipEntry(zipPath: string, sink: (stream: Readable) => Promise<void>): Promise<string> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(zipPath, { lazyEntries: true }, (e, z) => (e ? reject(e) : resolve(z))),
  );
  try {
    const entry = await new Promise<yauzl.Entry>((resolve, reject) => {
      zip.once('entry', resolve);
      zip.once('error', reject);
      zip.readEntry();
    });
    const stream = await new Promise<Readable>((resolve, reject) => zip.openReadStream(entry, (e, s) => (e ? reject(e) : resolve(s))));
    await sink(stream);
    return entry.fileName;
  } finally {
    zip.close();
  }
}

export async function peakRss(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  const kb = status && /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
  return kb ? Number(kb) * 1024 : undefined;
}
