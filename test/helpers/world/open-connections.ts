/**
 * TCP connections to one loopback address and port that are still open at either end, read from
 * the kernel's own table (Linux /proc/net/tcp): ground truth for "every connection was closed",
 * independent of what any server or client counts.
 */
import { readFile } from 'node:fs/promises';

/** ESTABLISHED and CLOSE_WAIT: an end that has not closed (yet). SYN_* are opening. */
const OPEN_STATES = new Set(['01', '02', '03', '08']);

/** Sockets of connections to `address:port` still open at one end (null where /proc/net/tcp is absent). */
export async function openConnections(address: string, port: number): Promise<number | null> {
  let table: string;
  try {
    table = await readFile('/proc/net/tcp', 'utf8');
  } catch {
    return null;
  }
  const endpoint = `${hexAddress(address)}:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  let open = 0;
  for (const line of table.split('\n').slice(1)) {
    const [, local, remote, state] = line.trim().split(/\s+/);
    if (state && OPEN_STATES.has(state) && (local === endpoint || remote === endpoint)) open++;
  }
  return open;
}

/** 127.0.0.19 → 1300007F: the kernel prints the address in host (little-endian) byte order. */
function hexAddress(address: string): string {
  return address
    .split('.')
    .reverse()
    .map((part) => Number(part).toString(16).toUpperCase().padStart(2, '0'))
    .join('');
}
