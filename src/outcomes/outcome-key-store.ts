/**
 * What outcome ingestion keeps per key (storage/ implements it on every engine): the ingestion
 * token's hash, the ESP secrets its signatures are checked with (sealed at rest where the engine
 * seals secrets), and whether the key's outcomes may feed the shared lists.
 */
import type { OutcomeSecrets } from './outcome-event.js';

export interface OutcomeKeySettings {
  keyId: number;
  /** Whether an ingestion token is set (its hash never leaves the store). */
  hasToken: boolean;
  secrets: OutcomeSecrets;
  /** The key's outcome entries may count for other keys (when corroborated); off by default. */
  share: boolean;
  /** An SNS SubscribeURL that arrived and awaits the operator's confirmation. */
  snsSubscribeUrl?: string;
}

export interface OutcomeKeyStore {
  /** Sets (or replaces: rotation) the key's token hash; the previous token stops working at once. */
  setToken(keyId: number, tokenHash: string): Promise<void>;
  /** The key whose token has this hash, if any. */
  keyOfToken(tokenHash: string): Promise<number | undefined>;
  /** Every key holding an ingestion token, ascending: only their verdicts can ever meet an outcome. */
  keysWithToken(): Promise<number[]>;
  /** Replaces the key's ESP secrets with these (an absent secret is removed). */
  setSecrets(keyId: number, secrets: OutcomeSecrets): Promise<void>;
  setShare(keyId: number, share: boolean): Promise<void>;
  /** Keeps (or, with null, clears) the SNS SubscribeURL awaiting confirmation. */
  setSnsSubscription(keyId: number, subscribeUrl: string | null): Promise<void>;
  /** Every key with an SNS SubscribeURL awaiting confirmation. */
  pendingSnsSubscriptions(): Promise<{ keyId: number; subscribeUrl: string }[]>;
  /** Undefined when nothing was ever set for the key. */
  settings(keyId: number): Promise<OutcomeKeySettings | undefined>;
}
