/**
 * The `callback_url` parameter (api-reference: at most 512 characters, https or http, accepts a
 * POST with a JSON body) and the address we may deliver to. The URL check is synchronous (400 at
 * submit); the target check resolves the host and refuses loopback, private, link-local and
 * reserved addresses unless the operator allows private targets
 * (`MAILSURE_ALLOW_PRIVATE_TARGETS`) — a callback URL is chosen by the caller, so without it a
 * caller could make us POST into our own network. Run it at submit and again before each
 * delivery (DNS can change), and connect to one of the returned addresses, not a fresh lookup,
 * so a rebinding name cannot swap in a private address between check and connect.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { errors } from '../../core/errors.js';
import { allowedTargets } from '../../verification/dns/target-policy.js';
import { fail, ok, type Outcome } from '../outcome.js';

export const MAX_CALLBACK_URL_LENGTH = 512;

const bad = (why: string) => fail(errors.invalidParameter('callback_url', why).message);

/** Failure reasons are for a 400. */
export function validateCallbackUrl(raw: string): Outcome<URL> {
  if (raw.length > MAX_CALLBACK_URL_LENGTH) return bad(`must be at most ${MAX_CALLBACK_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return bad('is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return bad('must be an https or http URL');
  if (url.username !== '' || url.password !== '') return bad('must not contain credentials');
  if (url.hostname === '') return bad('has no host');
  return ok(url);
}

export type LookupAll = (hostname: string) => Promise<{ address: string; family?: number }[]>;

const defaultLookup: LookupAll = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface TargetOptions {
  allowPrivate: boolean;
  lookup?: LookupAll;
}

/** The addresses to connect to; every address the host has must be allowed. */
export async function checkCallbackTarget(url: URL, options: TargetOptions): Promise<Outcome<string[]>> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host) !== 0) {
    addresses = [host];
  } else {
    try {
      addresses = (await (options.lookup ?? defaultLookup)(host)).map((a) => a.address);
    } catch {
      return fail(`The callback host ${host} does not resolve`);
    }
    if (addresses.length === 0) return fail(`The callback host ${host} does not resolve`);
  }
  const allowed = allowedTargets(addresses, options.allowPrivate);
  if (allowed.length !== addresses.length) {
    return fail(`The callback host ${host} resolves to a private or reserved address`);
  }
  return ok(allowed);
}
