import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoSessionStore } from '../../../../shared/adapters/dynamo/session-store.js';
import { DynamoUserStore } from '../../../../shared/adapters/dynamo/user-store.js';
import type { SessionRecord, SignInLinkRecord } from '../../../../shared/domain/auth/session-store.js';
import type { UserRecord } from '../../../../shared/domain/users/user-store.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
const TABLE = 'tbl';
const AT = '2026-01-15T10:00:00.000Z';

const user: UserRecord = {
  id: 5,
  client_id: 7,
  email: 'mia@acme.test',
  name: 'Mia',
  role: 3,
  created_at: AT,
  updated_at: AT,
  session_version: 2,
};
const USER_KEY = { pk: 'CLIENT#7', sk: 'USER#000000000005' };
const COUNT_KEY = { pk: 'CLIENT#7', sk: 'USERS' };
const cancelled = (codes: string[]) =>
  new TransactionCanceledException({
    message: 'cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
const transactions = () => dbMock.commandCalls(TransactWriteCommand).map((c) => c.args[0].input.TransactItems);

beforeEach(() => dbMock.reset());

describe('DynamoUserStore', () => {
  it('creates a user with its global e-mail lock and the count below max_users in one TransactWriteItems', async () => {
    dbMock.on(TransactWriteCommand).resolves({});
    expect(await new DynamoUserStore(db, TABLE).create(user, 10)).toBe('created');
    const [items] = transactions();
    expect(items).toEqual([
      { Put: { TableName: TABLE, Item: { ...USER_KEY, ...user }, ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Put: {
          TableName: TABLE,
          Item: { pk: expect.stringMatching(/^USEREMAIL#[0-9a-f]{64}$/), sk: 'USEREMAIL', client_id: 7, user_id: 5 },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: TABLE,
          Key: COUNT_KEY,
          UpdateExpression: 'ADD n :one',
          ConditionExpression: 'attribute_not_exists(n) OR n < :max',
          ExpressionAttributeValues: { ':one': 1, ':max': 10 },
        },
      },
    ]);
    // No address in any key.
    expect(JSON.stringify(items![1])).not.toContain('mia@');
  });

  it('makes a role 1 user the owner only where the client has none', async () => {
    dbMock.on(TransactWriteCommand).resolves({});
    await new DynamoUserStore(db, TABLE).create({ ...user, role: 1 }, 10);
    expect(transactions()[0]![2]).toEqual({
      Update: {
        TableName: TABLE,
        Key: COUNT_KEY,
        UpdateExpression: 'ADD n :one SET owner_id = :id',
        ConditionExpression: '(attribute_not_exists(n) OR n < :max) AND attribute_not_exists(owner_id)',
        ExpressionAttributeValues: { ':one': 1, ':max': 10, ':id': 5 },
      },
    });
  });

  it.each([
    [['None', 'ConditionalCheckFailed', 'None'], 'email_taken'],
    [['None', 'None', 'ConditionalCheckFailed'], 'limit'],
  ])('answers a cancellation %j as %s', async (codes, outcome) => {
    dbMock.on(TransactWriteCommand).rejects(cancelled(codes));
    expect(await new DynamoUserStore(db, TABLE).create(user, 10)).toBe(outcome);
  });

  it('removes the user (not the owner, as read), its lock, one from the count and each session with its index item', async () => {
    dbMock.on(QueryCommand).resolves({ Items: [] });
    dbMock
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'CLIENT#7', ':prefix': 'USERSESSION#000000000005#' } })
      .resolves({
        Items: [{ pk: 'CLIENT#7', sk: 'USERSESSION#000000000005#aa', session_hash: 'aa' }],
      });
    dbMock.on(TransactWriteCommand).resolves({});
    expect(await new DynamoUserStore(db, TABLE).remove(user, AT)).toEqual({ outcome: 'removed', disabledKeys: [] });
    expect(dbMock.commandCalls(QueryCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': 'CLIENT#7', ':prefix': 'USERSESSION#000000000005#' },
      ProjectionExpression: 'pk, sk, session_hash',
      ConsistentRead: true,
    });
    expect(transactions()[0]).toEqual([
      {
        Delete: {
          TableName: TABLE,
          Key: USER_KEY,
          ConditionExpression:
            'attribute_exists(pk) AND #role <> :owner AND session_version = :version AND attribute_not_exists(api_key_version)',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':owner': 1, ':version': 2 },
        },
      },
      { Delete: { TableName: TABLE, Key: { pk: expect.stringMatching(/^USEREMAIL#/), sk: 'USEREMAIL' } } },
      {
        Update: {
          TableName: TABLE,
          Key: COUNT_KEY,
          UpdateExpression: 'ADD n :minus',
          ExpressionAttributeValues: { ':minus': -1 },
        },
      },
      { Delete: { TableName: TABLE, Key: { pk: 'CLIENT#7', sk: 'USERSESSION#000000000005#aa' } } },
      { Delete: { TableName: TABLE, Key: { pk: 'SESSION#aa', sk: 'SESSION' } } },
    ]);
  });

  it('deletes the sessions beyond 45 first (BatchWriteItem), so the transaction stays within 100 items', async () => {
    const { BatchWriteCommand } = await import('@aws-sdk/lib-dynamodb');
    const sessions = Array.from({ length: 50 }, (_, i) => ({
      pk: 'CLIENT#7',
      sk: `USERSESSION#000000000005#s${i}`,
      session_hash: `s${i}`,
    }));
    dbMock.on(QueryCommand).resolves({ Items: [] });
    dbMock
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'CLIENT#7', ':prefix': 'USERSESSION#000000000005#' } })
      .resolves({ Items: sessions });
    dbMock.on(BatchWriteCommand).resolves({ UnprocessedItems: {} });
    dbMock.on(TransactWriteCommand).resolves({});
    expect((await new DynamoUserStore(db, TABLE).remove(user, AT)).outcome).toBe('removed');
    const batches = dbMock
      .commandCalls(BatchWriteCommand)
      .map((c) => c.args[0].input.RequestItems![TABLE]!.map((r) => r.DeleteRequest!.Key));
    // The 5 oldest index items and their sessions: 10 deletes, in one call of at most 25.
    expect(batches).toEqual([
      sessions.slice(0, 5).flatMap((s) => [
        { pk: s.pk, sk: s.sk },
        { pk: `SESSION#${s.session_hash}`, sk: 'SESSION' },
      ]),
    ]);
    const items = transactions()[0]!;
    expect(items).toHaveLength(3 + 45 * 2);
    expect(items.at(-1)).toEqual({ Delete: { TableName: TABLE, Key: { pk: 'SESSION#s49', sk: 'SESSION' } } });
  });

  it('disables the keys the user created or holds in the removal transaction: indexed ones with their index item, older ones from the listing', async () => {
    dbMock.on(QueryCommand).resolves({ Items: [] });
    dbMock
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'CLIENT#7', ':prefix': 'USERAPIKEY#000000000005#' } })
      .resolves({
        Items: [{ pk: 'CLIENT#7', sk: 'USERAPIKEY#000000000005#k1', key_hash: 'k1' }],
      });
    dbMock.on(QueryCommand, { IndexName: 'gsi1' }).resolves({
      Items: [
        { key_hash: 'k1', enabled: true, created_by: 5 },
        { key_hash: 'old', enabled: true, personal_for: 5 },
        { key_hash: 'off', enabled: false, created_by: 5 },
        { key_hash: 'other', enabled: true, created_by: 6 },
      ],
    });
    dbMock.on(TransactWriteCommand).resolves({});
    const done = await new DynamoUserStore(db, TABLE).remove({ ...user, role: 2, api_key_version: 3 }, AT);
    expect(done).toEqual({ outcome: 'removed', disabledKeys: ['k1', 'old'] });
    const items = transactions()[0]!;
    expect(items[0]!.Delete!.ConditionExpression).toBe(
      'attribute_exists(pk) AND #role <> :owner AND session_version = :version AND api_key_version = :keyVersion',
    );
    const disable = (hash: string) => ({
      Update: {
        TableName: TABLE,
        Key: { pk: `APIKEY#${hash}`, sk: 'APIKEY' },
        UpdateExpression: 'SET enabled = :f, disabled_reason = :reason, disabled_at = if_not_exists(disabled_at, :at)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':f': false, ':reason': 'holder_removed', ':at': AT },
      },
    });
    expect(items.slice(3)).toEqual([
      disable('k1'),
      { Delete: { TableName: TABLE, Key: { pk: 'CLIENT#7', sk: 'USERAPIKEY#000000000005#k1' } } },
      disable('old'),
    ]);
  });

  it('keeps a user with very many keys within 100 items: the keys beyond 48 are disabled first, in transactions of their own', async () => {
    const linked = Array.from({ length: 60 }, (_, i) => ({
      pk: 'CLIENT#7',
      sk: `USERAPIKEY#000000000005#k${i}`,
      key_hash: `k${i}`,
    }));
    dbMock.on(QueryCommand).resolves({ Items: [] });
    dbMock
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'CLIENT#7', ':prefix': 'USERAPIKEY#000000000005#' } })
      .resolves({ Items: linked });
    dbMock.on(TransactWriteCommand).resolves({});
    const done = await new DynamoUserStore(db, TABLE).remove(user, AT);
    expect(done.disabledKeys).toHaveLength(60);
    const [before, removal] = transactions();
    // 3 + 2 × 48 = 99 in the removal; the first 12 keys (24 items) just before it.
    expect(before).toHaveLength(24);
    expect(removal).toHaveLength(99);
    expect(removal![3]!.Update!.Key).toEqual({ pk: 'APIKEY#k12', sk: 'APIKEY' });
  });

  it('answers stale when the user changed since it was read, missing when it is gone', async () => {
    dbMock.on(QueryCommand).resolves({ Items: [] });
    dbMock.on(TransactWriteCommand).rejects(cancelled(['ConditionalCheckFailed', 'None', 'None']));
    dbMock
      .on(GetCommand)
      .resolvesOnce({ Item: { ...USER_KEY, ...user } })
      .resolves({});
    const store = new DynamoUserStore(db, TABLE);
    expect((await store.remove(user, AT)).outcome).toBe('stale');
    expect((await store.remove(user, AT)).outcome).toBe('missing');
  });
});

