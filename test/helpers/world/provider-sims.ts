/**
 * Simulated mail providers for the test world: one SMTP behaviour per profiled provider, answering
 * with that provider's own reply texts (as its published error references and real bounces quote
 * them), accepting everyone where it does (Yahoo at RCPT, a gateway tenant without recipient
 * validation), and refusing or throttling the prober on demand, at the stage the provider does it.
 * Pure: the decision for one command, given the provider, the recipient and the simulator's state.
 */
import type { RcptReply } from './smtp-behaviour.js';

export type ProviderSimName = 'google' | 'microsoft-365' | 'outlook-com' | 'yahoo' | 'icloud' | 'mimecast' | 'proofpoint' | 'barracuda';

/** What the simulated provider thinks of the prober right now. */
export type ProviderMode = 'normal' | 'blocked' | 'throttled';

export interface ProviderSimState {
  mode: ProviderMode;
  /** In `throttled` mode, connections still served normally before the throttle bites. */
  connectionsBeforeThrottle: number;
}

/** One connection as the provider sees it: past the throttle or not (decided when it connects). */
export interface ProviderConnection {
  state: ProviderSimState;
  throttling: boolean;
}

type Stage = 'connect' | 'mail' | 'rcpt';

interface ProviderSim {
  /** The reply to a recipient it has no mailbox for; `accept` when it accepts everyone at RCPT. */
  unknown: RcptReply | 'accept';
  blocked: { stage: Stage; reply: RcptReply };
  throttled: { stage: Stage; reply: RcptReply };
}

const OK: RcptReply = { code: 250, message: '2.1.5 OK' };
const IP = '127.0.0.1';

export const PROVIDER_SIMS: Record<ProviderSimName, ProviderSim> = {
  google: {
    unknown: {
      code: 550,
      message:
        "5.1.1 The email account that you tried to reach does not exist. Please try double-checking the recipient's email address for typos or unnecessary spaces. For more information, go to https://support.google.com/mail/?p=NoSuchUser - gsmtp",
    },
    blocked: {
      stage: 'rcpt',
      reply: {
        code: 550,
        message: `5.7.1 [${IP}] The IP you're using to send mail is not authorized to send email directly to our servers. Please use the SMTP relay at your service provider instead. - gsmtp`,
      },
    },
    throttled: {
      stage: 'rcpt',
      reply: {
        code: 421,
        message: `4.7.0 [${IP}] Our system has detected an unusual rate of unsolicited mail originating from your IP address. To protect our users from spam, mail sent from your IP address has been temporarily rate limited. - gsmtp`,
      },
    },
  },
  'microsoft-365': {
    unknown: {
      code: 550,
      message:
        '5.4.1 Recipient address rejected: Access denied. For more information see https://aka.ms/EXOSmtpErrors [BN1NAM02FT012.eop-nam02.prod.protection.outlook.com]',
    },
    blocked: {
      stage: 'rcpt',
      reply: {
        code: 550,
        message: `5.7.606 Access denied, banned sending IP [${IP}]. To request removal from this list please visit https://sender.office.com/ and follow the directions. AS(1430)`,
      },
    },
    throttled: {
      stage: 'rcpt',
      reply: {
        code: 451,
        message: `4.7.500 Server busy. Please try again later from [${IP}]. (AS761) [BN1NAM02FT012.eop-nam02.prod.protection.outlook.com]`,
      },
    },
  },
  'outlook-com': {
    unknown: {
      code: 550,
      message: '5.5.0 Requested action not taken: mailbox unavailable (S2017062302). [AM0PR01MB1234.eurprd01.prod.exchangelabs.com]',
    },
    blocked: {
      stage: 'rcpt',
      reply: {
        code: 550,
        message: `5.7.1 Unfortunately, messages from [${IP}] weren't sent. Please contact your Internet service provider since part of their network is on our block list (S3150).`,
      },
    },
    throttled: {
      stage: 'rcpt',
      reply: { code: 421, message: `4.7.650 The mail server [${IP}] has been temporarily rate limited due to IP reputation.` },
    },
  },
  yahoo: {
    // Unknown users are refused only after DATA ("554 delivery error: dd This user doesn't have a yahoo.com account").
    unknown: 'accept',
    blocked: {
      stage: 'connect',
      reply: {
        code: 553,
        message: `5.7.1 [BL21] Connections will not be accepted from ${IP}, because the ip is in Spamhaus's list; see https://postmaster.yahooinc.com/error-codes`,
      },
    },
    throttled: {
      stage: 'mail',
      reply: {
        code: 421,
        message: `4.7.0 [TSS04] Messages from ${IP} temporarily deferred due to unexpected volume or user complaints - 4.16.55.1; see https://postmaster.yahooinc.com/error-codes`,
      },
    },
  },
  icloud: {
    // The recipient is filled in by `unknownReply`.
    unknown: { code: 550, message: '5.1.1 <{rcpt}>: user does not exist' },
    blocked: {
      stage: 'rcpt',
      reply: {
        code: 550,
        message: '5.7.1 [CS01] Message rejected due to local policy. Please visit https://support.apple.com/en-us/HT204137',
      },
    },
    throttled: {
      stage: 'rcpt',
      reply: {
        code: 421,
        message: '4.7.1 Messages to {rcpt} deferred due to excessive volume. Try again later - https://support.apple.com/en-us/HT204137',
      },
    },
  },
  mimecast: {
    unknown: { code: 550, message: 'Invalid Recipient - https://community.mimecast.com/docs/DOC-1369#550 [Zs6PjXrGNVW9dE1dQ.uk12]' },
    blocked: {
      stage: 'rcpt',
      reply: {
        code: 550,
        message:
          'csi.mimecast.org Poor Reputation Sender. - https://community.mimecast.com/docs/DOC-1369#550 [6ATVl4DjOvSA6XNsWGoUFw.us31]',
      },
    },
    throttled: {
      stage: 'rcpt',
      reply: {
        code: 451,
        message: 'Internal resources are temporarily unavailable - https://community.mimecast.com/docs/DOC-1369#451 [x7LmQ2.us50]',
      },
    },
  },
  proofpoint: {
    unknown: { code: 550, message: '5.1.1 User Unknown' },
    blocked: { stage: 'connect', reply: { code: 554, message: `Blocked - see https://ipcheck.proofpoint.com/?ip=${IP}` } },
    // Proofpoint's MTA is sendmail: its connection rate control.
    throttled: { stage: 'rcpt', reply: { code: 421, message: '4.3.2 Connection rate limit exceeded.' } },
  },
  barracuda: {
    unknown: { code: 550, message: 'No such user ({rcpt})' },
    blocked: {
      stage: 'connect',
      reply: {
        code: 554,
        message: `Service unavailable; Client host [${IP}] blocked using Barracuda Reputation; http://www.barracudanetworks.com/reputation/?r=1&ip=${IP}`,
      },
    },
    // Inbound rate control: a 421 past the customer's messages per sender IP per 30 minutes.
    throttled: { stage: 'rcpt', reply: { code: 421, message: 'Rate limit exceeded, try again later' } },
  },
};

