import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoExecutionStore } from '../../../../shared/adapters/dynamo/execution-store.js';
import { DynamoTemplateStore } from '../../../../shared/adapters/dynamo/template-store.js';
import { DynamoWorkflowCustomizationStore } from '../../../../shared/adapters/dynamo/workflow-customization-store.js';

/**
 * The three lists read a page's worth (issue: the template list read every template with its bodies for one page,
 * the executions list up to (page × per_page + 1 000) × 8 items, the audit trail whole): the exact Query each sends.
 */
const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
const TABLE = 'tbl';
const queries = () => dbMock.commandCalls(QueryCommand).map((c) => c.args[0].input);

beforeEach(() => dbMock.reset());

describe('bounded list reads', () => {
  it('templates: one Query of limit + 1 items after the position, projecting the list fields (no bodies)', async () => {
    // Prepare
    dbMock.on(QueryCommand).resolves({
      Items: [
        { id: 1001, name: 'A' },
        { id: 1002, name: 'B' },
        { id: 1003, name: 'C' },
      ],
      LastEvaluatedKey: { pk: 'x', sk: 'y' },
    });

    // Act
    const page = await new DynamoTemplateStore(db, TABLE).listSummaries(7, { limit: 2, afterId: 1000 });

    // Assess
    expect(page).toEqual({
      templates: [
        { id: 1001, name: 'A' },
        { id: 1002, name: 'B' },
      ],
      more: true,
    });
    const [input, ...others] = queries();
    expect(others).toEqual([]);
    expect(input).toMatchObject({
      TableName: TABLE,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': 'CLIENT#7',
        ':from': expect.stringMatching(/^TEMPLATE#0*1001$/),
        ':to': 'TEMPLATE#\uffff',
      },
      Limit: 3,
    });
    const projected = (input!.ProjectionExpression ?? '')
      .split(', ')
      .map((name) => input!.ExpressionAttributeNames![name]);
    expect(projected).toContain('subject');
    expect(projected).not.toContain('html_body');
    expect(projected).not.toContain('text_body');
  });

  it('audit trail: one Query of limit + 1 records, newest first, from the position', async () => {
    dbMock.on(QueryCommand).resolves({ Items: [] });

    await new DynamoWorkflowCustomizationStore(db, TABLE).listAudit(7, 4, {
      limit: 20,
      after: { at: '2026-01-01T00:00:00.000Z', id: 'a1' },
    });

    expect(queries()).toEqual([
      {
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': 'CLIENT#7', ':prefix': 'WORKFLOW#0004#AUDIT#' },
        ScanIndexForward: false,
        ExclusiveStartKey: { pk: 'CLIENT#7', sk: 'WORKFLOW#0004#AUDIT#2026-01-01T00:00:00.000Z#a1' },
        Limit: 21,
      },
    ]);
  });

  it('executions after a cursor position: one Query of per_page + 2 per listing shard, below the position', async () => {
    dbMock.on(QueryCommand).resolves({ Items: [] });
    const after = '2026-01-01T00:00:00.000Z#0000000000000042';

    const page = await new DynamoExecutionStore(db, TABLE).list(7, { page: 51, perPage: 20, after, status: 4 });

    expect(page).toEqual({ executions: [], total: 1000, totalExact: true });
    expect(queries()).toHaveLength(8);
    expect(
      queries().map((q) => [
        q.ExpressionAttributeValues?.[':pk'],
        q.Limit,
        q.KeyConditionExpression,
        q.ExpressionAttributeValues?.[':to'],
      ]),
    ).toEqual(
      Array.from({ length: 8 }, (_, shard) => [`CLIENT#7#EXEC#${shard}`, 22, 'gsi1pk = :pk AND gsi1sk < :to', after]),
    );
  });

  it('executions by page number: at most page × per_page + 100 items per shard', async () => {
    dbMock.on(QueryCommand).resolves({ Items: [] });

    await new DynamoExecutionStore(db, TABLE).list(7, { page: 50, perPage: 20 });

    expect(queries().map((q) => q.Limit)).toEqual(Array(8).fill(1100));
  });

  it('executions after a position: cuts the page at the highest shard stop, and continues from there', async () => {
    // Shard 0 stopped at 05 (more behind it); the others ran out. 03 is older than the frontier: not yet complete.
    const item = (t: string) => ({ gsi1sk: `2026-01-01T00:00:${t}.000Z#1`, pk: 'p', sk: 's', id: Number(t) });
    dbMock
      .on(QueryCommand)
      .resolves({ Items: [] })
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'CLIENT#7#EXEC#0', ':to': 'z' } })
      .resolves({ Items: [item('09'), item('05')], LastEvaluatedKey: { gsi1sk: item('05').gsi1sk } })
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'CLIENT#7#EXEC#1', ':to': 'z' } })
      .resolves({ Items: [item('07'), item('03')] });

    const page = await new DynamoExecutionStore(db, TABLE).list(7, { page: 2, perPage: 5, after: 'z' });

    expect(page.executions.map((e) => e.id)).toEqual([9, 7, 5]);
    expect(page).toMatchObject({ total: 8, totalExact: false, next: item('05').gsi1sk });
  });
});
