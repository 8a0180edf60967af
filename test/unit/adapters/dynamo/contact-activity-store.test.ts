import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoContactActivityStore } from '../../../../shared/adapters/dynamo/contact-activity-store.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
const TABLE = 'tbl';
const T1 = '2026-01-15T10:00:01.000Z';
const T2 = '2026-01-15T10:00:02.000Z';
const MAIL = '00000000-0000-8000-8000-000000000001';

/** gsi2 answers keys only: the table key and the index key of each entry. */
const entry = (pk: string, gsi2sk: string) => ({ pk, sk: pk.split('#')[0], gsi2pk: 'CONTACT#7#42', gsi2sk });
const event = (id: number, at: string) => entry(`EVENT#7#${id}`, `EVENT#${at}#${String(id).padStart(16, '0')}`);
const execution = (id: number, at: string) => entry(`EXEC#7#${id}`, `EXEC#${at}#${String(id).padStart(16, '0')}`);
const sent = (id: string, at: string) => entry(`SENT#7#${id}`, `SENT#${at}#${id}`);

/** Answers each kind's Query with that kind's entries, newest first, as DynamoDB would (bounds applied). */
function history(items: ReturnType<typeof entry>[]) {
  dbMock.on(QueryCommand).callsFake((input: QueryCommandInput) => {
    const values = input.ExpressionAttributeValues as Record<string, string>;
    const from = values[':from']!;
    const to = values[':to'];
    const matching = items
      .filter((i) => i.gsi2sk.startsWith(from) && (to === undefined || i.gsi2sk <= to))
      .sort((a, b) => (a.gsi2sk < b.gsi2sk ? 1 : -1))
      .slice(0, input.Limit);
    return { Items: matching };
  });
}

const queryInput = (kind: string, limit: number, to?: string) => ({
  TableName: TABLE,
  IndexName: 'gsi2',
  KeyConditionExpression:
    to === undefined ? '#pk = :pk AND begins_with(#sk, :from)' : '#pk = :pk AND #sk BETWEEN :from AND :to',
  ExpressionAttributeNames: { '#pk': 'gsi2pk', '#sk': 'gsi2sk' },
  ExpressionAttributeValues: { ':pk': 'CONTACT#7#42', ':from': `${kind}#`, ...(to === undefined ? {} : { ':to': to }) },
  ScanIndexForward: false,
  Limit: limit,
});

beforeEach(() => dbMock.reset());

describe('DynamoContactActivityStore.entries', () => {
  it('reads each kind newest first from its own gsi2 range, limit + 1 keys, and merges them newest first', async () => {
    // Prepare
    history([event(1, T1), execution(2, T1), execution(3, T1), sent(MAIL, T2)]);
    const store = new DynamoContactActivityStore(db, TABLE);

    // Act
    const page = await store.entries(7, 42, { limit: 3 });

    // Assess
    expect(dbMock.commandCalls(QueryCommand).map((c) => c.args[0].input)).toEqual([
      queryInput('EVENT', 4),
      queryInput('EXEC', 4),
      queryInput('SENT', 4),
    ]);
    expect(dbMock.calls()).toHaveLength(3);
    expect(page).toEqual({
      entries: [
        { kind: 'sent_email', at: T2, id: MAIL },
        { kind: 'execution', at: T1, id: 3 },
        { kind: 'execution', at: T1, id: 2 },
      ],
      more: true,
    });
  });

  it('continues strictly below the cursor: through its instant for kinds below it, until it for kinds above, its own entry dropped', async () => {
    // Prepare
    history([event(1, T1), execution(2, T1), execution(3, T1), sent(MAIL, T1)]);
    const store = new DynamoContactActivityStore(db, TABLE);

    // Act
    const page = await store.entries(7, 42, { before: { kind: 'execution', at: T1, id: 3 }, limit: 2 });

    // Assess
    expect(dbMock.commandCalls(QueryCommand).map((c) => c.args[0].input)).toEqual([
      queryInput('EVENT', 3, `EVENT#${T1}$`),
      queryInput('EXEC', 4, `EXEC#${T1}#0000000000000003`),
      queryInput('SENT', 3, `SENT#${T1}`),
    ]);
    expect(page).toEqual({
      entries: [
        { kind: 'execution', at: T1, id: 2 },
        { kind: 'event', at: T1, id: 1 },
      ],
      more: false,
    });
  });
});

describe('DynamoContactActivityStore.records', () => {
  it('reads events and executions in one BatchGetItem and each sent e-mail with its logs in one Query, bodies left out', async () => {
    // Prepare
    dbMock.on(BatchGetCommand).resolves({
      Responses: {
        [TABLE]: [
          { pk: 'EVENT#7#1', sk: 'EVENT', id: 1, type: 'signup', ts: T1, created_at: T1 },
          { pk: 'EXEC#7#2', sk: 'EXEC', id: 2, workflow_id: 1, status: 3, created_at: T1 },
        ],
      },
    });
    dbMock.on(QueryCommand).resolves({
      Items: [
        { pk: `SENT#7#${MAIL}`, sk: `LOG#${T2}#a`, id: 'a', created_at: T2, status: 1 },
        { pk: `SENT#7#${MAIL}`, sk: 'SENT', id: MAIL, status: 2, subject: 'Hi', created_at: T2 },
      ],
    });
    const store = new DynamoContactActivityStore(db, TABLE);

    // Act
    const records = await store.records(7, [
      { kind: 'sent_email', at: T2, id: MAIL },
      { kind: 'execution', at: T1, id: 2 },
      { kind: 'event', at: T1, id: 1 },
    ]);

    // Assess
    const batch = dbMock.commandCalls(BatchGetCommand)[0]!.args[0].input.RequestItems![TABLE]!;
    expect(batch.Keys).toEqual([
      { pk: 'EVENT#7#1', sk: 'EVENT' },
      { pk: 'EXEC#7#2', sk: 'EXEC' },
    ]);
    expect(batch.ConsistentRead).toBe(false);
    expect(Object.values(batch.ExpressionAttributeNames!)).not.toContain('payload');
    expect(Object.values(batch.ExpressionAttributeNames!)).toEqual(
      expect.arrayContaining(['pk', 'sk', 'type', 'ts', 'workflow_id', 'reason']),
    );
    const query = dbMock.commandCalls(QueryCommand)[0]!.args[0].input;
    expect(query).toMatchObject({
      TableName: TABLE,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `SENT#7#${MAIL}` },
    });
    expect(query.IndexName).toBeUndefined();
    expect(Object.values(query.ExpressionAttributeNames!)).not.toContain('html_body');
    expect(Object.values(query.ExpressionAttributeNames!)).not.toContain('text_body');
    expect(dbMock.calls()).toHaveLength(2);
    expect(records).toEqual({
      events: new Map([[1, { id: 1, type: 'signup', ts: T1, created_at: T1 }]]),
      executions: new Map([[2, { id: 2, workflow_id: 1, status: 3, created_at: T1 }]]),
      sentEmails: new Map([
        [
          MAIL,
          {
            email: { id: MAIL, status: 2, subject: 'Hi', created_at: T2 },
            logs: [{ id: 'a', created_at: T2, status: 1 }],
          },
        ],
      ]),
    });
  });

  it('sends nothing for an empty page', async () => {
    // Act
    const records = await new DynamoContactActivityStore(db, TABLE).records(7, []);

    // Assess
    expect(dbMock.calls()).toHaveLength(0);
    expect(records).toEqual({ events: new Map(), executions: new Map(), sentEmails: new Map() });
  });
});
