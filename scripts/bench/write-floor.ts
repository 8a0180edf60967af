import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../shared/adapters/dynamo/document-client.js';

/**
 * The fastest DynamoDB Local takes `items` writes: unconditional BatchWriteItem (25 a call), every call at once,
 * into a scratch partition. No import that writes that many items can finish sooner on this machine, so
 * `single ms / floor ms` is the best speed-up the local runtime can show. Median of three runs.
 */
export async function measureWriteFloor(endpoint: string, tableName: string, items: number): Promise<number> {
  const db = createDocumentClient({ region: process.env['AWS_REGION'] ?? 'us-east-1', endpoint });
  const runs: number[] = [];
  for (let run = 0; run < 3; run += 1) {
    const calls: Promise<unknown>[] = [];
    const started = performance.now();
    for (let first = 0; first < items; first += 25) {
      const puts = Array.from({ length: Math.min(25, items - first) }, (_, i) => ({
        PutRequest: {
          Item: {
            pk: `BENCH#FLOOR#${run}`,
            sk: `ITEM#${first + i}`,
            email: `floor-${first + i}@example.com`,
            first_name: 'Floor',
            last_name: 'Bench',
            company: 'Example',
          },
        },
      }));
      calls.push(db.send(new BatchWriteCommand({ RequestItems: { [tableName]: puts } })));
    }
    await Promise.all(calls);
    runs.push(performance.now() - started);
  }
  return runs.sort((a, b) => a - b)[1]!;
}
