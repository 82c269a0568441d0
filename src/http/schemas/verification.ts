/** Route schemas for /v5/ev; they also generate /openapi.json and allow-list what goes out. */
import { Type } from 'typebox';
import { DOMAIN_TYPES } from '../../verification/verdict.js';

export const EvQuery = Type.Object({
  email: Type.String({ description: 'Address to verify, URL encoded' }),
  timeout: Type.Optional(Type.String({ description: 'Seconds, decimals allowed; default 10, capped at 30' })),
  api_key: Type.String({ description: 'API key' }),
});

const common = {
  address: Type.String(),
  status_code: Type.Integer({ minimum: 5, maximum: 999 }),
  domain_type: Type.Optional(Type.Union(DOMAIN_TYPES.map((t) => Type.Literal(t)))),
  role_account: Type.Optional(Type.Literal(true)),
  email_corrections: Type.Optional(Type.Array(Type.String())),
};

export const SafeToSend = Type.Object({
  safe_to_send: Type.Object({
    ...common,
    status: Type.Union(['safetosend', 'valid', 'invalid', 'trap', 'catchall', 'unknown'].map((s) => Type.Literal(s))),
    engagement_score: Type.Optional(Type.Object({ score: Type.Integer({ minimum: 0, maximum: 10 }) })),
  }),
});

export const EmailValidation = Type.Object({
  email_validation: Type.Object({
    ...common,
    status: Type.Union(['valid', 'invalid', 'risky', 'unverifiable', 'unknown'].map((s) => Type.Literal(s))),
  }),
});

export const ErrorBody = Type.Object({ error_code: Type.Integer(), error_msg: Type.String() });
export const PlainTextError = Type.String({ description: 'Plain-text message: Invalid API key' });
