import { createHash } from 'node:crypto';
import { signedCursor } from '../pagination/signed-cursor.js';
import type { ContactFilter } from './contact-store.js';

/**
 * The opaque `next_cursor` of `GET /client/contacts`: `base64url(payload).base64url(HMAC-SHA256)`, keyed by the
 * deployment's link secret under its own label (a cursor can never pass for a public link token, nor the reverse).
 * The payload names the client and a digest of the filters, so a cursor is refused under another client's key or
 * with other filters; it only carries a position (a contact id) — nothing a client could not see anyway, but
 * tamper-proof, so the position cannot be moved to probe ids.
 */
const cursors = signedCursor('contacts-list-cursor:v1:', 120);

interface CursorPayload {
  c: number;
  a: number;
  f: string;
}

/** A short digest of the filters (key order fixed), so a cursor only continues the list it came from. */
export function filterDigest(filter: ContactFilter): string {
  const canonical = JSON.stringify([
    filter.email_prefix ?? null,
    filter.is_subscribed ?? null,
    filter.source ?? null,
    filter.updated_since ?? null,
  ]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

export function signCursor(secret: string, clientId: number, afterId: number, filter: ContactFilter): string {
  return cursors.sign(secret, { c: clientId, a: afterId, f: filterDigest(filter) } satisfies CursorPayload);
}

/** The position a cursor of this client and these filters holds; undefined for anything else. Never throws. */
export function readCursor(
  secret: string,
  cursor: string,
  clientId: number,
  filter: ContactFilter,
): number | undefined {
  const parsed = cursors.read(secret, cursor) as Partial<CursorPayload> | undefined;
  if (!parsed || parsed.c !== clientId || parsed.f !== filterDigest(filter)) return undefined;
  return Number.isSafeInteger(parsed.a) && parsed.a! >= 0 ? parsed.a : undefined;
}
