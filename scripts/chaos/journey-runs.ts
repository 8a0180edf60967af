import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RunRecord } from '../../shared/domain/runs/run-record.js';

/** Every run of a journey in a local table (a Scan: the bench's and the chaos run's tables hold nothing else of size). */
export async function scanJourneyRuns(
  db: DynamoDBDocumentClient,
  tableName: string,
  journeyId: number,
): Promise<RunRecord[]> {
  const runs: RunRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tableName,
        ConsistentRead: true,
        FilterExpression: 'begins_with(pk, :run) AND sk = :sk AND journey_id = :j',
        ExpressionAttributeValues: { ':run': 'RUN#', ':sk': 'RUN', ':j': journeyId },
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    runs.push(...((page.Items ?? []) as RunRecord[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return runs;
}
