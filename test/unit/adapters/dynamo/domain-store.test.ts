import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoDomainStore } from '../../../../shared/adapters/dynamo/domain-store.js';
import type { DomainRecord } from '../../../../shared/domain/domains/schemas.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
const TABLE = 'tbl';
const AT = '2026-11-28T10:00:00.000Z';
const NEXT = '2026-11-28T10:05:00.000Z';

const claim: DomainRecord = {
  id: 3,
  client_id: 7,
  domain: 'acme.example',
  status: 'awaiting_proof',
  challenge_token: 'tok',
  created_at: AT,
  updated_at: AT,
  mail_from_domain: 'bounce.acme.example',
  checks: 0,
  next_check_at: NEXT,
  version: 1,
};
const KEY = { pk: 'CLIENT#7', sk: 'DOMAIN#000000000003' };
const NAME_KEY = { pk: 'CLIENT#7', sk: 'DOMAINNAME#acme.example' };
const COUNT_KEY = { pk: 'CLIENT#7', sk: 'DOMAINS' };
const PROOF_KEY = { pk: 'DOMAINCLAIM#acme.example', sk: 'DOMAINCLAIM' };
const SENDER_KEY = { pk: 'CLIENT#7', sk: 'SENDER' };
const GSI3 = { gsi3pk: 'DOMAINCHECK', gsi3sk: `${NEXT}#7#000000000003` };

