import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { linkSecret } from '../../shared/composition/providers/link-secret.js';
import { segmentStore } from '../../shared/composition/providers/segment-store.js';
import { listSegmentMembers } from '../../shared/domain/segments/members.js';
import { SegmentIdParams, SegmentMemberList, SegmentMembersQuery } from '../../shared/domain/segments/schemas-api.js';

/** GET /client/segments/{id}/contacts — the members, by contact id. */
export const handler = jsonApi(
  {
    summary: "List a segment's contacts",
    description:
      'The members by ascending contact id with when each entered, `per_page` (≤ 100) a page. Follow ' +
      "`next_cursor` (opaque, signed) until it is null. Another account's segment: 404.",
    params: SegmentIdParams,
    query: SegmentMembersQuery,
    responses: { 200: SegmentMemberList },
    errors: [404],
  },
  [segmentStore, contactStore, linkSecret],
  async ({ params, query }, { deps, clientId }) =>
    ok(await listSegmentMembers({ ...deps, cursorSecret: await deps.linkSecret.value() }, clientId, params.id, query)),
);
