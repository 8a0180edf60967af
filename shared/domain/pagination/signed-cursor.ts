import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * An opaque, tamper-proof page cursor: `base64url(JSON payload).base64url(HMAC-SHA256)`, keyed by the deployment's
 * link secret under a label of the list's own (so a cursor of one list is never valid for another, nor as a public
 * link token). It carries only positions a client could see anyway; the signature keeps them from being moved.
 */
export interface SignedCursor {
  sign(secret: string, payload: object): string;
  /** The payload of a cursor this list signed; undefined for anything else (never throws). */
  read(secret: string, cursor: string): Record<string, unknown> | undefined;
}

/** The cursor codec of one list: its `label` and the longest encoded payload it accepts. */
export function signedCursor(label: string, maxPayloadChars: number): SignedCursor {
  const shape = new RegExp(`^([A-Za-z0-9_-]{1,${maxPayloadChars}})\\.([A-Za-z0-9_-]{43})$`);
  const mac = (secret: string, payload: string) =>
    createHmac('sha256', secret)
      .update(label + payload)
      .digest();
  return {
    sign(secret, payload) {
      const encoded = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
      return `${encoded}.${mac(secret, encoded).toString('base64url')}`;
    },
    read(secret, cursor) {
      const match = shape.exec(cursor);
      if (!match) return undefined;
      const [, encoded, signature] = match as unknown as [string, string, string];
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(secret, encoded);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      try {
        const parsed: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
        return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
          ? (parsed as Record<string, unknown>)
          : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
