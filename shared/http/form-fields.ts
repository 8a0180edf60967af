import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** An application/x-www-form-urlencoded body (a public page's form POST) as its fields; base64 when API Gateway says so. */
export function formFieldsOf(event: Pick<APIGatewayProxyEventV2, 'body' | 'isBase64Encoded'>): URLSearchParams {
  const raw = event.body ?? '';
  return new URLSearchParams(event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw);
}