export function newProviderState(): ProviderSimState {
  return { mode: 'normal', connectionsBeforeThrottle: 0 };
}

/** A new connection: counts against the throttle; `refusal` when the provider refuses it at the banner. */
export function providerConnect(name: ProviderSimName, state: ProviderSimState): { connection: ProviderConnection; refusal?: RcptReply } {
  const connection = { state, throttling: state.mode === 'throttled' && state.connectionsBeforeThrottle-- <= 0 };
  const refusal = refusalAt(name, connection, 'connect');
  return refusal ? { connection, refusal } : { connection };
}

export function providerMailFrom(name: ProviderSimName, connection: ProviderConnection): RcptReply | undefined {
  return refusalAt(name, connection, 'mail');
}

/**
 * RCPT TO: the refusal of the prober when the provider refuses it here, else the answer for the
 * recipient (`known`: the simulator holds that mailbox; `acceptAll`: a tenant without recipient validation).
 */
export function providerRcpt(
  name: ProviderSimName,
  connection: ProviderConnection,
  recipient: string,
  known: boolean,
  acceptAll: boolean,
): RcptReply {
  const refusal = refusalAt(name, connection, 'rcpt');
  if (refusal) return fill(refusal, recipient);
  const { unknown } = PROVIDER_SIMS[name];
  if (known || acceptAll || unknown === 'accept') return OK;
  return fill(unknown, recipient);
}

function refusalAt(name: ProviderSimName, connection: ProviderConnection, stage: Stage): RcptReply | undefined {
  const sim = PROVIDER_SIMS[name];
  if (connection.state.mode === 'blocked' && sim.blocked.stage === stage) return sim.blocked.reply;
  if (connection.throttling && sim.throttled.stage === stage) return sim.throttled.reply;
  return undefined;
}

const fill = (reply: RcptReply, recipient: string): RcptReply => ({
  code: reply.code,
  message: reply.message.replace('{rcpt}', recipient),
});
