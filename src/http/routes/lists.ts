/**
 * The List API's routes. Lists arrive with the list issue; until then no list exists, so every
 * list id is unknown (404), which is also what another key's list answers.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { errors } from '../../core/errors.js';
import { ErrorBody } from '../schemas/verification.js';

export function listRoutes(app: FastifyInstance): void {
  app.get(
    '/v5/list/:list_id',
    {
      config: { auth: { source: 'header', services: ['lists'] } },
      schema: {
        summary: 'Status of one list (key in the api_key header)',
        params: Type.Object({ list_id: Type.String({ pattern: '^[0-9]{1,18}$' }) }),
        response: { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async () => {
      throw errors.notFound('List not found');
    },
  );
}
