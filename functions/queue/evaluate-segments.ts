import { clock } from '../../shared/composition/providers/clock.js';
import { membershipStore } from '../../shared/composition/providers/membership-store.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { segmentStore } from '../../shared/composition/providers/segment-store.js';
import { backfillSegmentPage, purgeSegmentPage } from '../../shared/domain/segments/backfill-segment.js';
import { evaluateContacts } from '../../shared/domain/segments/evaluate-contacts.js';
import { SegmentsMessage } from '../../shared/domain/segments/segments-message.js';
import { sqsBatch } from '../../shared/queue/sqs-batch.js';

/**
 * segments queue → contacts re-evaluated against their client's segments (a change the stream routed, an edge the
 * sweep found due), or one page of a segment's backfill. Every message is idempotent: an evaluation reads the
 * contacts' last state and writes only what moved, conditioned on the state it read.
 */
export const handler = sqsBatch(
  SegmentsMessage,
  [membershipStore, segmentStore, queue, clock],
  async (message, { deps }) => {
    if (message.kind === 'contacts') {
      await evaluateContacts(deps, message.client_id, message.contact_ids);
      return;
    }
    if (message.kind === 'purge') {
      await purgeSegmentPage(deps, message);
      return;
    }
    await backfillSegmentPage(deps, message);
  },
);