describe('DynamoSessionStore', () => {
  const link: SignInLinkRecord = {
    token_hash: 'tt',
    client_id: 7,
    user_id: 5,
    purpose: 'sign_in',
    created_at: AT,
    valid_until: '2026-01-15T10:15:00.000Z',
  };
  const session: SessionRecord = {
    session_hash: 'ss',
    client_id: 7,
    user_id: 5,
    email: 'mia@acme.test',
    role: 3,
    csrf_hash: 'cc',
    created_at: AT,
    last_seen_at: AT,
    idle_expires_at: '2026-01-15T22:00:00.000Z',
    absolute_expires_at: '2026-01-22T10:00:00.000Z',
  };

  it('starts a session in one transaction: the link deleted while it exists, session, index item, the user’s sign-in', async () => {
    dbMock.on(TransactWriteCommand).resolves({});
    expect(await new DynamoSessionStore(db, TABLE).startSession(link, user, session)).toBe('started');
    expect(transactions()[0]).toEqual([
      {
        Delete: {
          TableName: TABLE,
          Key: { pk: 'SIGNIN#tt', sk: 'SIGNIN' },
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      {
        Put: {
          TableName: TABLE,
          Item: {
            pk: 'SESSION#ss',
            sk: 'SESSION',
            ...session,
            expires_at: Date.parse('2026-01-15T22:00:00.000Z') / 1000,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: TABLE,
          Item: {
            pk: 'CLIENT#7',
            sk: 'USERSESSION#000000000005#ss',
            session_hash: 'ss',
            created_at: AT,
            expires_at: Date.parse('2026-01-22T10:00:00.000Z') / 1000,
          },
        },
      },
      {
        Update: {
          TableName: TABLE,
          Key: USER_KEY,
          UpdateExpression: 'SET last_sign_in_at = :at ADD session_version :one',
          ConditionExpression: 'attribute_exists(pk) AND session_version = :version',
          ExpressionAttributeValues: { ':at': AT, ':one': 1, ':version': 2 },
        },
      },
    ]);
  });

  it.each([
    [['ConditionalCheckFailed', 'None', 'None', 'None'], 'used'],
    [['None', 'None', 'None', 'ConditionalCheckFailed'], 'stale'],
  ])('answers a cancellation %j as %s', async (codes, outcome) => {
    dbMock.on(TransactWriteCommand).rejects(cancelled(codes));
    expect(await new DynamoSessionStore(db, TABLE).startSession(link, user, session)).toBe(outcome);
  });

  it('counts a sign-in request with one UpdateItem on its window, with a TTL', async () => {
    dbMock.on(UpdateCommand).resolves({ Attributes: { n: 3 } });
    expect(await new DynamoSessionStore(db, TABLE).countSignIn('ip', 'hh', 1_768_471_200, 1_768_473_000)).toBe(3);
    expect(dbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      Key: { pk: 'SIGNINRATE#ip#hh', sk: '1768471200' },
      UpdateExpression: 'ADD n :one SET expires_at = if_not_exists(expires_at, :ttl)',
      ExpressionAttributeValues: { ':one': 1, ':ttl': 1_768_473_000 },
      ReturnValues: 'UPDATED_NEW',
    });
  });
});

describe('API keys with labels', () => {
  const client = {
    id: 7,
    api_key_hash: 'cur',
    api_key_id: 1,
  } as import('../../../../shared/domain/clients/client-store.js').ClientRecord;
  const old = {
    key_hash: 'old',
    key_id: 4,
    client_id: 7,
    enabled: true,
    masked_key: 'els_…abcd',
    created_at: AT,
    label: 'CRM',
  };
  const next = { ...old, key_hash: 'new', key_id: 5 };

  it('rotates a key that is not the profile’s: disables it only while enabled and puts the next, in one transaction', async () => {
    const { DynamoApiKeyStore } = await import('../../../../shared/adapters/dynamo/api-key-store.js');
    dbMock.on(TransactWriteCommand).resolves({});
    expect(await new DynamoApiKeyStore(db, TABLE).replace(client, old, next, AT)).toBe('rotated');
    expect(transactions()[0]).toEqual([
      {
        Update: {
          TableName: TABLE,
          Key: { pk: 'APIKEY#old', sk: 'APIKEY' },
          UpdateExpression: 'SET enabled = :f, disabled_at = :at',
          ConditionExpression: 'enabled = :t',
          ExpressionAttributeValues: { ':f': false, ':at': AT, ':t': true },
        },
      },
      {
        Put: {
          TableName: TABLE,
          Item: { pk: 'APIKEY#new', sk: 'APIKEY', gsi1pk: 'CLIENT#7#APIKEY', gsi1sk: '000000000005', ...next },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]);
    dbMock.on(TransactWriteCommand).rejects(cancelled(['ConditionalCheckFailed', 'None']));
    expect(await new DynamoApiKeyStore(db, TABLE).replace(client, old, next, AT)).toBe('conflict');
  });

  it('creates a user’s key with its index item and a raise of the user’s api_key_version, only while the user may hold keys', async () => {
    const { DynamoApiKeyStore } = await import('../../../../shared/adapters/dynamo/api-key-store.js');
    const made = { ...next, label: 'CRM', created_by: 5 };
    dbMock.on(TransactWriteCommand).resolves({});
    expect(await new DynamoApiKeyStore(db, TABLE).create(made)).toBe('created');
    expect(transactions()[0]).toEqual([
      {
        Put: {
          TableName: TABLE,
          Item: { pk: 'APIKEY#new', sk: 'APIKEY', gsi1pk: 'CLIENT#7#APIKEY', gsi1sk: '000000000005', ...made },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: TABLE,
          Item: { pk: 'CLIENT#7', sk: 'USERAPIKEY#000000000005#new', key_hash: 'new', key_id: 5 },
        },
      },
      {
        Update: {
          TableName: TABLE,
          Key: USER_KEY,
          UpdateExpression: 'ADD api_key_version :one',
          ConditionExpression: 'attribute_exists(pk) AND #role IN (:owner, :admin)',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':one': 1, ':owner': 1, ':admin': 2 },
        },
      },
    ]);
    dbMock.on(TransactWriteCommand).rejects(cancelled(['None', 'None', 'ConditionalCheckFailed']));
    expect(await new DynamoApiKeyStore(db, TABLE).create(made)).toBe('holder_gone');
  });

  it('stamps last_used_at with one conditional UpdateItem, only where absent or an hour old', async () => {
    const { DynamoAuthReads } = await import('../../../../shared/adapters/dynamo/auth-reads.js');
    dbMock.on(UpdateCommand).resolves({});
    await new DynamoAuthReads(db, TABLE).markUsed('hh', AT, '2026-01-15T09:00:00.000Z');
    expect(dbMock.commandCalls(UpdateCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      Key: { pk: 'APIKEY#hh', sk: 'APIKEY' },
      UpdateExpression: 'SET last_used_at = :at',
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at < :stale)',
      ExpressionAttributeValues: { ':at': AT, ':stale': '2026-01-15T09:00:00.000Z' },
    });
  });
});
