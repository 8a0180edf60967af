import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { ContactFilter } from './contact-store.js';

/**
 * The opaque `next_cursor` of `GET /client/contacts`: `base64url(payload).base64url(HMAC-SHA256)`, keyed by the
 * deployment's link secret under its own label (a cursor can never pass for a public link token, nor the reverse).
 * The payload names the client and a digest of the filters, so a cursor is refused under another client's key or
 * with other filters; it only carries a position (a contact id) — nothing a client could not see anyway, but
 * tamper-proof, so the position cannot be moved to probe ids.
 */
const LABEL = 'contacts-list-cursor:v1:';
const CURSOR = /^([A-Za-z0-9_-]{1,120})\.([A-Za-z0-9_-]{43})$/;

interface CursorPayload {
  c: number;
  a: number;
  f: string;
}

const mac = (secret: string, payload: string) => createHmac('sha256', secret).update(LABEL + payload).digest();

/** A short digest of the filters (key order fixed), so a cursor only continues the list it came from. */
export function filterDigest(filter: ContactFilter): string {
  const canonical = JSON.stringify([filter.email_prefix ?? null, filter.is_subscribed ?? null, filter.source ?? null, filter.updated_since ?? null]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

export function signCursor(secret: string, clientId: number, afterId: number, filter: ContactFilter): string {
  const payload = Buffer.from(JSON.stringify({ c: clientId, a: afterId, f: filterDigest(filter) } satisfies CursorPayload), 'utf8').toString('base64url');
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

/** The position a cursor of this client and these filters holds; undefined for anything else. Never throws. */
export function readCursor(secret: string, cursor: string, clientId: number, filter: ContactFilter): number | undefined {
  const match = CURSOR.exec(cursor);
  if (!match) return undefined;
  const [, payload, signature] = match as unknown as [string, string, string];
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<CursorPayload>;
    if (parsed.c !== clientId || parsed.f !== filterDigest(filter)) return undefined;
    return Number.isSafeInteger(parsed.a) && parsed.a! >= 0 ? parsed.a : undefined;
  } catch {
    return undefined;
  }
}
