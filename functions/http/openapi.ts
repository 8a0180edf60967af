import * as z from '../../shared/validation/zod.js';
import { bareJson } from '../../shared/http/envelope.js';
import { OPENAPI_DOCUMENT_FILE } from '../../shared/http/openapi-file.js';
import { StaticFiles } from '../../shared/http/static-files.js';
import { publicApi } from '../../shared/http/public-api.js';

const file = new StaticFiles(OPENAPI_DOCUMENT_FILE, import.meta.url);
type Document = Record<string, unknown> & { openapi: string; info: { version: string } & Record<string, unknown> };
let document: Promise<Document> | undefined;

/**
 * GET /api/v1/openapi.json — the OpenAPI 3.1 document of this API, as it is (no envelope: tools read it from its
 * URL), no authentication. It is docs/openapi.json, copied beside the function's bundle (read and parsed on the first
 * request, then kept): a unit test keeps that file equal to what the code generates, so serving it needs neither the
 * other handlers' code nor the document inside the JavaScript.
 */
export const handler = publicApi(
  {
    summary: 'Get this OpenAPI document',
    description:
      'The OpenAPI 3.1 document of this API, as a bare JSON document (not in the envelope). No authentication.',
    responses: {
      200: {
        document: z
          .looseObject({
            openapi: z.string().check(z.meta({ examples: ['3.1.0'] })),
            info: z.looseObject({ version: z.string() }),
          })
          .check(z.meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document' })),
        description: 'The document',
      },
    },
  },
  [],
  async () => {
    document ??= file.text('openapi.json').then((text) => JSON.parse(text!) as Document);
    document.catch(() => (document = undefined));
    return bareJson(await document);
  },
);
