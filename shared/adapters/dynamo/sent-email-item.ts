import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import type { SentEmailRecord } from '../../domain/sent-emails/sent-email-record.js';
import { stripKeys } from './items.js';

/**
 * How a sent e-mail's record is stored: its HTML and text bodies together as one Brotli-compressed binary attribute,
 * `bodies_br`, the rest as written. The item is written twice inside transactions (the claim, then the send's
 * settlement), and DynamoDB bills each by the item's whole size rounded up to 1 KB, doubled in a transaction: the
 * bodies were ~4 KB of a ~4.8 KB item, and compress about 3.3-fold (the text body repeats the HTML's words). Nothing
 * reads the bodies in a query or condition, so they need not be readable by DynamoDB. Items written before keep
 * `html_body` and `text_body` as strings, and read back as they were.
 */
export const BODIES_ATTRIBUTE = 'bodies_br';

// Quality 5 compresses a rendered system e-mail (~4 KB) to ~1.2–1.4 KB in ~0.2 ms; quality 11 is 10–15 % smaller but
// takes ~7 ms, 35 times the CPU, for a size that rarely crosses a kilobyte boundary the smaller one does not.
const QUALITY = 5;

/** The record's attributes as stored (without the keys): the bodies compressed into `bodies_br`. */
export function sentEmailAttributes(e: SentEmailRecord): Record<string, unknown> {
  const { html_body, text_body, ...rest } = e;
  const bodies = brotliCompressSync(Buffer.from(JSON.stringify([html_body, text_body]), 'utf8'), {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: QUALITY,
    },
  });
  return { ...rest, [BODIES_ATTRIBUTE]: new Uint8Array(bodies.buffer, bodies.byteOffset, bodies.byteLength) };
}

/** The record an item read back holds: keys stripped, the bodies decompressed (or as stored, on an older item). */
export function sentEmailOf(item: Record<string, unknown>): SentEmailRecord {
  const { [BODIES_ATTRIBUTE]: stored, ...rest } = stripKeys<Record<string, unknown>>(item);
  if (!(stored instanceof Uint8Array)) return rest as unknown as SentEmailRecord;
  const [html_body, text_body] = JSON.parse(brotliDecompressSync(stored).toString('utf8')) as [string, string];
  return { ...rest, html_body, text_body } as unknown as SentEmailRecord;
}
