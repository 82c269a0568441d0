/**
 * The one line `mailsure lists` prints for a failure: the client's own wording, and, where the
 * user is the one to act, how. A server whose certificate is not trusted (the self-signed one
 * `mailsure serve` generates, or a private CA's) is fixed by trusting it, which Node's message
 * alone does not say.
 */
import { describeFailure, type Failure } from '@mailsure/client';

/** Node's codes for a certificate whose issuer this machine does not trust. */
const UNTRUSTED_ISSUER = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
]);

export const TRUST_HINT =
  "trust the server's certificate with --ca FILE or MAILSURE_CA=FILE (the server's data/tls/cert.pem, or the CA that signed it)";

export function failureLine(failure: Failure): string {
  const code = failure.kind === 'network' ? (failure.cause as NodeJS.ErrnoException | undefined)?.code : undefined;
  const line = describeFailure(failure);
  return code !== undefined && UNTRUSTED_ISSUER.has(code) ? `${line}; ${TRUST_HINT}` : line;
}
