import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { factsOfStreamRecords } from '../../shared/adapters/dynamo/webhook-stream-facts.js';
import { getContainer } from '../../shared/composition/container.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { webhookOutbox } from '../../shared/composition/providers/webhook-outbox.js';
import { produceWebhooks } from '../../shared/domain/webhooks/produce-webhooks.js';
import { logger } from '../../shared/logger.js';

const PORTS = [webhookOutbox, queue] as const;

/**
 * The table's change stream → webhook messages and first deliveries. The whole batch succeeds or is
 * thrown: Lambda hands it over again (bisected on AWS), and the messages' ids are derived from the facts, so a
 * second pass stores the same messages; a receiver de-duplicates a repeated delivery by its `webhook-id`.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const deps = getContainer().resolve(PORTS);
  const facts = factsOfStreamRecords(event.Records);
  if (facts.length === 0) return { batchItemFailures: [] };
  const outcome = await produceWebhooks(deps, facts);
  if (outcome.deliveries > 0) logger.info('webhook messages produced', { ...outcome });
  return { batchItemFailures: [] };
};
