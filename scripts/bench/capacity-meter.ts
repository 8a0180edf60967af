import { AsyncLocalStorage } from 'node:async_hooks';
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../shared/adapters/dynamo/keys.js';
import {
  addCapacity,
  capacityOf,
  noCapacity,
  ruleCapacity,
  type Capacity,
  type ConsumedCapacityLike,
  type ItemWrite,
} from './stats-cost.js';

/** The commands that take `ReturnConsumedCapacity` (the ones this service sends). */
const CAPACITY_COMMANDS = new Set([
  'GetItemCommand',
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'QueryCommand',
  'ScanCommand',
  'BatchGetItemCommand',
  'BatchWriteItemCommand',
  'TransactGetItemsCommand',
  'TransactWriteItemsCommand',
]);

type Key = Record<string, unknown>;
interface Written {
  table: string;
  key: Key;
  transactional: boolean;
}

/**
 * The capacity a piece of work consumes, two ways, for the requests sent from a `measure` scope:
 * - as DynamoDB Local reports it: a middleware on the bench's DynamoDB client asks every request for
 *   `ReturnConsumedCapacity: INDEXES`. Its single-item writes and its reads follow DynamoDB's rules; its transactions
 *   do not (measured: a transaction of a new small Put and an `ADD` Update reports 2 WCU, the Put's alone);
 * - the table's write units by DynamoDB's documented rule, item by item: each item a write request names is read
 *   before and after it (strongly consistent GetItems on `imageDb`, a client of its own, neither counted nor
 *   metered) and costs 1 WCU per started KB of the larger image, twice inside a transaction. Index writes are left
 *   out of the rule (the day-counter rows carry no index key, so they add none).
 * A failed request (a condition) reports nothing here, though DynamoDB bills it.
 */
export class CapacityMeter {
  private readonly scopes = new AsyncLocalStorage<Capacity>();

  constructor(private readonly imageDb: DynamoDBDocumentClient) {}

  install(db: DynamoDBDocumentClient): void {
    db.middlewareStack.add(
      (next, context) => async (args) => {
        const command = String(context.commandName ?? '');
        const scope = this.scopes.getStore();
        if (!scope || !CAPACITY_COMMANDS.has(command)) return next(args);
        const input = args.input as Record<string, unknown>;
        input['ReturnConsumedCapacity'] = 'INDEXES';
        const written = writtenItems(command, input);
        const before = await Promise.all(written.map((w) => this.image(w)));
        const out = await next(args);
        const after = await Promise.all(written.map((w) => this.image(w)));
        const consumed = (out.output as { ConsumedCapacity?: ConsumedCapacityLike | ConsumedCapacityLike[] })
          .ConsumedCapacity;
        const writes: ItemWrite[] = written.map((w, i) => ({
          before: before[i],
          after: after[i],
          transactional: w.transactional,
          counter: keys.isStatsPk(w.key['pk']),
        }));
        addCapacity(scope, { ...capacityOf(command, consumed), ...ruleCapacity(writes) });
        return out;
      },
      { step: 'initialize', name: 'benchConsumedCapacity', priority: 'high' },
    );
  }

  /** Runs `fn` and reports the capacity its requests consumed (only theirs, whatever else runs meanwhile). */
  async measure<T>(fn: () => Promise<T>): Promise<{ result: T; capacity: Capacity }> {
    const capacity = noCapacity();
    const result = await this.scopes.run(capacity, fn);
    return { result, capacity };
  }

  private async image(w: Written): Promise<Record<string, unknown> | undefined> {
    const out = await this.imageDb.send(new GetCommand({ TableName: w.table, Key: w.key, ConsistentRead: true }));
    return out.Item;
  }
}

/** The items a write request names (document-client input: plain values), with the table's key attributes. */
function writtenItems(command: string, input: Record<string, any>): Written[] {
  const keyOf = (item: Record<string, unknown>): Key => ({ pk: item['pk'], sk: item['sk'] });
  switch (command) {
    case 'PutItemCommand':
      return [{ table: input['TableName'], key: keyOf(input['Item']), transactional: false }];
    case 'UpdateItemCommand':
    case 'DeleteItemCommand':
      return [{ table: input['TableName'], key: input['Key'], transactional: false }];
    case 'BatchWriteItemCommand':
      return Object.entries(input['RequestItems'] as Record<string, any[]>).flatMap(([table, requests]) =>
        requests.map((r) => ({
          table,
          key: r.PutRequest ? keyOf(r.PutRequest.Item) : r.DeleteRequest.Key,
          transactional: false,
        })),
      );
    case 'TransactWriteItemsCommand':
      // ConditionCheck items write nothing (none in the measured paths).
      return (input['TransactItems'] as any[]).flatMap((item) => {
        if (item.Put) return [{ table: item.Put.TableName, key: keyOf(item.Put.Item), transactional: true }];
        const op = item.Update ?? item.Delete;
        return op ? [{ table: op.TableName, key: op.Key, transactional: true }] : [];
      });
    default:
      return [];
  }
}
