import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  DynamoDBDocumentClient,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { ConfigCache } from '../../../../shared/adapters/dynamo/config-cache.js';
import { DynamoWebhookOutbox } from '../../../../shared/adapters/dynamo/webhook-outbox.js';
import { MemoryWebhookStore } from '../../../../shared/adapters/memory/webhook-store.js';
import type { WebhookAttemptRecord } from '../../../../shared/domain/webhooks/webhook-outbox.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
const TABLE = 'tbl';
const AT = '2026-01-15T10:00:00.000Z';
const EXPIRES = Date.parse(AT) / 1000 + 30 * 86_400;

const attempt: WebhookAttemptRecord = {
  id: 'att_00mkf0c1sdeadbeef',
  client_id: 7,
  webhook_id: 3,
  message_id: 'msg_0123456789abcdef0123456789abcdef',
  event_type: 'email.sent',
  attempt: 2,
  replay: false,
  attempted_at: AT,
  succeeded: false,
  status_code: 503,
  duration_ms: 12,
  response_body: 'busy',
  error: null,
  next_attempt_at: '2026-01-15T10:05:00.000Z',
};

let webhooks: MemoryWebhookStore;
beforeEach(() => {
  dbMock.reset();
  webhooks = new MemoryWebhookStore();
});

describe('DynamoWebhookOutbox', () => {
  it('logs an attempt with one PutItem and no endpoint write while its health does not change', async () => {
    dbMock.on(PutCommand).resolves({});
    const outbox = new DynamoWebhookOutbox(db, TABLE, webhooks);

    expect(await outbox.recordAttempt(attempt, { kind: 'none' })).toEqual({ disabled: false });

    expect(dbMock.calls()).toHaveLength(1);
    expect(dbMock.commandCalls(PutCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      // Its message's gsi2 entry: a contact's erasure finds the attempts of its messages by it.
      Item: {
        pk: 'WHATT#7#3',
        sk: attempt.id,
        gsi2pk: `WHMSG#7#${attempt.message_id}`,
        gsi2sk: `WHATT#000000000003#${attempt.id}`,
        ...attempt,
        expires_at: EXPIRES,
      },
    });
  });

  it('disables the endpoint only if it is still enabled and failing since the same instant, owing its client the e-mail', async () => {
    dbMock.on(PutCommand).resolves({});
    dbMock
      .on(UpdateCommand)
      .resolvesOnce({})
      .rejectsOnce(new ConditionalCheckFailedException({ message: 'no', $metadata: {} }));
    const outbox = new DynamoWebhookOutbox(db, TABLE, webhooks);
    const change = { kind: 'disable' as const, since: '2026-01-10T10:00:00.000Z', at: AT };

    const first = await outbox.recordAttempt(attempt, change);
    const second = await outbox.recordAttempt(attempt, change);

    expect([first, second]).toEqual([{ disabled: true }, { disabled: false }]);
    expect(dbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      Key: { pk: 'CLIENT#7', sk: 'WEBHOOK#000000000003' },
      UpdateExpression:
        'SET enabled = :false, disabled_reason = :reason, disabled_notice_pending = :true, updated_at = :at',
      ConditionExpression: 'enabled = :true AND failing_since = :since',
      ExpressionAttributeValues: {
        ':false': false,
        ':true': true,
        ':reason': 'failing',
        ':at': AT,
        ':since': change.since,
      },
    });
  });

  it('clears the owed e-mail with one UpdateItem, and a deleted endpoint owes nothing', async () => {
    dbMock
      .on(UpdateCommand)
      .resolvesOnce({})
      .rejectsOnce(new ConditionalCheckFailedException({ message: 'no', $metadata: {} }));
    const outbox = new DynamoWebhookOutbox(db, TABLE, webhooks);

    await outbox.disabledNoticeSent(7, 3);
    await outbox.disabledNoticeSent(7, 3);

    expect(dbMock.commandCalls(UpdateCommand)).toHaveLength(2);
    expect(dbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      Key: { pk: 'CLIENT#7', sk: 'WEBHOOK#000000000003' },
      UpdateExpression: 'REMOVE disabled_notice_pending',
      ConditionExpression: 'attribute_exists(pk)',
    });
  });

  it('reads a page of attempts newest first with one Query, asking one more to know whether there are more', async () => {
    dbMock.on(QueryCommand).resolves({ Items: [{ pk: 'WHATT#7#3', sk: attempt.id, ...attempt, expires_at: EXPIRES }] });
    const outbox = new DynamoWebhookOutbox(db, TABLE, webhooks);

    const page = await outbox.attempts(7, 3, { limit: 1, before: 'att_00mkf0c1zffffffff' });

    expect(page).toEqual({ attempts: [attempt], more: false });
    expect(dbMock.commandCalls(QueryCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      KeyConditionExpression: 'pk = :pk AND sk < :before',
      ExpressionAttributeValues: { ':pk': 'WHATT#7#3', ':before': 'att_00mkf0c1zffffffff' },
      ScanIndexForward: false,
      Limit: 2,
    });
  });

  it('stores messages with BatchWriteItem, 25 a call, kept 30 days', async () => {
    dbMock.on(BatchWriteCommand).resolves({});
    const outbox = new DynamoWebhookOutbox(db, TABLE, webhooks);
    const messages = Array.from({ length: 26 }, (_, i) => ({
      id: `msg_${String(i).padStart(32, '0')}`,
      client_id: 7,
      type: 'email.sent' as const,
      created_at: AT,
      payload: '{}',
    }));

    await outbox.putMessages(messages);

    const calls = dbMock.commandCalls(BatchWriteCommand).map((c) => c.args[0].input.RequestItems![TABLE]!);
    expect(calls.map((c) => c.length)).toEqual([25, 1]);
    expect(calls[1]![0]).toEqual({
      PutRequest: { Item: { pk: `WHMSG#7#${messages[25]!.id}`, sk: 'WHMSG', ...messages[25], expires_at: EXPIRES } },
    });
  });

  it("puts a message about a contact in the contact's history (gsi2), where its erasure finds it: no request added", async () => {
    dbMock.on(BatchWriteCommand).resolves({});
    const outbox = new DynamoWebhookOutbox(db, TABLE, webhooks);
    const message = {
      id: `msg_${'1'.repeat(32)}`,
      client_id: 7,
      type: 'contact.unsubscribed' as const,
      created_at: AT,
      payload: '{}',
      contact_id: 42,
    };

    await outbox.putMessages([message]);

    expect(dbMock.commandCalls(BatchWriteCommand).map((c) => c.args[0].input.RequestItems![TABLE]!)).toEqual([
      [
        {
          PutRequest: {
            Item: {
              pk: `WHMSG#7#${message.id}`,
              sk: 'WHMSG',
              gsi2pk: 'CONTACT#7#42',
              gsi2sk: `WHMSG#${AT}#${message.id}`,
              ...message,
              expires_at: EXPIRES,
            },
          },
        },
      ],
    ]);
  });

  it("keeps a client's endpoint list in the config cache until a write of the client forgets it", async () => {
    const cache = new ConfigCache(30_000);
    let reads = 0;
    const counting = Object.assign(Object.create(webhooks) as MemoryWebhookStore, {
      list: async (clientId: number) => {
        reads += 1;
        return webhooks.list(clientId);
      },
    });
    const outbox = new DynamoWebhookOutbox(db, TABLE, counting, cache);

    await outbox.endpointsOf(7);
    await outbox.endpointsOf(7);
    cache.forget('CLIENT#7');
    await outbox.endpointsOf(7);

    expect(reads).toBe(2);
  });
});
