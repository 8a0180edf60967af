import busboy from 'busboy';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { type AppError, invalidField, malformed, tooLarge, unsupportedMediaType } from '../errors.js';

export interface MultipartForm {
  /** Text fields (the last value wins when a name repeats). */
  fields: Record<string, string>;
  /** The upload, decoded as UTF-8. */
  file: { filename?: string; mimeType: string; text: string };
}

export interface MultipartOptions {
  /** Name of the one required file part. */
  fileField: string;
  maxFileBytes: number;
}

/**
 * Reads a multipart/form-data body with busboy, streaming the parts out of the event body (base64 when API
 * Gateway flags it). The file part is decoded chunk by chunk with a fatal UTF-8 decoder, so a non-UTF-8 or binary
 * upload (a spreadsheet, say) is refused with a clear error instead of being imported as mojibake.
 * Errors: 415 not multipart; 400 broken multipart; 413 file too large; 422 `file` missing, repeated or not text.
 */
export function readMultipartForm(event: APIGatewayProxyEventV2, options: MultipartOptions): Promise<MultipartForm> {
  const contentType = event.headers?.['content-type'] ?? '';
  if (!/^multipart\/form-data\s*(;|$)/i.test(contentType)) {
    throw unsupportedMediaType(`Send the CSV as multipart/form-data with the file in a "${options.fileField}" field`);
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      // Text fields arrive as latin1 (one char per byte) and are decoded below with a strict UTF-8 decoder, so a
      // non-UTF-8 CSV sent as a plain field is refused like an uploaded one instead of turning into U+FFFD.
      defCharset: 'latin1',
      // A client may send the CSV as a plain field (no filename): fields may then be as large as the file.
      limits: { files: 5, fileSize: options.maxFileBytes, fields: 20, fieldSize: options.maxFileBytes, parts: 40 },
    });
  } catch {
    throw malformed('content-type', 'multipart/form-data needs a boundary parameter');
  }
  const body = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');

  return new Promise((resolve, reject) => {
    // Field names come from the caller: no prototype, so `constructor` or `__proto__` are just names.
    const fields: Record<string, string> = Object.create(null) as Record<string, string>;
    let file: MultipartForm['file'] | undefined;
    let failure: AppError | undefined;
    let fileParts = 0;
    const fail = (error: AppError) => (failure ??= error);

    const fileError = (error: string) => invalidField('format', options.fileField, error);
    const binary = () => fileError('The file is binary, not CSV text (a spreadsheet?): export it as "CSV UTF-8"');
    const notUtf8 = () => fileError('The file is not UTF-8 text: save it as "CSV UTF-8" and upload it again');
    const oneFile = () => fileError(`Send exactly one "${options.fileField}"`);

    parser.on('field', (name, raw, info) => {
      const value = strictUtf8(raw);
      if (name !== options.fileField) {
        if (value === undefined) fail(invalidField('format', name, `The "${name}" field is not UTF-8 text`));
        else fields[name] = value;
        return;
      }
      // The CSV sent as a text field (no filename).
      fileParts += 1;
      if (file || fileParts > 1) fail(oneFile());
      else if (info.valueTruncated) fail(tooLarge(options.fileField, `The file exceeds ${options.maxFileBytes} bytes`));
      else if (raw.includes('\u0000')) fail(binary());
      else if (value === undefined) fail(notUtf8());
      else file = { mimeType: info.mimeType, text: value };
    });
    parser.on('file', (name, stream, info) => {
      if (name !== options.fileField) {
        stream.resume(); // other uploads are not read
        return;
      }
      fileParts += 1;
      if (file || fileParts > 1) fail(oneFile());
      stream.on('error', () => fail(malformed('body', 'The multipart/form-data body is malformed or cut short')));
      const decoder = new TextDecoder('utf-8', { fatal: true });
      const parts: string[] = [];
      let ok = true;
      stream.on('data', (chunk: Buffer) => {
        if (!ok) return;
        if (chunk.includes(0)) {
          ok = false;
          fail(binary());
          return;
        }
        try {
          parts.push(decoder.decode(chunk, { stream: true }));
        } catch {
          ok = false;
          fail(notUtf8());
        }
      });
      stream.on('limit', () => {
        ok = false;
        fail(tooLarge(options.fileField, `The file exceeds ${options.maxFileBytes} bytes`));
      });
      stream.on('end', () => {
        if (!ok) return;
        try {
          parts.push(decoder.decode());
        } catch {
          fail(notUtf8());
          return;
        }
        file ??= { filename: info.filename, mimeType: info.mimeType, text: parts.join('') };
      });
    });
    parser.on('filesLimit', () => fail(fileError('Too many files in the form')));
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      if (failure) reject(failure);
      else if (!file)
        reject(
          invalidField('required', options.fileField, `A "${options.fileField}" field with the CSV file is required`),
        );
      else resolve({ fields, file });
    };
    parser.on('error', () => {
      fail(malformed('body', 'The multipart/form-data body is malformed or cut short'));
      finish();
    });
    parser.on('close', finish);
    parser.end(body);
  });
}

/** Decodes a latin1-read field (one char per byte) as strict UTF-8; undefined when the bytes are not UTF-8. */
function strictUtf8(latin1: string): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(latin1, 'latin1'));
  } catch {
    return undefined;
  }
}
