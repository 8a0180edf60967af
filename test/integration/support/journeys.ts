import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { expect, inject } from 'vitest';
import { keys } from '../../../shared/adapters/dynamo/keys.js';
import type { RunRecord } from '../../../shared/domain/runs/run-record.js';
import { call } from './api.js';
import type { TestClient } from './clients.js';
import { eventually } from './eventually.js';
import { documentClient } from './partition.js';

/** A journey created and published through the API, as a client does: its id. */
export async function publishJourney(client: TestClient, name: string, definition: unknown): Promise<number> {
  const created = await call('POST', '/client/journeys', { key: client.api_key, body: { name, definition } });
  expect(created.status, created.text).toBe(201);
  const { id, draft_version } = created.body.data;
  const published = await call('POST', `/client/journeys/${id}/publish`, {
    key: client.api_key,
    body: { draft_version },
  });
  expect(published.status, published.text).toBe(201);
  return id;
}

/** An event processed in the request (`sync=true`): the processed event, with its journey entries and resumed runs. */
export async function sendSyncEvent(client: TestClient, body: Record<string, unknown>) {
  const res = await call('POST', '/client/events?sync=true', { key: client.api_key, body });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

/** A run as the table holds it (read consistently). */
export const runOf = async (clientId: number, runId: number): Promise<RunRecord | undefined> =>
  (
    await documentClient().send(
      new GetCommand({ TableName: inject('tableName'), Key: keys.run(clientId, runId), ConsistentRead: true }),
    )
  ).Item as RunRecord | undefined;

/** The run once `holds` is true of it. */
export const awaitRun = (
  clientId: number,
  runId: number,
  what: string,
  holds: (run: RunRecord) => boolean,
  timeoutMs = 15_000,
) =>
  eventually(
    `run ${runId} ${what}`,
    async () => {
      const run = await runOf(clientId, runId);
      return run && holds(run) ? run : undefined;
    },
    { timeoutMs, intervalMs: 250 },
  );

/**
 * One shopper (created by the first event) abandons carts A and B, each entering `journeyId` as a run of its own
 * (asserted): the two runs' ids.
 */
export async function abandonCartsAAndB(
  client: TestClient,
  email: string,
  journeyId: number,
): Promise<{ runA: number; runB: number }> {
  const cartA = await sendSyncEvent(client, { type: 'cart_abandoned', email, auto_create_contact: true, cart_id: 'A' });
  const cartB = await sendSyncEvent(client, { type: 'cart_abandoned', email, cart_id: 'B' });
  for (const cart of [cartA, cartB])
    expect(cart.journey_entries).toEqual([{ journey_id: journeyId, run_id: expect.any(Number), outcome: 'entered' }]);
  return { runA: cartA.journey_entries[0].run_id as number, runB: cartB.journey_entries[0].run_id as number };
}
