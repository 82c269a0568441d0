/**
 * Whether a refusal line the prober reported (`550 5.7.1 text`, or `banner 554 text`) is one that
 * the MX host's provider uses to block the prober itself: prober health counts it as a refusal of
 * us even when its words alone would not say so (iCloud's `[CS01] … local policy`, Proofpoint's
 * `Blocked - see ipcheck…`).
 */
import { classifyEnvelopeReply } from '../smtp/reply-class.js';
import { profileForHost } from './match-profile.js';

const LINE = /^(?:banner )?([245]\d\d) (?:([245]\.\d{1,3}\.\d{1,3}) )?(.*)$/s;

export function providerBlocksUs(host: string, line: string): boolean {
  const profile = profileForHost(host);
  if (profile.replies.blocked.length === 0) return false;
  const match = LINE.exec(line.trim());
  if (!match) return false;
  const reply = { code: Number(match[1]), text: match[3] ?? '', ...(match[2] ? { enhanced: match[2] } : {}) };
  return classifyEnvelopeReply(reply, profile.replies).signal === 'blocked';
}
