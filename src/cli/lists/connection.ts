/**
 * Where `mailsure lists` connects: `--url`/`MAILSURE_URL` (default this machine's server),
 * `--key`/`MAILSURE_KEY`, and the certificate to trust, `--ca`/`MAILSURE_CA` (the server's
 * self-signed `data/tls/cert.pem`, or a private CA) or `--insecure`. Nothing here reads the
 * server's own configuration: the command is as much for a laptop talking to a remote server.
 */
import { readFileSync } from 'node:fs';
import type { ClientOptions } from '@mailsure/client';

export const DEFAULT_URL = 'https://localhost:8443';

export interface ConnectionFlags {
  url?: string;
  key?: string;
  ca?: string;
  insecure?: boolean;
}

/** The client's options, or why there are none (one line). */
export function connectionOf(flags: ConnectionFlags, env: NodeJS.ProcessEnv): { options: ClientOptions } | { problem: string } {
  const baseUrl = flags.url ?? env.MAILSURE_URL ?? DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return { problem: `--url ${JSON.stringify(baseUrl)} is not a URL (e.g. https://mailsure.example.com:8443)` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { problem: `--url must be https:// (or http:// behind a proxy), not ${url.protocol}` };
  const apiKey = flags.key ?? env.MAILSURE_KEY;
  if (!apiKey) return { problem: 'no API key: pass --key KEY or set MAILSURE_KEY' };
  const caFile = flags.ca ?? env.MAILSURE_CA;
  let ca: Buffer | undefined;
  if (caFile) {
    try {
      ca = readFileSync(caFile);
    } catch (error) {
      return { problem: `cannot read the certificate ${caFile} (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
    }
  }
  return {
    options: {
      baseUrl: url.href.replace(/\/$/, ''),
      apiKey,
      ...(ca ? { ca } : {}),
      ...(flags.insecure ? { rejectUnauthorized: false } : {}),
    },
  };
}
