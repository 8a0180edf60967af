import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { ClaimRefusal, DomainStore, DueCheck } from '../../domain/domains/domain-store.js';
import type { ClientSending } from '../../domain/domains/sender-identities.js';
import { DomainRecord } from '../../domain/domains/schemas.js';
import { batchGetItems } from './batch-get.js';
import { ENTITY, clientPk, keys } from './keys.js';
import { queryAll } from './query-all.js';
import { senderSendingUpdate } from './sender-item.js';
import { TABLE_KEYS } from './table-definition.js';
import { sendTransaction } from './transactions.js';

type TransactItem = NonNullable<TransactWriteCommand['input']['TransactItems']>[number];

/** The positions of a cancelled transaction's items whose condition failed; empty for any other error. */
const failedConditions = (error: unknown): number[] =>
  error instanceof TransactionCanceledException
    ? (error.CancellationReasons ?? []).flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []))
    : [];

/** Whether a claim is still being checked, and so sits in the poller's view (gsi3). */
const isChecking = (r: DomainRecord): boolean =>
  (r.status === 'awaiting_proof' || r.status === 'verifying') && r.next_check_at !== undefined;

/** A claim that failed before proof: it holds neither its name lock nor a place in the count. */
const heldNothing = (r: DomainRecord): boolean => r.status === 'failed' && r.proven_at === undefined;

/** A SENDER write that goes with a domain write (verify, delete) lost to a concurrent one: read it again. */
const SENDER_ATTEMPTS = 4;

/**
 * Sending domains in the table (keys.ts: domain, domain name lock, domain count, domain proof, sender state). A claim
 * is written whole (a Put with its version as condition), so its gsi3 entry (the poller's view) is present exactly
 * while it is being checked and moves with its next check.
 */
