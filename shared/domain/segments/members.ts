import { invalidField, notFound } from '../../errors.js';
import { signedCursor } from '../pagination/signed-cursor.js';
import type { ContactStore } from '../contacts/contact-store.js';
import type { SegmentMemberList, SegmentMembersQuery } from './schemas-api.js';
import type { SegmentStore } from './segment-store.js';

const cursors = signedCursor('segment-members-cursor:v1:', 120);

interface CursorPayload {
  c: number;
  s: number;
  a: number;
}

/**
 * GET /client/segments/{id}/contacts: the members by contact id. One wave: the head (404 for another client's id)
 * and the 16 member shards after the cursor (each ≤ per_page entries, merged up to the lowest position a shard
 * stopped at), then one BatchGetItem of the contacts. The cursor is signed, bound to the client and the segment.
 */
export async function listSegmentMembers(
  deps: { segments: SegmentStore; contacts: ContactStore; cursorSecret: string },
  clientId: number,
  segmentId: number,
  query: SegmentMembersQuery,
): Promise<SegmentMemberList> {
  let after = 0;
  if (query.cursor !== undefined) {
    const parsed = cursors.read(deps.cursorSecret, query.cursor) as Partial<CursorPayload> | undefined;
    if (!parsed || parsed.c !== clientId || parsed.s !== segmentId || !Number.isSafeInteger(parsed.a) || parsed.a! < 0)
      throw invalidField('format', 'cursor', 'Not a cursor of this list (another list, client or segment, or altered)');
    after = parsed.a!;
  }
  const [head, page] = await Promise.all([
    deps.segments.get(clientId, segmentId),
    deps.segments.members(clientId, segmentId, after, query.per_page),
  ]);
  if (!head.segment) throw notFound('id', 'Segment not found');
  const contacts = await deps.contacts.getMany(
    clientId,
    page.members.map((m) => m.contact_id),
  );
  return {
    contacts: page.members.flatMap((m) => {
      const c = contacts.get(m.contact_id);
      // A contact erased since its entry was read is left out; its entry goes with the erasure.
      if (!c) return [];
      return [
        {
          id: c.id,
          email: c.email,
          first_name: c.first_name ?? null,
          last_name: c.last_name ?? null,
          entered_at: m.at,
        },
      ];
    }),
    next_cursor:
      page.nextAfter === undefined
        ? null
        : cursors.sign(deps.cursorSecret, { c: clientId, s: segmentId, a: page.nextAfter } satisfies CursorPayload),
  };
}
