import httpJsonBodyParser from '@middy/http-json-body-parser';
import { malformed, unsupportedMediaType } from '../../errors.js';
import type { ApiMiddleware, ApiRequest } from './types.js';

const parser = httpJsonBodyParser();

/**
 * JSON body parsing with the project's statuses: an empty body is `{}`, a non-JSON content type is 415,
 * JSON that does not parse is 400 `malformed` (middy's parser answers 415 for both), and so is JSON that is not
 * an object (`null`, a string, a number, an array): no route takes anything else, so none may read it as `{}`.
 */
export function jsonBody(): ApiMiddleware {
  return {
    before: async (request) => {
      const { body } = request.event;
      if (body === undefined || body === null || body === '') {
        (request.event as { body: unknown }).body = {};
        return;
      }
      const contentType = request.event.headers?.['content-type'];
      if (!contentType || !/^application\/(.+\+)?json($|;.+)/i.test(contentType)) {
        throw unsupportedMediaType('The request body must be application/json');
      }
      try {
        await parser.before!(request as never);
      } catch {
        throw malformed('body', 'The request body is not valid JSON');
      }
      const parsed: unknown = request.event.body;
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        throw malformed('body', 'The request body must be a JSON object');
      }
    },
  };
}

export type { ApiRequest };
