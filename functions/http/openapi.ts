import * as z from '../../shared/validation/zod.js';
import document from '../../docs/openapi.json' with { type: 'json' };
import { bareJson } from '../../shared/http/envelope.js';
import { publicApi } from '../../shared/http/public-api.js';

/**
 * GET /api/v1/openapi.json — the OpenAPI 3.1 document of this API, as it is (no envelope: tools read it from its
 * URL), no authentication. It is docs/openapi.json, bundled into the function: a unit test keeps that file equal to
 * what the code generates, so serving it needs neither the other handlers' code nor any work at cold start.
 */
export const handler = publicApi(
  {
    summary: 'Get this OpenAPI document',
    description: 'The OpenAPI 3.1 document of this API, as a bare JSON document (not in the envelope). No authentication.',
    responses: {
      200: {
        document: z
          .looseObject({ openapi: z.string().check(z.meta({ examples: ['3.1.0'] })), info: z.looseObject({ version: z.string() }) })
          .check(z.meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document' })),
        description: 'The document',
      },
    },
  },
  [],
  async () => bareJson(document),
);
