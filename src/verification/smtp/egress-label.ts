/**
 * The egress as a verdict's evidence names it: an opaque label, never an address, a port or a
 * credential. With one egress there is only "direct" or "proxy"; the egress pool (issue 27)
 * gives each egress its own label, and this function then reads it.
 */
import type { SmtpEgress } from './egress.js';

export function egressLabel(egress: SmtpEgress): string {
  return egress.proxy ? 'proxy' : 'direct';
}
