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
  it("replays captured calls, conditions and all, at a DynamoDB Local of its own without a refusal, leaving the engine's table alone", async () => {
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
        endpoint,
        replayEndpoint: replayDb.endpoint,
        region,
        tableName,
        concurrencies: [1, 2],
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
    expect(floor).toMatchObject({ requests: 5, units: 2, seededItems: 3 });
    expect(floor.runs.map((r) => [r.concurrency, r.failed])).toEqual([
      [1, 0],
      [2, 0],
    ]);
    expect(floor.best.ms).toBeGreaterThan(0);
    // The warm-up and both runs added to the replay's counter; the engine's kept its one write.
    expect(replayed?.['sent']).toBe(4);
    const own = await db.send(new GetCommand({ TableName: tableName, Key: { pk, sk: 'COUNTER' } }));
    expect(own.Item?.['sent']).toBe(1);
    db.destroy();
  });
});
