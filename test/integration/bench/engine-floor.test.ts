import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { BatchGetCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { measureEngineFloor, RequestCapture } from '../../../scripts/bench/engine-floor.js';
import { startDynamoLocal } from '../../../local/dynamodb.js';
import { createDocumentClient } from '../../../shared/adapters/dynamo/document-client.js';

const endpoint = inject('dynamoEndpoint');
const tableName = inject('tableName');
const region = process.env['AWS_REGION'] ?? 'us-east-1';

describe("the engine bench's floor", () => {
  it("replays captured calls as sent, conditions and all, each replay from the items' state before the run, at a DynamoDB Local of its own without a refusal, leaving the engine's table alone", async () => {
    // Prepare: two units of work, as two deliveries would send them, with the engine's kinds of conditions.
    const db = createDocumentClient({ region, endpoint });
    const units = new AsyncLocalStorage<object>();
    const capture = new RequestCapture(db, () => units.getStore());
    const pk = `FLOORTEST#${randomUUID()}`;
    capture.start();
    await units.run({}, async () => {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: { pk, sk: 'EXEC#1', status: 1, gsi3pk: pk, gsi3sk: '1' },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName,
                Key: { pk, sk: 'EXEC#1' },
                UpdateExpression: 'SET #s = :claimed',
                ConditionExpression: '#s = :queued',
                ExpressionAttributeNames: { '#s': 'status' },
                ExpressionAttributeValues: { ':claimed': 2, ':queued': 1 },
              },
            },
            {
              ConditionCheck: {
                TableName: tableName,
                Key: { pk, sk: 'CONTACT' },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: tableName,
                Item: { pk, sk: 'SENT#1', body: 'x'.repeat(2_000) },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      );
    });
    await units.run({}, async () => {
      await Promise.all([
        db.send(new GetCommand({ TableName: tableName, Key: { pk, sk: 'EXEC#1' } })),
        db.send(
          new BatchGetCommand({
            RequestItems: {
              [tableName]: {
                Keys: [
                  { pk, sk: 'SENT#1' },
                  { pk, sk: 'NONE' },
                ],
              },
            },
          }),
        ),
      ]);
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { pk, sk: 'COUNTER' },
          UpdateExpression: 'ADD #n :one',
          ExpressionAttributeNames: { '#n': 'sent' },
          ExpressionAttributeValues: { ':one': 1 },
        }),
      );
    });
    const calls = capture.stop();

    // Act
    const replayDb = await startDynamoLocal({ port: 0, tableName });
    let floor: Awaited<ReturnType<typeof measureEngineFloor>>;
    let replayed: Record<string, unknown> | undefined;
    try {
      floor = await measureEngineFloor(calls, {
        replayEndpoint: replayDb.endpoint,
        region,
        tableName,
        concurrencies: [1, 2],
        // Before the run the test's items did not exist; the contact a ConditionCheck names must not either.
        before: [],
      });
      const replayClient = createDocumentClient({ region, endpoint: replayDb.endpoint });
      replayed = (await replayClient.send(new GetCommand({ TableName: tableName, Key: { pk, sk: 'COUNTER' } }))).Item;
      replayClient.destroy();
    } finally {
      await replayDb.stop();
    }

    // Assess
    expect(calls.map((c) => c.command)).toEqual([
      'PutItemCommand',
      'TransactWriteItemsCommand',
      'GetItemCommand',
      'BatchGetItemCommand',
      'UpdateItemCommand',
    ]);
    expect(floor).toMatchObject({ requests: 5, units: 2, seededItems: 0 });
    expect(floor.runs.map((r) => [r.concurrency, r.failed])).toEqual([
      [1, 0],
      [2, 0],
    ]);
    expect(floor.best.ms).toBeGreaterThan(0);
    // Each replay started from the state before the run (no counter), so its conditions held and the last replay
    // left the counter at one, as the run did; the engine's table kept its one write.
    expect(replayed?.['sent']).toBe(1);
    const own = await db.send(new GetCommand({ TableName: tableName, Key: { pk, sk: 'COUNTER' } }));
    expect(own.Item?.['sent']).toBe(1);
    db.destroy();
  });
});
