import busboy from 'busboy';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { formFieldsOf } from './form-fields.js';

/** The field and value RFC 8058 §3.1 asks a mail client's one-click POST to carry. */
export const ONE_CLICK_FIELD = 'List-Unsubscribe';
export const ONE_CLICK_VALUE = 'One-Click';

const MULTIPART = /^multipart\/form-data\s*(;|$)/i;

/**
 * Whether a POST is RFC 8058's one-click request: its body holds `List-Unsubscribe=One-Click`, form-encoded (what
 * mail clients send; a body without a content type is read so too) or as multipart/form-data (which the RFC prefers).
 * Anything else — an empty body, a link scanner's POST, another form — is not a request to unsubscribe.
 */
export async function isOneClickRequest(
  event: Pick<APIGatewayProxyEventV2, 'body' | 'isBase64Encoded' | 'headers'>,
): Promise<boolean> {
  if (!event.body) return false;
  const contentType = event.headers?.['content-type'] ?? '';
  if (!MULTIPART.test(contentType)) return formFieldsOf(event).getAll(ONE_CLICK_FIELD).includes(ONE_CLICK_VALUE);
  return (await multipartFields(event, contentType)).includes(ONE_CLICK_VALUE);
}

/** The values of the one-click field in a multipart body (busboy); a broken body has none. */
function multipartFields(
  event: Pick<APIGatewayProxyEventV2, 'body' | 'isBase64Encoded'>,
  contentType: string,
): Promise<string[]> {
  return new Promise((resolve) => {
    const values: string[] = [];
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: { files: 0, fields: 20, fieldSize: 1024, parts: 20 },
      });
    } catch {
      resolve([]);
      return;
    }
    parser.on('field', (name, value) => {
      if (name === ONE_CLICK_FIELD) values.push(value);
    });
    parser.on('file', (_name, stream) => stream.resume());
    parser.on('error', () => resolve([]));
    parser.on('close', () => resolve(values));
    parser.end(Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8'));
  });
}
