import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { ConfigCache } from '../../../../shared/adapters/dynamo/config-cache.js';
import { DynamoDeliveryStore } from '../../../../shared/adapters/dynamo/delivery-store.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
const TABLE = 'tbl';
const AT = '2026-01-15T10:00:00.000Z';

beforeEach(() => dbMock.reset());

describe("DynamoDeliveryStore: the client's sender state and sandbox recipients", () => {
  it("lists a sandboxed client's users with one Query of its USER# items, addresses only", async () => {
    // Prepare
    dbMock.on(QueryCommand).resolves({ Items: [{ email: 'owner@acme.example' }, { email: 'admin@acme.example' }] });
    const store = new DynamoDeliveryStore(db, TABLE);

    // Act
    const recipients = await store.sandboxRecipients(7);

    // Assess
    expect(recipients).toEqual(['owner@acme.example', 'admin@acme.example']);
    expect(dbMock.calls()).toHaveLength(1);
    expect(dbMock.commandCalls(QueryCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': 'CLIENT#7', ':prefix': 'USER#' },
      ProjectionExpression: 'email',
      ExclusiveStartKey: undefined,
    });
  });

  it('records a pause with one conditional UpdateItem on SENDER, keeping its first sighting, and forgets the cached configuration', async () => {
    // Prepare
    dbMock.on(UpdateCommand).resolves({});
    const cache = new ConfigCache(30_000);
    cache.remember([{ pk: 'CLIENT#7', sk: 'SENDER' }], [{ pk: 'CLIENT#7', sk: 'SENDER' }], 0);
    const store = new DynamoDeliveryStore(db, TABLE, cache);

    // Act
    await store.markTenantPaused(7, 'Sending paused', AT);

    // Assess
    expect(dbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      Key: { pk: 'CLIENT#7', sk: 'SENDER' },
      UpdateExpression:
        'SET tenant_paused_at = if_not_exists(tenant_paused_at, :at), tenant_paused_reason = :reason, tenant_checked_at = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': AT, ':reason': 'Sending paused' },
    });
    expect(cache.take([{ pk: 'CLIENT#7', sk: 'SENDER' }]).missing).toHaveLength(1);
  });

  it('clears only the pause it read; a failed condition (another pause, no item) is no error', async () => {
    // Prepare
    dbMock
      .on(UpdateCommand)
      .rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }));
    const store = new DynamoDeliveryStore(db, TABLE);

    // Act
    await store.clearTenantPause(7, AT);

    // Assess
    expect(dbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      Key: { pk: 'CLIENT#7', sk: 'SENDER' },
      UpdateExpression: 'REMOVE tenant_paused_at, tenant_paused_reason, tenant_checked_at',
      ConditionExpression: 'tenant_paused_at = :seen',
      ExpressionAttributeValues: { ':seen': AT },
    });
  });

  it("reads SENDER in the send's one BatchGetItem with the settings and profile", async () => {
    // Prepare
    dbMock.on(BatchGetCommand).resolves({
      Responses: { [TABLE]: [{ pk: 'CLIENT#7', sk: 'SENDER', entity: 'sender', verified_domains: ['acme.example'] }] },
    });
    const store = new DynamoDeliveryStore(db, TABLE);
    const execution = {
      id: 1,
      client_id: 7,
      workflow_id: 1,
      contact_id: 9,
      template_id: 1,
      cap_day: '2026-01-15',
    } as Parameters<DynamoDeliveryStore['load']>[0];

    // Act
    const context = await store.load(execution);

    // Assess
    expect(dbMock.commandCalls(BatchGetCommand)).toHaveLength(1);
    const keys = dbMock.commandCalls(BatchGetCommand)[0]!.args[0].input.RequestItems![TABLE]!.Keys;
    expect(keys).toContainEqual({ pk: 'CLIENT#7', sk: 'SENDER' });
    expect(context.sender).toEqual({ verified_domains: ['acme.example'] });
  });
});
