import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { clientPk } from '../../../shared/adapters/dynamo/keys.js';

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

/** Every item under the client's partition key, sorted by sort key: "nothing was written" is an equal snapshot. */
export async function clientPartition(clientId: number): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: inject('tableName'),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': clientPk(clientId) },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}
