import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type * as z from '../validation/zod.js';
import { unprocessable, unsupportedMediaType } from '../errors.js';
import { issuesToItems } from '../validation/issue-items.js';
import { CSRF_FORM_FIELD } from '../public/session-rules.js';

/** An application/x-www-form-urlencoded body (a public page's form POST) as its fields; base64 when API Gateway says so. */
export function formFieldsOf(event: Pick<APIGatewayProxyEventV2, 'body' | 'isBase64Encoded'>): URLSearchParams {
  const raw = event.body ?? '';
  return new URLSearchParams(event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw);
}

export { CSRF_FORM_FIELD };

const FORM_TYPE = /^application\/x-www-form-urlencoded(\s*;.*)?$/i;

/** The form fields of a request that sent a form-encoded body; undefined for any other (or no) body. */
export function formBodyOf(
  event: Pick<APIGatewayProxyEventV2, 'body' | 'isBase64Encoded' | 'headers'>,
): URLSearchParams | undefined {
  if (!event.body || !FORM_TYPE.test(event.headers?.['content-type'] ?? '')) return undefined;
  return formFieldsOf(event);
}

/**
 * An authenticated page's form, validated by `schema` (each field once, as a string; the CSRF field is the guard's):
 * no body is `{}`, a body of another type is 415, a field the schema refuses is 422 at its name.
 */
export function parseForm<S extends z.ZodMiniType>(
  schema: S,
  event: Pick<APIGatewayProxyEventV2, 'body' | 'isBase64Encoded' | 'headers'>,
): z.output<S> {
  const fields = formBodyOf(event);
  if (event.body && !fields) throw unsupportedMediaType('The request body must be application/x-www-form-urlencoded');
  const values = Object.fromEntries(
    [...(fields ?? new URLSearchParams()).entries()].filter(([name]) => name !== CSRF_FORM_FIELD),
  );
  const result = schema.safeParse(values, { reportInput: true });
  if (!result.success) throw unprocessable(issuesToItems(result.error.issues));
  return result.data;
}