const cancelled = (codes: string[]) =>
  new TransactionCanceledException({
    message: 'cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
const store = () => new DynamoDomainStore(db, TABLE);
const transaction = (at = 0) => dbMock.commandCalls(TransactWriteCommand)[at]?.args[0].input;

beforeEach(() => dbMock.reset());

describe('DynamoDomainStore.create', () => {
  it('writes count, name lock, a check that nobody else proved the name, and the claim in one transaction', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).resolves({});

    // Act
    const outcome = await store().create(claim, 10);

    // Assess
    expect(outcome).toBe('created');
    expect(dbMock.calls()).toHaveLength(1);
    expect(transaction()).toEqual({
      TransactItems: [
        {
          Update: {
            TableName: TABLE,
            Key: COUNT_KEY,
            UpdateExpression: 'ADD n :one',
            ConditionExpression: 'attribute_not_exists(n) OR n < :max',
            ExpressionAttributeValues: { ':one': 1, ':max': 10 },
          },
        },
        {
          Put: {
            TableName: TABLE,
            Item: { ...NAME_KEY, domain_id: 3 },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          ConditionCheck: {
            TableName: TABLE,
            Key: PROOF_KEY,
            ConditionExpression: 'attribute_not_exists(pk) OR client_id = :me',
            ExpressionAttributeValues: { ':me': 7 },
          },
        },
        {
          Put: {
            TableName: TABLE,
            Item: { ...KEY, entity: 'domain', ...claim, ...GSI3 },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    });
  });

  it.each([
    [['None', 'ConditionalCheckFailed', 'ConditionalCheckFailed', 'None'], { refused: 'duplicate', domainId: 2 }],
    [['None', 'None', 'ConditionalCheckFailed', 'None'], { refused: 'claimed_elsewhere' }],
    [['ConditionalCheckFailed', 'None', 'None', 'None'], { refused: 'limit' }],
  ])('reads the cancellation %j as %j', async (codes, expected) => {
    // Prepare
    dbMock.on(TransactWriteCommand).rejects(cancelled(codes));
    dbMock.on(GetCommand, { Key: NAME_KEY }).resolves({ Item: { ...NAME_KEY, domain_id: 2 } });

    // Act
    const outcome = await store().create(claim, 10);

    // Assess
    expect(outcome).toEqual(expected);
  });
});

describe('DynamoDomainStore: checks', () => {
  const proven: DomainRecord = { ...claim, status: 'verifying', proven_at: AT, version: 2 };

  it('proves a claim: the proof lock (absent or the client’s) and the claim over its version, one transaction', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).resolves({});

    // Act
    const outcome = await store().prove(proven);

    // Assess
    expect(outcome).toBe('proven');
    expect(transaction()).toEqual({
      TransactItems: [
        {
          Put: {
            TableName: TABLE,
            Item: { ...PROOF_KEY, client_id: 7, domain_id: 3, domain: 'acme.example', proven_at: AT },
            ConditionExpression: 'attribute_not_exists(pk) OR client_id = :me',
            ExpressionAttributeValues: { ':me': 7 },
          },
        },
        {
          Put: {
            TableName: TABLE,
            Item: { ...KEY, entity: 'domain', ...proven, ...GSI3 },
            ConditionExpression: 'version = :read',
            ExpressionAttributeValues: { ':read': 1 },
          },
        },
      ],
    });
  });

  it.each([
    [['ConditionalCheckFailed', 'None'], 'claimed_elsewhere'],
    [['None', 'ConditionalCheckFailed'], 'stale'],
  ])('reads a proof cancelled by %j as %s', async (codes, expected) => {
    // Prepare
    dbMock.on(TransactWriteCommand).rejects(cancelled(codes));

    // Act
    const outcome = await store().prove(proven);

    // Assess
    expect(outcome).toBe(expected);
  });

  it('marks a claim verified and appends its domain to SENDER once, in one transaction; no gsi3 entry', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).resolves({});
    const { next_check_at: _, ...settled } = proven;
    const verified: DomainRecord = { ...settled, status: 'verified', verified_at: AT, version: 3 };

    // Act
    const outcome = await store().markVerified(verified);

    // Assess
    expect(outcome).toBe(true);
    expect(transaction()).toEqual({
      TransactItems: [
        {
          Put: {
            TableName: TABLE,
            Item: { ...KEY, entity: 'domain', ...verified },
            ConditionExpression: 'version = :read',
            ExpressionAttributeValues: { ':read': 2 },
          },
        },
        {
          Update: {
            TableName: TABLE,
            Key: SENDER_KEY,
            UpdateExpression:
              'SET entity = :entity, verified_domains = list_append(if_not_exists(verified_domains, :none), :domain)',
            ConditionExpression: 'attribute_not_exists(verified_domains) OR NOT contains(verified_domains, :name)',
            ExpressionAttributeValues: {
              ':entity': 'sender',
              ':none': [],
              ':domain': ['acme.example'],
              ':name': 'acme.example',
            },
          },
        },
      ],
    });
  });

  it('stores the claim alone when SENDER already lists the domain', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).rejects(cancelled(['None', 'ConditionalCheckFailed']));
    dbMock.on(PutCommand).resolves({});

    // Act
    const outcome = await store().markVerified({ ...proven, status: 'verified', version: 3 });

    // Assess
    expect(outcome).toBe(true);
    expect(dbMock.commandCalls(PutCommand)[0]?.args[0].input.ConditionExpression).toBe('version = :read');
  });

  it('fails an unproven claim and frees its name lock and count in one transaction', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).resolves({});
    const { next_check_at: _, ...settled } = claim;
    const failed: DomainRecord = {
      ...settled,
      status: 'failed',
      failure_reason: 'challenge_not_found',
      expires_at: 1_800_000_000,
      version: 2,
    };

    // Act
    await store().failUnproven(failed);

    // Assess
    expect(transaction()?.TransactItems).toEqual([
      {
        Put: {
          TableName: TABLE,
          Item: { ...KEY, entity: 'domain', ...failed },
          ConditionExpression: 'version = :read',
          ExpressionAttributeValues: { ':read': 1 },
        },
      },
      {
        Delete: {
          TableName: TABLE,
          Key: NAME_KEY,
          ConditionExpression: 'domain_id = :id',
          ExpressionAttributeValues: { ':id': 3 },
        },
      },
      {
        Update: {
          TableName: TABLE,
          Key: COUNT_KEY,
          UpdateExpression: 'ADD n :minus',
          ExpressionAttributeValues: { ':minus': -1 },
        },
      },
    ]);
  });

  it('pages the DOMAINCHECK view up to now', async () => {
    // Prepare
    dbMock.on(QueryCommand).resolves({ Items: [{ ...GSI3, pk: KEY.pk, sk: KEY.sk }] });

    // Act
    const page = await store().dueChecks('2026-11-28T10:05:00.000Z', 50);

    // Assess
    expect(page).toEqual({ due: [{ client_id: 7, domain_id: 3 }] });
    expect(dbMock.commandCalls(QueryCommand)[0]?.args[0].input).toEqual({
      TableName: TABLE,
      IndexName: 'gsi3',
      KeyConditionExpression: '#pk = :pk AND #sk < :bound',
      ExpressionAttributeNames: { '#pk': 'gsi3pk', '#sk': 'gsi3sk' },
      ExpressionAttributeValues: { ':pk': 'DOMAINCHECK', ':bound': '2026-11-28T10:05:00.000Z#~' },
      Limit: 50,
    });
  });
});

