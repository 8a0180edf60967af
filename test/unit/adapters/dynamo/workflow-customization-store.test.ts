import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoTemplateStore } from '../../../../shared/adapters/dynamo/template-store.js';
import { DynamoWorkflowCustomizationStore } from '../../../../shared/adapters/dynamo/workflow-customization-store.js';
import type { TemplateRecord } from '../../../../shared/domain/templates/template-store.js';
import type { CustomizationAuditRecord } from '../../../../shared/domain/workflows/customization.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
const TABLE = 'tbl';

const cancelled = (codes: string[]) =>
  new TransactionCanceledException({
    message: 'cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

const audit: CustomizationAuditRecord = {
  id: 'a1',
  workflow_id: 2,
  key_id: 9,
  auth_method: 'api_key',
  request_id: 'req-1',
  at: '2026-01-15T10:00:00.000Z',
  before: {
    template_id: null,
    delay_minutes: null,
    priority_score: null,
    preferred_send_hour: null,
    preferred_send_minute: null,
    send_time_mode: 1,
  },
  after: {
    template_id: 1001,
    delay_minutes: null,
    priority_score: null,
    preferred_send_hour: 8,
    preferred_send_minute: null,
    send_time_mode: 1,
  },
};

const copy: TemplateRecord = {
  id: 1001,
  client_id: 7,
  type: 2,
  name: 'Welcome (copy)',
  subject: 's',
  preview_text: '',
  html_body: 'h',
  text_body: '',
  source_template_id: 1,
  source_workflow_id: 1,
  created_at: '2026-01-15T10:00:00.000Z',
  updated_at: '2026-01-15T10:00:00.000Z',
};

beforeEach(() => dbMock.reset());

describe('DynamoWorkflowCustomizationStore.save', () => {
  it('writes the overrides, the audit record and the template check in one transaction', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).resolves({});
    const store = new DynamoWorkflowCustomizationStore(db, TABLE);
    // Act
    const outcome = await store.save({
      clientId: 7,
      workflowId: 2,
      overrides: { template_id: 1001, preferred_send_hour: 8 },
      expectedVersion: 3,
      audit,
      requireTemplateId: 1001,
      at: audit.at,
    });
    // Assess
    expect(outcome).toBe('saved');
    const items = dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items).toHaveLength(3);
    expect(items[0]!.Update).toMatchObject({
      Key: { pk: 'CLIENT#7', sk: 'WORKFLOW#0002' },
      ConditionExpression: '#v = :ev',
      ExpressionAttributeValues: { ':ev': 3, ':nv': 4, ':o0': 1001, ':o3': 8 },
    });
    // The fields not set are removed: every other override field, exit_events, conversion_window_days and topic_id included.
    expect(items[0]!.Update!.UpdateExpression).toMatch(/^SET .* REMOVE #o1, #o2, #o4, #o5, #o6, #o7, #o8$/);
    expect(items[1]!.Put).toMatchObject({
      Item: {
        pk: 'CLIENT#7',
        sk: 'WORKFLOW#0002#AUDIT#2026-01-15T10:00:00.000Z#a1',
        key_id: 9,
        before: audit.before,
        after: audit.after,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
    expect(items[2]!.ConditionCheck).toMatchObject({
      Key: { pk: 'CLIENT#7', sk: 'TEMPLATE#000000001001' },
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleted_at)',
    });
  });

  it.each([
    [['ConditionalCheckFailed', 'None', 'None'], 'version_conflict'],
    [['None', 'None', 'ConditionalCheckFailed'], 'template_missing'],
  ])('maps cancellation reasons %j to %s', async (codes, expected) => {
    dbMock.on(TransactWriteCommand).rejects(cancelled(codes));
    const store = new DynamoWorkflowCustomizationStore(db, TABLE);
    const outcome = await store.save({
      clientId: 7,
      workflowId: 2,
      overrides: {},
      expectedVersion: undefined,
      audit,
      requireTemplateId: 1001,
      at: audit.at,
    });
    expect(outcome).toBe(expected);
  });
});

describe('DynamoWorkflowCustomizationStore.createClone', () => {
  it('sets the marker only if absent, in the same transaction as the copy', async () => {
    dbMock.on(TransactWriteCommand).resolves({});
    const store = new DynamoWorkflowCustomizationStore(db, TABLE);
    expect(await store.createClone(7, 1, copy)).toEqual({ created: true });
    const items = dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items[0]!.Update).toMatchObject({
      Key: { pk: 'CLIENT#7', sk: 'WORKFLOW#0001' },
      ConditionExpression: 'attribute_not_exists(clone_template_id)',
      ExpressionAttributeValues: { ':t': 1001, ':w': 1 },
    });
    expect(items[1]!.Put).toMatchObject({
      Item: { pk: 'CLIENT#7', sk: 'TEMPLATE#000000001001', id: 1001 },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  });

  it('returns the existing copy named by the marker when it lost the race', async () => {
    dbMock.on(TransactWriteCommand).rejects(cancelled(['ConditionalCheckFailed', 'None']));
    dbMock
      .on(GetCommand)
      .resolves({ Item: { pk: 'CLIENT#7', sk: 'WORKFLOW#0001', workflow_id: 1, clone_template_id: 1000 } });
    const store = new DynamoWorkflowCustomizationStore(db, TABLE);
    expect(await store.createClone(7, 1, copy)).toEqual({ created: false, existingTemplateId: 1000 });
    expect(dbMock.commandCalls(GetCommand)[0]!.args[0].input).toMatchObject({ ConsistentRead: true });
  });
});

describe('DynamoTemplateStore.softDelete', () => {
  it("checks every workflow and releases the clone marker of the copy's own workflow", async () => {
    dbMock.on(TransactWriteCommand).resolves({});
    const store = new DynamoTemplateStore(db, TABLE);
    const outcome = await store.softDelete(copy, [1, 2, 3], '2026-01-16T00:00:00.000Z');
    expect(outcome).toEqual({
      kind: 'deleted',
      template: { ...copy, deleted_at: '2026-01-16T00:00:00.000Z', updated_at: '2026-01-16T00:00:00.000Z' },
    });
    const items = dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items.map((i) => Object.keys(i)[0])).toEqual(['Update', 'Update', 'ConditionCheck', 'ConditionCheck']);
    expect(items[1]!.Update).toMatchObject({
      Key: { sk: 'WORKFLOW#0001' },
      UpdateExpression: 'REMOVE clone_template_id',
    });
  });

  it.each([
    [['ConditionalCheckFailed', 'None', 'None', 'None'], { kind: 'missing' }],
    [['None', 'None', 'None', 'ConditionalCheckFailed'], { kind: 'in_use', workflowId: 3 }],
  ])('maps %j to %j', async (codes, expected) => {
    dbMock.on(TransactWriteCommand).rejects(cancelled(codes));
    const store = new DynamoTemplateStore(db, TABLE);
    expect(await store.softDelete(copy, [1, 2, 3], '2026-01-16T00:00:00.000Z')).toEqual(expected);
  });
});

describe('DynamoTemplateStore.softDelete with the journey index read', () => {
  it('adds, last, a check that the journey index is still at the version read', async () => {
    dbMock.on(TransactWriteCommand).resolves({});
    const store = new DynamoTemplateStore(db, TABLE);
    await store.softDelete(copy, [1], '2026-01-16T00:00:00.000Z', 4);
    const items = dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items.at(-1)).toEqual({
      ConditionCheck: {
        TableName: TABLE,
        Key: { pk: 'CLIENT#7', sk: 'JOURNEYINDEX' },
        ConditionExpression: '#v = :v',
        ExpressionAttributeNames: { '#v': 'version' },
        ExpressionAttributeValues: { ':v': 4 },
      },
    });
  });

  it('checks that no index exists when none was read, and maps its failure to journeys_changed', async () => {
    dbMock.on(TransactWriteCommand).rejects(cancelled(['None', 'None', 'ConditionalCheckFailed']));
    const store = new DynamoTemplateStore(db, TABLE);
    expect(await store.softDelete(copy, [1], '2026-01-16T00:00:00.000Z', 0)).toEqual({ kind: 'journeys_changed' });
    const items = dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items.at(-1)?.ConditionCheck?.ConditionExpression).toBe('attribute_not_exists(pk)');
  });
});
