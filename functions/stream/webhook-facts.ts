import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { segmentChangesOfStreamRecords } from '../../shared/adapters/dynamo/segment-routing.js';
import { factsOfStreamRecords } from '../../shared/adapters/dynamo/webhook-stream-facts.js';
import { getContainer } from '../../shared/composition/container.js';
import { membershipStore } from '../../shared/composition/providers/membership-store.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { webhookOutbox } from '../../shared/composition/providers/webhook-outbox.js';
import { routeSegmentChanges } from '../../shared/domain/segments/route-segment-changes.js';
import { produceWebhooks } from '../../shared/domain/webhooks/produce-webhooks.js';
import { logger } from '../../shared/logger.js';

const PORTS = [webhookOutbox, membershipStore, queue] as const;

/**
 * The table's change stream → webhook messages and first deliveries, and the contacts whose change may move their
 * segment memberships → the segments queue (the stream's second reader stays the day counters: no third). The whole
 * batch succeeds or is thrown: Lambda hands it over again (bisected on AWS), and the messages' ids are derived from
 * the facts, so a second pass stores the same messages; a receiver de-duplicates a repeated delivery by its
 * `webhook-id`, and an evaluation repeated finds nothing to change.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const deps = getContainer().resolve(PORTS);
  const changes = segmentChangesOfStreamRecords(event.Records);
  if (changes.length > 0) {
    const routed = await routeSegmentChanges(deps, changes);
    if (routed.routed > 0) logger.info('contacts routed to segment evaluation', { ...routed });
  }
  const facts = factsOfStreamRecords(event.Records);
  if (facts.length === 0) return { batchItemFailures: [] };
  const outcome = await produceWebhooks(deps, facts);
  if (outcome.deliveries > 0) logger.info('webhook messages produced', { ...outcome });
  return { batchItemFailures: [] };
};
