/** Route schemas for /v5/ev; they also generate /openapi.json and allow-list what goes out. */
import { Type } from 'typebox';
import { DOMAIN_TYPES } from '../../verification/verdict.js';
import { Evidence } from './evidence.js';

export const EvQuery = Type.Object({
  email: Type.String({ description: 'Address to verify, URL encoded' }),
  timeout: Type.Optional(Type.String({ description: 'Seconds, decimals allowed; default 10, capped at 30' })),
  explain: Type.Optional(
    Type.String({
      description:
        'true: add `evidence` beside the verdict (keys with the evidence permission; other keys get the answer without it). true or false; anything else is 400',
    }),
  ),
  api_key: Type.String({ description: 'API key' }),
});

const common = {
  address: Type.String(),
  status_code: Type.Integer({ minimum: 5, maximum: 999 }),
  domain_type: Type.Optional(Type.Union(DOMAIN_TYPES.map((t) => Type.Literal(t)))),
  role_account: Type.Optional(Type.Literal(true)),
  email_corrections: Type.Optional(Type.Array(Type.String())),
};

const SafeToSendBody = Type.Object({
  ...common,
  status: Type.Union(['safetosend', 'valid', 'invalid', 'trap', 'catchall', 'unknown'].map((s) => Type.Literal(s))),
  engagement_score: Type.Optional(Type.Object({ score: Type.Integer({ minimum: 0, maximum: 10 }) })),
});

const EmailValidationBody = Type.Object({
  ...common,
  status: Type.Union(['valid', 'invalid', 'risky', 'unverifiable', 'unknown'].map((s) => Type.Literal(s))),
});

/**
 * Exactly one of the two keys is present, chosen by the key's variant. Written as one object
 * with two optional properties rather than a union: the serializer then needs no runtime schema
 * match per response (a measurable cost on the hot path), and the document still shows both.
 */
export const VerificationResponse = Type.Object(
  {
    safe_to_send: Type.Optional(SafeToSendBody),
    email_validation: Type.Optional(EmailValidationBody),
    evidence: Type.Optional(Evidence),
  },
  {
    description:
      'safe_to_send (verification variant) or email_validation (legacy variant), per the key; evidence beside it only with explain=true',
    minProperties: 1,
    maxProperties: 2,
  },
);

/** /v5/ev's 401 is plain text, as the reference's clients expect (not our JSON error body). */
export const PlainTextError = {
  description: 'The API key is missing, unknown, revoked or not permitted: the plain text `Invalid API key`',
  content: { 'text/plain': { schema: { type: 'string' } } },
};
