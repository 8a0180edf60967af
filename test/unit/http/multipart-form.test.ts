import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { readMultipartForm } from '../../../shared/http/multipart-form.js';

/** The event API Gateway hands the CSV route: the multipart body base64-encoded. */
async function eventOf(body: FormData | string, contentType?: string): Promise<APIGatewayProxyEventV2> {
  const request = new Request('http://localhost/', {
    method: 'POST',
    body,
    headers: contentType ? { 'content-type': contentType } : undefined,
  });
  const bytes = Buffer.from(await request.arrayBuffer());
  return {
    headers: { 'content-type': contentType ?? request.headers.get('content-type') ?? '' },
    body: bytes.toString('base64'),
    isBase64Encoded: true,
  } as unknown as APIGatewayProxyEventV2;
}

const read = async (body: FormData | string, contentType?: string) =>
  readMultipartForm(await eventOf(body, contentType), { fileField: 'file', maxFileBytes: 1024 });

const form = (file: string | Uint8Array | null, fields: Record<string, string> = {}, filename = 'contacts.csv') => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  if (file !== null) data.append('file', new Blob([file]), filename);
  return data;
};

describe('readMultipartForm', () => {
  it('returns the fields and the file as text, in any part order', async () => {
    const data = new FormData();
    data.append('file', new Blob(['email\na@x.co\n']), 'contacts.csv');
    data.append('delimiter', ';');
    await expect(read(data)).resolves.toEqual({
      fields: { delimiter: ';' },
      file: { filename: 'contacts.csv', mimeType: 'application/octet-stream', text: 'email\na@x.co\n' },
    });
  });

  it('accepts the CSV sent as a plain text field', async () => {
    const data = new FormData();
    data.append('file', 'email\na@x.co');
    await expect(read(data)).resolves.toMatchObject({ file: { text: 'email\r\na@x.co' } });
  });

  it('keeps non-ASCII UTF-8 in plain fields and in a CSV sent as a field', async () => {
    const data = new FormData();
    data.append('file', 'email,first_name\nj@x.co,José Ñúñez');
    data.append('delimiter', '¦');
    await expect(read(data)).resolves.toMatchObject({
      fields: { delimiter: '¦' },
      file: { text: 'email,first_name\r\nj@x.co,José Ñúñez' },
    });
  });

  it('refuses a CSV sent as a plain field whose bytes are not UTF-8', async () => {
    // Prepare: a hand-built part without filename, its value in latin1 ("café" as 63 61 66 e9).
    const body = Buffer.concat([
      Buffer.from('--b\r\ncontent-disposition: form-data; name="file"\r\n\r\nemail\nCaf', 'utf8'),
      Buffer.from([0xe9]),
      Buffer.from('@x.co\r\n--b--\r\n', 'utf8'),
    ]);
    const event = {
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      body: body.toString('base64'),
      isBase64Encoded: true,
    };
    // Act + Assess
    await expect(
      readMultipartForm(event as unknown as APIGatewayProxyEventV2, { fileField: 'file', maxFileBytes: 1024 }),
    ).rejects.toMatchObject({
      status: 422,
      items: [{ condition: 'format', key: 'file' }],
    });
  });

  it.each([
    ['a file that is not UTF-8', form(Buffer.from('caf\xe9', 'latin1')), 422, 'format', 'file'],
    [
      'a binary file',
      form(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]), {}, 'contacts.xlsx'),
      422,
      'format',
      'file',
    ],
    ['no file field', form(null, { delimiter: ',' }), 422, 'required', 'file'],
    [
      'two files',
      (() => {
        const d = form('a');
        d.append('file', new Blob(['b']), 'b.csv');
        return d;
      })(),
      422,
      'format',
      'file',
    ],
    ['a file over the size limit', form('x'.repeat(2048)), 413, 'max', 'file'],
  ])('refuses %s', async (_what, data, status, condition, key) => {
    await expect(read(data)).rejects.toMatchObject({ status, items: [{ condition, key }] });
  });

  it('answers 415 when the body is not multipart/form-data', async () => {
    await expect(read('{"file":"x"}', 'application/json')).rejects.toMatchObject({
      status: 415,
      items: [{ condition: 'unsupported_media_type' }],
    });
  });

  it('answers 400 for a multipart body without boundary or cut short', async () => {
    await expect(read('x', 'multipart/form-data')).rejects.toMatchObject({
      status: 400,
      items: [{ condition: 'malformed', key: 'content-type' }],
    });
    await expect(
      read(
        '--b\r\ncontent-disposition: form-data; name="file"; filename="a"\r\n\r\nabc',
        'multipart/form-data; boundary=b',
      ),
    ).rejects.toMatchObject({
      status: 400,
      items: [{ condition: 'malformed', key: 'body' }],
    });
  });
});