export class DynamoDomainStore implements DomainStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(clientId: number, domainId: number): Promise<DomainRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.domain(clientId, domainId), ConsistentRead: true }),
    );
    return out.Item ? DomainRecord.parse(out.Item) : undefined;
  }

  async getMany(named: readonly DueCheck[]): Promise<DomainRecord[]> {
    if (named.length === 0) return [];
    const items = await batchGetItems(
      this.db,
      this.tableName,
      named.map((d) => keys.domain(d.client_id, d.domain_id)),
    );
    return items.map((item) => DomainRecord.parse(item));
  }

  async list(clientId: number): Promise<DomainRecord[]> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': clientPk(clientId), ':prefix': keys.domainSkPrefix },
      ConsistentRead: true,
    });
    return items.map((item) => DomainRecord.parse(item));
  }

  async proofHolder(domain: string): Promise<number | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.domainClaim(domain), ConsistentRead: true }),
    );
    return typeof out.Item?.client_id === 'number' ? out.Item.client_id : undefined;
  }

  async create(record: DomainRecord, max: number): Promise<'created' | ClaimRefusal> {
    const command = new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: this.tableName,
            Key: keys.domainCount(record.client_id),
            UpdateExpression: 'ADD n :one',
            ConditionExpression: 'attribute_not_exists(n) OR n < :max',
            ExpressionAttributeValues: { ':one': 1, ':max': max },
          },
        },
        {
          Put: {
            TableName: this.tableName,
            Item: { ...keys.domainName(record.client_id, record.domain), domain_id: record.id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        // A name another client proved is refused at once; an unproven claim elsewhere blocks nobody.
        this.notProvenElsewhere(record),
        {
          Put: {
            TableName: this.tableName,
            Item: this.itemOf(record),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    });
    try {
      await sendTransaction(this.db, command);
      return 'created';
    } catch (error) {
      const failed = failedConditions(error);
      if (failed.includes(1)) return { refused: 'duplicate', domainId: await this.claimedId(record) };
      if (failed.includes(2)) return { refused: 'claimed_elsewhere' };
      if (failed.includes(0)) return { refused: 'limit' };
      throw error;
    }
  }

  async save(record: DomainRecord): Promise<boolean> {
    try {
      await this.db.send(new PutCommand(this.versionedPut(record)));
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async failUnproven(record: DomainRecord): Promise<boolean> {
    return this.transact([{ Put: this.versionedPut(record) }, ...this.releaseName(record)]).then((f) => f === 'done');
  }

  async prove(record: DomainRecord): Promise<'proven' | 'claimed_elsewhere' | 'stale'> {
    const outcome = await this.transact([
      {
        Put: {
          TableName: this.tableName,
          Item: {
            ...keys.domainClaim(record.domain),
            client_id: record.client_id,
            domain_id: record.id,
            domain: record.domain,
            proven_at: record.proven_at,
          },
          ConditionExpression: 'attribute_not_exists(pk) OR client_id = :me',
          ExpressionAttributeValues: { ':me': record.client_id },
        },
      },
      { Put: this.versionedPut(record) },
    ]);
    if (outcome === 'done') return 'proven';
    return outcome.includes(1) ? 'stale' : 'claimed_elsewhere';
  }

  async saveIdentity(record: DomainRecord, sending: ClientSending): Promise<boolean> {
    const outcome = await this.transact([
      { Put: this.versionedPut(record) },
      { Update: senderSendingUpdate(this.tableName, record.client_id, sending) },
    ]);
    return outcome === 'done';
  }

  async markVerified(record: DomainRecord): Promise<boolean> {
    // verified_domains is a list, in the order the domains were verified (the first is the default From's); the
    // condition keeps a name in it once.
    const outcome = await this.transact([
      { Put: this.versionedPut(record) },
      {
        Update: {
          TableName: this.tableName,
          Key: keys.sender(record.client_id),
          UpdateExpression:
            'SET entity = :entity, verified_domains = list_append(if_not_exists(verified_domains, :none), :domain)',
          ConditionExpression: 'attribute_not_exists(verified_domains) OR NOT contains(verified_domains, :name)',
          ExpressionAttributeValues: {
            ':entity': ENTITY.sender,
            ':none': [],
            ':domain': [record.domain],
            ':name': record.domain,
          },
        },
      },
    ]);
    if (outcome === 'done') return true;
    if (outcome.includes(0)) return false;
    // Already listed (a verify made again after a lost answer): the claim alone.
    return this.save(record);
  }

  async delete(record: DomainRecord): Promise<boolean> {
    const base: TransactItem[] = [
      {
        Delete: {
          TableName: this.tableName,
          Key: keys.domain(record.client_id, record.id),
          ConditionExpression: 'version = :version',
          ExpressionAttributeValues: { ':version': record.version },
        },
      },
      ...(heldNothing(record) ? [] : this.releaseName(record)),
      ...(record.proven_at === undefined
        ? []
        : [
            {
              Delete: {
                TableName: this.tableName,
                Key: keys.domainClaim(record.domain),
                ConditionExpression: 'attribute_not_exists(pk) OR client_id = :me',
                ExpressionAttributeValues: { ':me': record.client_id },
              },
            },
          ]),
    ];
    for (let attempt = 1; ; attempt += 1) {
      // A list element is removed by its position: read where the name stands, and remove it only if still there.
      const listed = record.status === 'verified' ? await this.verifiedDomains(record.client_id) : [];
      const at = listed.indexOf(record.domain);
      const unlist: TransactItem[] =
        at < 0
          ? []
          : [
              {
                Update: {
                  TableName: this.tableName,
                  Key: keys.sender(record.client_id),
                  UpdateExpression: `REMOVE verified_domains[${at}]`,
                  ConditionExpression: `verified_domains[${at}] = :name`,
                  ExpressionAttributeValues: { ':name': record.domain },
                },
              },
            ];
      const outcome = await this.transact([...base, ...unlist]);
      if (outcome === 'done') return true;
      if (outcome.includes(0)) return false;
      if (!outcome.includes(base.length) || attempt >= SENDER_ATTEMPTS) {
        throw new Error(`domain ${record.id}: the delete's conditions failed at ${outcome.join(', ')}`);
      }
    }
  }

  async dueChecks(now: string, limit: number, cursor?: string): Promise<{ due: DueCheck[]; cursor?: string }> {
    const page = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: TABLE_KEYS.gsi3.name,
        // `<next check>#<client>#<id>`: every entry whose time is at or before now sorts below `now#~`.
        KeyConditionExpression: '#pk = :pk AND #sk < :bound',
        ExpressionAttributeNames: { '#pk': TABLE_KEYS.gsi3.partitionKey, '#sk': TABLE_KEYS.gsi3.sortKey },
        ExpressionAttributeValues: { ':pk': keys.domainCheckPk, ':bound': `${now}#~` },
        Limit: limit,
        ...(cursor ? { ExclusiveStartKey: JSON.parse(Buffer.from(cursor, 'base64url').toString()) } : {}),
      }),
    );
    const due = (page.Items ?? []).flatMap((item) => {
      const named = keys.domainCheckOf(String(item[TABLE_KEYS.gsi3.sortKey]));
      return named ? [named] : [];
    });
    const next = page.LastEvaluatedKey;
    return { due, ...(next ? { cursor: Buffer.from(JSON.stringify(next)).toString('base64url') } : {}) };
  }

  /** The stored item of a claim: its keys, entity, and its gsi3 entry while being checked. */
  private itemOf(record: DomainRecord): Record<string, unknown> {
    return {
      ...keys.domain(record.client_id, record.id),
      entity: ENTITY.domain,
      ...record,
      ...(isChecking(record) ? keys.domainCheckEntry(record.client_id, record.id, record.next_check_at as string) : {}),
    };
  }

  /** The claim written whole over the version it was read at (`version - 1`). */
  private versionedPut(record: DomainRecord) {
    return {
      TableName: this.tableName,
      Item: this.itemOf(record),
      ConditionExpression: 'version = :read',
      ExpressionAttributeValues: { ':read': record.version - 1 },
    };
  }

  private notProvenElsewhere(record: DomainRecord): TransactItem {
    return {
      ConditionCheck: {
        TableName: this.tableName,
        Key: keys.domainClaim(record.domain),
        ConditionExpression: 'attribute_not_exists(pk) OR client_id = :me',
        ExpressionAttributeValues: { ':me': record.client_id },
      },
    };
  }

  /** Frees the claim's name lock (if still its own) and its place in the client's count. */
  private releaseName(record: DomainRecord): TransactItem[] {
    return [
      {
        Delete: {
          TableName: this.tableName,
          Key: keys.domainName(record.client_id, record.domain),
          ConditionExpression: 'domain_id = :id',
          ExpressionAttributeValues: { ':id': record.id },
        },
      },
      {
        Update: {
          TableName: this.tableName,
          Key: keys.domainCount(record.client_id),
          UpdateExpression: 'ADD n :minus',
          ExpressionAttributeValues: { ':minus': -1 },
        },
      },
    ];
  }

  private async claimedId(record: DomainRecord): Promise<number | undefined> {
    const out = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: keys.domainName(record.client_id, record.domain),
        ConsistentRead: true,
      }),
    );
    return typeof out.Item?.domain_id === 'number' ? out.Item.domain_id : undefined;
  }

  private async verifiedDomains(clientId: number): Promise<string[]> {
    const out = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: keys.sender(clientId),
        ConsistentRead: true,
        ProjectionExpression: 'verified_domains',
      }),
    );
    const listed = out.Item?.verified_domains;
    return Array.isArray(listed) ? listed.map(String) : [];
  }

  /** Sends a transaction: `done`, or the positions whose condition failed (any other error is thrown). */
  private async transact(items: TransactItem[]): Promise<'done' | number[]> {
    try {
      await sendTransaction(this.db, new TransactWriteCommand({ TransactItems: items }));
      return 'done';
    } catch (error) {
      const failed = failedConditions(error);
      if (failed.length === 0) throw error;
      return failed;
    }
  }
}
