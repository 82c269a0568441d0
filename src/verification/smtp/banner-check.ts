/**
 * Connects to one MX address, waits for the banner and says QUIT: the prober-health check of the
 * SMTP egress (health/decide-egress.ts). Sends no envelope, so it costs the provider nothing.
 */
import { describeProxy, type SocksProxy } from '../../core/socks-proxy-url.js';
import type { BannerCheck } from '../health/decide-egress.js';
import { SmtpTransport, TransportError } from './smtp-transport.js';

export interface BannerCheckOptions {
  port: number;
  connectTimeoutMs: number;
  /** How long the whole check may take (connect and banner). */
  timeoutMs: number;
  /** The SOCKS5 proxy a probe to this host would go through. */
  proxy?: SocksProxy;
  /** The local address a probe to this host would leave from. */
  localAddress?: string;
}

export async function checkBanner(host: string, address: string, options: BannerCheckOptions): Promise<BannerCheck> {
  const deadline = Date.now() + options.timeoutMs;
  const via = options.proxy ? { via: describeProxy(options.proxy) } : {};
  let transport: SmtpTransport;
  try {
    transport = await SmtpTransport.connect({
      address,
      port: options.port,
      deadline,
      connectTimeoutMs: options.connectTimeoutMs,
      ...(options.proxy ? { proxy: options.proxy } : {}),
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    });
  } catch (error) {
    const kind = error instanceof TransportError ? error.kind : 'unreachable';
    if (kind === 'proxy') return { host, address, outcome: 'proxy-failed', text: (error as Error).message.slice(0, 200), ...via };
    const outcome = kind === 'refused' ? 'refused' : kind === 'connect-timeout' || kind === 'timeout' ? 'connect-timeout' : 'unreachable';
    return { host, address, outcome, ...via };
  }
  try {
    const banner = await transport.read();
    const text = `${banner.code} ${banner.text}`.trim().slice(0, 200);
    if (banner.code !== 220) {
      transport.close();
      return { host, address, outcome: 'banner-reject', text, ...via };
    }
    await transport.quit();
    return { host, address, outcome: 'banner', text, ...via };
  } catch {
    transport.close();
    return { host, address, outcome: 'no-banner', ...via };
  }
}
