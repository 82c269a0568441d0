/**
 * The simulators speak each provider's dialect, and the product's table understands it: every
 * simulated refusal is judged by that provider's profile as the kind of refusal it is.
 */
import { describe, expect, it } from 'vitest';
import { PROFILES } from '../../../src/verification/providers/profiles.js';
import { classifyEnvelopeReply, classifyRcptReply } from '../../../src/verification/smtp/reply-class.js';
import { newProviderState, PROVIDER_SIMS, providerConnect, providerMailFrom, providerRcpt, type ProviderSimName } from './provider-sims.js';

const names = Object.keys(PROVIDER_SIMS) as ProviderSimName[];
const mapping = (name: ProviderSimName) => PROFILES.find((p) => p.id === name)!.replies;
/** As the product reads it: enhanced code split off the text. */
function asReply({ code, message }: { code: number; message: string }) {
  const enhanced = /^([245]\.\d{1,3}\.\d{1,3})\s/.exec(message)?.[1];
  return enhanced ? { code, enhanced, text: message.slice(enhanced.length).trim() } : { code, text: message };
}

describe('provider simulators', () => {
  it.each(names)('%s: its unknown-user, block and throttle replies mean what its profile says', (name) => {
    const sim = PROVIDER_SIMS[name];
    if (sim.unknown !== 'accept') expect(classifyRcptReply(asReply(sim.unknown), mapping(name)).class).toBe('no-mailbox');
    const judge = (stage: string, reply: { code: number; message: string }) =>
      stage === 'rcpt' ? classifyRcptReply(asReply(reply), mapping(name)) : classifyEnvelopeReply(asReply(reply), mapping(name));
    expect(judge(sim.blocked.stage, sim.blocked.reply).signal).toBe('blocked');
    expect(judge(sim.throttled.stage, sim.throttled.reply).signal).toBe('throttled');
  });

  it('serves normally, blocks at the stage the provider blocks, and throttles after the connections allowed', () => {
    const state = newProviderState();
    const normal = providerConnect('google', state);
    expect(normal.refusal).toBeUndefined();
    expect(providerRcpt('google', normal.connection, 'alice@x.com', true, false).code).toBe(250);
    expect(providerRcpt('google', normal.connection, 'nobody@x.com', false, false).code).toBe(550);

    Object.assign(state, { mode: 'throttled', connectionsBeforeThrottle: 1 });
    const first = providerConnect('google', state);
    expect(providerRcpt('google', first.connection, 'alice@x.com', true, false).code).toBe(250);
    const second = providerConnect('google', state);
    expect(providerRcpt('google', second.connection, 'alice@x.com', true, false)).toMatchObject({ code: 421 });

    const blocked = providerConnect('proofpoint', { mode: 'blocked', connectionsBeforeThrottle: 0 });
    expect(blocked.refusal).toMatchObject({ code: 554 });
    const yahoo = providerConnect('yahoo', { mode: 'throttled', connectionsBeforeThrottle: 0 });
    expect(yahoo.refusal).toBeUndefined();
    expect(providerMailFrom('yahoo', yahoo.connection)).toMatchObject({ code: 421 });
  });

  it('accepts everyone where the provider does: Yahoo at RCPT, a gateway tenant without recipient validation', () => {
    const connection = providerConnect('yahoo', newProviderState()).connection;
    expect(providerRcpt('yahoo', connection, 'nobody@x.com', false, false).code).toBe(250);
    const gateway = providerConnect('mimecast', newProviderState()).connection;
    expect(providerRcpt('mimecast', gateway, 'nobody@open.com', false, true).code).toBe(250);
    expect(providerRcpt('mimecast', gateway, 'nobody@checked.com', false, false).code).toBe(550);
  });
});
