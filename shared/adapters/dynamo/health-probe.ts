import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys } from './keys.js';

/** One GetItem proves the table is reachable with this function's credentials. */
export async function pingTable(db: DynamoDBDocumentClient, tableName: string): Promise<void> {
  await db.send(new GetCommand({ TableName: tableName, Key: keys.counter('health') }));
}
