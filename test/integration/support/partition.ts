import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { clientPk, keys, type ItemKey } from '../../../shared/adapters/dynamo/keys.js';
import { TABLE_KEYS } from '../../../shared/adapters/dynamo/table-definition.js';

let db: DynamoDBDocumentClient | undefined;

/** A document client on the integration runtime's DynamoDB Local (test-side reads). */
export function documentClient(): DynamoDBDocumentClient {
  db ??= DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: process.env['AWS_REGION'] ?? 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  return db;
}

/** Lock values a test wants looked up by key besides the listed contacts' own (an orphan lock has no contact). */
export interface LockProbe {
  emails?: readonly string[];
  uids?: readonly string[];
}

/**
 * A client's configuration and contacts, sorted by pk and sk — "nothing was written" is an equal snapshot: the
 * `CLIENT#<id>` partition (profile, settings, templates, customizations, custom field names), every contact (each
 * has a partition of its own; found through its gsi1 listing shards) and the e-mail and uid locks of those
 * contacts and of the probed values. Engine items (events, executions, sent e-mails) are not included.
 */
export async function clientItems(clientId: number, probe: LockProbe = {}): Promise<Record<string, unknown>[]> {
  const [partition, ...shards] = await Promise.all([
    queryAll({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': clientPk(clientId) },
      ConsistentRead: true,
    }),
    ...Array.from({ length: keys.contactShards }, (_, shard) =>
      queryAll({
        IndexName: TABLE_KEYS.gsi1.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': TABLE_KEYS.gsi1.partitionKey },
        ExpressionAttributeValues: { ':pk': keys.contactListingPk(clientId, shard) },
      }),
    ),
  ]);
  const contacts = shards.flat();
  const emails = new Set([...(probe.emails ?? []), ...contacts.map((c) => String(c['email']))]);
  const uids = new Set([
    ...(probe.uids ?? []),
    ...contacts.flatMap((c) => (c['client_contact_id'] ? [String(c['client_contact_id'])] : [])),
  ]);
  const locks = await getAll([
    ...[...emails].map((email) => keys.emailLock(clientId, email)),
    ...[...uids].map((uid) => keys.uidLock(clientId, uid)),
  ]);
  const order = (i: Record<string, unknown>) => `${String(i['pk'])}\u0000${String(i['sk'])}`;
  return [...partition!, ...contacts, ...locks].sort((a, b) =>
    order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0,
  );
}

async function queryAll(input: Omit<QueryCommandInput, 'TableName'>): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({ ...input, TableName: inject('tableName'), ExclusiveStartKey: start }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Consistent BatchGet of any number of keys (100 a request; unprocessed keys asked again). */
async function getAll(wanted: ItemKey[]): Promise<Record<string, unknown>[]> {
  const table = inject('tableName');
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < wanted.length; i += 100) {
    let pending: ItemKey[] = wanted.slice(i, i + 100);
    while (pending.length > 0) {
      const out = await documentClient().send(
        new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }),
      );
      items.push(...(out.Responses?.[table] ?? []));
      pending = (out.UnprocessedKeys?.[table]?.Keys ?? []) as ItemKey[];
    }
  }
  return items;
}
