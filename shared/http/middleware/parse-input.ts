import type * as z from '../../validation/zod.js';
import { malformed, unprocessable, type ErrorItem } from '../../errors.js';
import { issuesToItems } from '../../validation/issue-items.js';
import type { ApiMiddleware } from './types.js';

export interface InputSchemas {
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
}

/** Parses path, query and body with their zod schemas; every issue of every part is reported at once (422). */
export function parseInput(schemas: InputSchemas): ApiMiddleware {
  return {
    before: async (request) => {
      const { event } = request;
      const items: ErrorItem[] = [];
      const input = request.context.api.input;
      const parts = [
        ['params', schemas.params, event.pathParameters ?? {}],
        ['query', schemas.query, event.queryStringParameters ?? {}],
        ['body', schemas.body, event.body === undefined ? {} : event.body],
      ] as const;
      for (const [part, schema, raw] of parts) {
        if (!schema) continue;
        // jsonBody has refused non-objects already; this guards chains that read the body another way.
        if (part === 'body' && (raw === null || typeof raw !== 'object' || Array.isArray(raw))) {
          throw malformed('body', 'The request body must be a JSON object');
        }
        const result = schema.safeParse(raw, { reportInput: true });
        if (result.success) input[part] = result.data;
        else items.push(...issuesToItems(result.error.issues));
      }
      if (items.length > 0) throw unprocessable(items);
    },
  };
}
