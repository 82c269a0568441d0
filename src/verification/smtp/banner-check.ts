/**
 * Connects to one MX address, waits for the banner and says QUIT: the prober-health check of the
 * SMTP egress (health/decide-egress.ts). Sends no envelope, so it costs the provider nothing.
 */
import type { BannerCheck } from '../health/decide-egress.js';
import { SmtpTransport, TransportError } from './smtp-transport.js';

export interface BannerCheckOptions {
  port: number;
  connectTimeoutMs: number;
  /** How long the whole check may take (connect and banner). */
  timeoutMs: number;
}

export async function checkBanner(host: string, address: string, options: BannerCheckOptions): Promise<BannerCheck> {
  const deadline = Date.now() + options.timeoutMs;
  let transport: SmtpTransport;
  try {
    transport = await SmtpTransport.connect({ address, port: options.port, deadline, connectTimeoutMs: options.connectTimeoutMs });
  } catch (error) {
    const kind = error instanceof TransportError ? error.kind : 'unreachable';
    const outcome = kind === 'refused' ? 'refused' : kind === 'connect-timeout' || kind === 'timeout' ? 'connect-timeout' : 'unreachable';
    return { host, address, outcome };
  }
  try {
    const banner = await transport.read();
    const text = `${banner.code} ${banner.text}`.trim().slice(0, 200);
    if (banner.code !== 220) {
      transport.close();
      return { host, address, outcome: 'banner-reject', text };
    }
    await transport.quit();
    return { host, address, outcome: 'banner', text };
  } catch {
    transport.close();
    return { host, address, outcome: 'no-banner' };
  }
}
