import { signedCursor } from '../pagination/signed-cursor.js';
import { ACTIVITY_KINDS, type ActivityPosition } from './activity-position.js';

/**
 * The opaque `next_cursor` of `GET /client/contacts/{id}/activity`: `base64url(payload).base64url(HMAC-SHA256)`, keyed
 * by the link secret under a label of its own (never valid as a contacts-list cursor or a public link token). The
 * payload names the client and the contact, so a cursor is refused for any other timeline; it holds the position of
 * the last item shown — nothing the client could not see, but tamper-proof.
 */
const cursors = signedCursor('contact-activity-cursor:v1:', 200);
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface CursorPayload {
  /** client id */
  c: number;
  /** contact id */
  n: number;
  /** the position's kind (index in ACTIVITY_KINDS), time and id */
  k: number;
  t: string;
  i: number | string;
}

/** A cursor continuing this client's timeline of this contact below `position`. */
export function signActivityCursor(
  secret: string,
  clientId: number,
  contactId: number,
  position: ActivityPosition,
): string {
  const body: CursorPayload = {
    c: clientId,
    n: contactId,
    k: ACTIVITY_KINDS.indexOf(position.kind),
    t: position.at,
    i: position.id,
  };
  return cursors.sign(secret, body);
}

/** The position a cursor of this client's timeline of this contact holds; undefined for anything else. Never throws. */
export function readActivityCursor(
  secret: string,
  cursor: string,
  clientId: number,
  contactId: number,
): ActivityPosition | undefined {
  const p = cursors.read(secret, cursor) as Partial<CursorPayload> | undefined;
  if (!p) return undefined;
  const kind = typeof p.k === 'number' ? ACTIVITY_KINDS[p.k] : undefined;
  if (p.c !== clientId || p.n !== contactId || kind === undefined || typeof p.t !== 'string' || !ISO_UTC.test(p.t))
    return undefined;
  if (!(typeof p.i === 'string' || (typeof p.i === 'number' && Number.isSafeInteger(p.i)))) return undefined;
  return { kind, at: p.t, id: p.i };
}
