import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { keys } from '../../../shared/adapters/dynamo/keys.js';
import { tableOf } from '../../../shared/composition/providers/table.js';
import { createClient, ENGINE_ADAPTERS } from '../contracts/engine-support.js';
import { freshClientId } from '../contracts/support.js';
import { runAdmin } from '../support/admin-cli.js';
import { engineContainer } from '../support/engine-components.js';

const stores = ENGINE_ADAPTERS.find(([name]) => name === 'dynamodb')![1];
const store = () => ({ AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'), TABLE_NAME: inject('tableName') });
const DAY = '2026-01-15';
const WORKFLOW_SK = `${DAY}#W0003`;
const EVENT_SK = `${DAY}#E#signup`;

describe('npm run admin -- fold-stats (the shared runtime’s DynamoDB Local)', { timeout: 60_000 }, () => {
  it('folds rows of shards 1..15 into shard 0, adding every count once however often it runs', async () => {
    // Prepare: a client whose facts were spread over shards before the projection: rows on 0, 5 and 9.
    const clientId = freshClientId();
    await createClient(stores(), clientId);
    const { db, tableName } = tableOf(engineContainer({}));
    const row = (shard: number, sk: string, fields: Record<string, unknown>) => ({
      PutRequest: { Item: { pk: keys.statsPk(clientId, shard), sk, day: DAY, expires_at: 1_900_000_000, ...fields } },
    });
    await db.send(
      new BatchWriteCommand({
        RequestItems: {
          [tableName]: [
            row(0, WORKFLOW_SK, { workflow_id: 3, sent: 1 }),
            row(5, WORKFLOW_SK, { workflow_id: 3, sent: 2, skipped: 1, 'skip:frequency_cap': 1, 'event:signup': 1 }),
            row(9, WORKFLOW_SK, { workflow_id: 3, sent: 4 }),
            row(9, EVENT_SK, { event_type: 'signup', received: 3 }),
          ],
        },
      }),
    );

    // Act
    const first = await runAdmin(['fold-stats', '--client', String(clientId)], store());
    const second = await runAdmin(['fold-stats', '--client', String(clientId)], store());

    // Assess
    expect(first.code).toBe(0);
    expect(first.lines).toEqual([{ client_id: clientId, folded: 3, already_folded: 0 }]);
    expect(second.lines).toEqual([{ client_id: clientId, folded: 0, already_folded: 0 }]);
    const get = async (shard: number, sk: string) =>
      (await db.send(new GetCommand({ TableName: tableName, Key: { pk: keys.statsPk(clientId, shard), sk } }))).Item;
    expect(await get(0, WORKFLOW_SK)).toMatchObject({
      workflow_id: 3,
      day: DAY,
      sent: 7,
      skipped: 1,
      'skip:frequency_cap': 1,
      'event:signup': 1,
    });
    expect(await get(0, EVENT_SK)).toMatchObject({ event_type: 'signup', day: DAY, received: 3 });
    expect(await get(5, WORKFLOW_SK)).toBeUndefined();
    expect(await get(9, EVENT_SK)).toBeUndefined();
  });
});
