import { signedCursor } from './signed-cursor.js';

/**
 * The `next_cursor` of a bounded list (templates, executions, a customization audit trail): the client, the list's
 * scope (filters, a workflow), the number of the page it opens, and the position of the last item shown. Signed with
 * the deployment's link secret under the list's own label, so a cursor only continues the list it came from.
 */
export interface ListPosition<P> {
  /** The page the cursor opens (1 + the page it came from): `meta.page` stays meaningful while following cursors. */
  page: number;
  position: P;
}

export interface PositionCursor<P> {
  sign(secret: string, clientId: number, scope: string, at: ListPosition<P>): string;
  /** The page and position of a cursor this list signed for this client and scope; undefined for anything else. */
  read(secret: string, cursor: string, clientId: number, scope: string): ListPosition<P> | undefined;
}

/** A cursor codec for one list; `isPosition` checks what a signed payload holds before it is used. */
export function positionCursor<P>(label: string, isPosition: (value: unknown) => value is P): PositionCursor<P> {
  const cursors = signedCursor(label, 300);
  return {
    sign: (secret, clientId, scope, at) => cursors.sign(secret, { c: clientId, s: scope, p: at.page, k: at.position }),
    read(secret, cursor, clientId, scope) {
      const payload = cursors.read(secret, cursor);
      if (!payload || payload['c'] !== clientId || payload['s'] !== scope) return undefined;
      const page = payload['p'];
      if (typeof page !== 'number' || !Number.isSafeInteger(page) || page < 2 || !isPosition(payload['k']))
        return undefined;
      return { page, position: payload['k'] };
    },
  };
}
