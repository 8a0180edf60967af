import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { JourneyIndex } from '../../domain/journeys/journey-records.js';
import type { SplitWinnersWrite, SplitWinnerStore } from '../../domain/journeys/split-winner-store.js';
import { batchGetItems } from './batch-get.js';
import { keys } from './keys.js';
import { sendTransaction } from './transactions.js';

/**
 * Split winners in the table: the journey index (`JOURNEYINDEX`) and the journey's gauge (`STATS#<c>#0 / NOW#J<id>`)
 * read in one BatchGetItem; the winners set on the index's entry (`journeys[<i>].split_winners`, the version raised
 * under the version read) and on the journey head in one TransactWriteItems.
 */
export class DynamoSplitWinnerStore implements SplitWinnerStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async readSplits(clientId: number, journeyId: number) {
    const indexKey = keys.journeyIndex(clientId);
    const gaugeKey = keys.statsJourneyGauge(clientId, journeyId);
    const items = await batchGetItems(this.db, this.tableName, [indexKey, gaugeKey]);
    const find = (key: { pk: string; sk: string }) => items.find((i) => i['pk'] === key.pk && i['sk'] === key.sk);
    const indexItem = find(indexKey);
    const index: JourneyIndex = indexItem
      ? { version: Number(indexItem['version']), journeys: (indexItem['journeys'] ?? []) as JourneyIndex['journeys'] }
      : { version: 0, journeys: [] };
    const gauge: Record<string, number> = {};
    for (const [name, value] of Object.entries(find(gaugeKey) ?? {}))
      if (typeof value === 'number') gauge[name] = value;
    return { index, gauge };
  }

  async writeWinners(write: SplitWinnersWrite): Promise<'written' | 'stale'> {
    const at = `journeys[${write.position}]`;
    try {
      await sendTransaction(
        this.db,
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.tableName,
                Key: keys.journeyIndex(write.clientId),
                UpdateExpression: `SET ${at}.split_winners = :winners, #v = :next`,
                ConditionExpression: `#v = :read AND ${at}.id = :journey`,
                ExpressionAttributeNames: { '#v': 'version' },
                ExpressionAttributeValues: {
                  ':winners': write.winners,
                  ':next': write.readVersion + 1,
                  ':read': write.readVersion,
                  ':journey': write.journeyId,
                },
              },
            },
            {
              Update: {
                TableName: this.tableName,
                Key: keys.journey(write.clientId, write.journeyId),
                UpdateExpression: 'SET split_winners = :winners',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeValues: { ':winners': write.winners },
              },
            },
          ],
        }),
      );
      return 'written';
    } catch (error) {
      const reasons = error instanceof TransactionCanceledException ? (error.CancellationReasons ?? []) : [];
      if (reasons[0]?.Code === 'ConditionalCheckFailed') return 'stale';
      throw error;
    }
  }
}
