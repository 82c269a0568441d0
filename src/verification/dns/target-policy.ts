/**
 * Which IP addresses we may connect to. A domain's MX records are chosen by whoever owns the
 * domain, so without this a caller could make us probe our own network (SSRF): loopback,
 * private, link-local, CGNAT, multicast and reserved ranges are refused unless the operator
 * allows private targets (tests and labs).
 */
import { BlockList, isIP } from 'node:net';

// Separate lists: one BlockList maps IPv4 into ::ffff:0:0/96 and would mix the families up.
const blocked4 = new BlockList();
const blocked6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked4.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  // IPv4-compatible (deprecated, RFC 4291 §2.5.5.1): `::7f00:1` is 127.0.0.1 on some stacks.
  ['::', 96],
  // Transition ranges that reach IPv4 hosts chosen by whoever wrote the address: NAT64 (RFC 6052,
  // RFC 8215), SIIT, 6to4 (RFC 3056), Teredo (RFC 4380); and the deprecated site-local range (RFC 3879).
  ['64:ff9b::', 96],
  // IPv4-translated (SIIT, RFC 2765 §2.1): `::ffff:0:7f00:1` reaches 127.0.0.1 through a translator.
  ['::ffff:0:0:0', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  ['2001::', 32],
  ['fec0::', 10],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked6.addSubnet(net, prefix, 'ipv6');
}

export function isPublicAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return false;
  if (family === 4) return !blocked4.check(ip, 'ipv4');
  // An IPv4-mapped IPv6 address (::ffff:0:0/96, dotted or hex) reaches the IPv4 host it embeds.
  if (mappedRange.check(ip, 'ipv6')) {
    const embedded = embeddedIpv4(ip);
    return embedded !== undefined && !blocked4.check(embedded, 'ipv4');
  }
  return !blocked6.check(ip, 'ipv6');
}

export function allowedTargets(addresses: string[], allowPrivate: boolean): string[] {
  return allowPrivate ? addresses.filter((ip) => isIP(ip) !== 0) : addresses.filter(isPublicAddress);
}

const mappedRange = new BlockList();
mappedRange.addSubnet('::ffff:0:0', 96, 'ipv6');

/** The IPv4 address in the last 32 bits of an IPv6 address, whatever its spelling. */
function embeddedIpv4(ip: string): string | undefined {
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (dotted) return isIP(dotted[1]!) === 4 ? dotted[1] : undefined;
  const groups = ip.split(':');
  const low = parseInt(groups.at(-1) || '0', 16);
  const high = parseInt(groups.at(-2) || '0', 16);
  if (Number.isNaN(low) || Number.isNaN(high)) return undefined;
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}