describe('DynamoDomainStore.delete', () => {
  it('removes a verified claim, its name lock, count, proof lock and its SENDER entry by position, in one transaction', async () => {
    // Prepare
    dbMock
      .on(GetCommand, { Key: SENDER_KEY })
      .resolves({ Item: { verified_domains: ['first.example', 'acme.example'] } });
    dbMock.on(TransactWriteCommand).resolves({});
    const verified: DomainRecord = { ...claim, status: 'verified', proven_at: AT, verified_at: AT, version: 4 };

    // Act
    const outcome = await store().delete(verified);

    // Assess
    expect(outcome).toBe(true);
    expect(transaction()?.TransactItems).toEqual([
      {
        Delete: {
          TableName: TABLE,
          Key: KEY,
          ConditionExpression: 'version = :version',
          ExpressionAttributeValues: { ':version': 4 },
        },
      },
      {
        Delete: {
          TableName: TABLE,
          Key: NAME_KEY,
          ConditionExpression: 'domain_id = :id',
          ExpressionAttributeValues: { ':id': 3 },
        },
      },
      {
        Update: {
          TableName: TABLE,
          Key: COUNT_KEY,
          UpdateExpression: 'ADD n :minus',
          ExpressionAttributeValues: { ':minus': -1 },
        },
      },
      {
        Delete: {
          TableName: TABLE,
          Key: PROOF_KEY,
          ConditionExpression: 'attribute_not_exists(pk) OR client_id = :me',
          ExpressionAttributeValues: { ':me': 7 },
        },
      },
      {
        Update: {
          TableName: TABLE,
          Key: SENDER_KEY,
          UpdateExpression: 'REMOVE verified_domains[1]',
          ConditionExpression: 'verified_domains[1] = :name',
          ExpressionAttributeValues: { ':name': 'acme.example' },
        },
      },
    ]);
  });

  it('removes only the item of a claim that failed unproven (it holds nothing else)', async () => {
    // Prepare
    dbMock.on(TransactWriteCommand).resolves({});

    // Act
    await store().delete({ ...claim, status: 'failed', failure_reason: 'claimed_elsewhere', version: 2 });

    // Assess
    expect(dbMock.commandCalls(GetCommand)).toHaveLength(0);
    expect(transaction()?.TransactItems).toHaveLength(1);
  });

  it('reads SENDER again when another write moved the list, then deletes', async () => {
    // Prepare
    dbMock
      .on(GetCommand, { Key: SENDER_KEY })
      .resolvesOnce({ Item: { verified_domains: ['acme.example'] } })
      .resolves({ Item: { verified_domains: ['other.example', 'acme.example'] } });
    dbMock
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled(['None', 'None', 'None', 'None', 'ConditionalCheckFailed']))
      .resolves({});

    // Act
    const outcome = await store().delete({ ...claim, status: 'verified', proven_at: AT, version: 4 });

    // Assess
    expect(outcome).toBe(true);
    expect(transaction(1)?.TransactItems?.[4]?.Update?.UpdateExpression).toBe('REMOVE verified_domains[1]');
  });
});
