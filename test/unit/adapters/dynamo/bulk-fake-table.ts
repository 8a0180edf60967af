import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';
import { WaveTracker } from '../../../../shared/adapters/dynamo/wave-tracker.js';

/**
 * A DynamoDB table in memory behind aws-sdk-client-mock, just faithful enough for the bulk contact paths:
 * BatchGet (with UnprocessedKeys on demand), Get, conditional Put, the id counter's ADD, and all-or-nothing
 * TransactWriteItems that evaluate the condition and update expressions the adapters write. Every call is
 * timed by a WaveTracker, so tests can assert sequential waves as well as request counts.
 */
type Item = Record<string, unknown>;
type Names = Record<string, string> | undefined;
type Values = Record<string, unknown> | undefined;

export interface Injections {
  /** Called before each request; throw to fail it (throttling), return 'unprocess-half' for a BatchGet to leave half its keys unprocessed. */
  before?: (command: string, input: any) => void | 'unprocess-half' | Promise<void | 'unprocess-half'>;
  /** Called after a request was applied; throw to lose its response (the write stays applied). */
  after?: (command: string, input: any) => void;
}

export class FakeTable {
  readonly items = new Map<string, Item>();
  readonly waves = new WaveTracker();
  /** Committed writes per item key (a contact written twice shows up here). */
  readonly writes = new Map<string, number>();
  /** ClientRequestTokens of applied transactions: a repeat is answered as a success and not applied again. */
  readonly tokens = new Map<string, string>();
  replays = 0;
  readonly mock: AwsClientStub<DynamoDBDocumentClient>;
  readonly db: DynamoDBDocumentClient;
  injections: Injections = {};

  constructor() {
    this.db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
    this.mock = mockClient(this.db);
    this.mock.on(BatchGetCommand).callsFake((input) => this.timed('BatchGetItem', input, () => this.batchGet(input)));
    this.mock.on(GetCommand).callsFake((input) => this.timed('GetItem', input, () => ({ Item: this.get(input.Key) })));
    this.mock.on(PutCommand).callsFake((input) => this.timed('PutItem', input, () => this.putItem(input)));
    this.mock.on(UpdateCommand).callsFake((input) => this.timed('UpdateItem', input, () => this.counter(input)));
    this.mock.on(TransactWriteCommand).callsFake((input) =>
      this.timed('TransactWriteItems', input, () => {
        const token = input.ClientRequestToken as string | undefined;
        if (token && this.tokens.has(token)) {
          if (this.tokens.get(token) !== JSON.stringify(input.TransactItems)) {
            throw Object.assign(new Error('token reused with other items'), {
              name: 'IdempotentParameterMismatchException',
            });
          }
          this.replays += 1;
          return {};
        }
        const out = this.transact(input.TransactItems);
        if (token) this.tokens.set(token, JSON.stringify(input.TransactItems));
        return out;
      }),
    );
  }

  put(item: Item): void {
    this.items.set(keyOf(item), structuredClone(item));
  }

  get(key: { pk: string; sk: string }): Item | undefined {
    const item = this.items.get(keyOf(key));
    return item ? structuredClone(item) : undefined;
  }

  /** Items whose pk starts with the prefix (e.g. all `CONTACT#<client>#` items). */
  list(pkPrefix: string): Item[] {
    return [...this.items.values()].filter((i) => String(i['pk']).startsWith(pkPrefix));
  }

  calls(command: string): number {
    const type = {
      BatchGetItem: BatchGetCommand,
      GetItem: GetCommand,
      PutItem: PutCommand,
      UpdateItem: UpdateCommand,
      TransactWriteItems: TransactWriteCommand,
    }[command];
    return type ? this.mock.commandCalls(type as never).length : 0;
  }

  restore(): void {
    this.mock.restore();
  }

  private async timed<T>(command: string, input: any, run: () => T): Promise<T> {
    const depth = this.waves.begin();
    try {
      // A real round trip: parallel calls overlap, dependent calls do not.
      await new Promise((resolve) => setTimeout(resolve, 1));
      const injected = await this.injections.before?.(command, input);
      if (injected === 'unprocess-half' && command === 'BatchGetItem') return this.batchGet(input, true) as T;
      const output = run();
      this.injections.after?.(command, input);
      return output;
    } finally {
      this.waves.end(depth);
    }
  }

  private batchGet(input: any, unprocessHalf = false) {
    const [table, request] = Object.entries(
      input.RequestItems as Record<string, { Keys: { pk: string; sk: string }[] }>,
    )[0]!;
    if (request.Keys.length > 100)
      throw Object.assign(new Error('Too many items requested for the BatchGetItem call'), {
        name: 'ValidationException',
      });
    const keep = unprocessHalf ? request.Keys.slice(0, Math.ceil(request.Keys.length / 2)) : request.Keys;
    const rest = unprocessHalf ? request.Keys.slice(keep.length) : [];
    return {
      Responses: { [table]: keep.flatMap((k) => (this.items.has(keyOf(k)) ? [this.get(k)!] : [])) },
      UnprocessedKeys: rest.length > 0 ? { [table]: { ...request, Keys: rest } } : {},
    };
  }

  private putItem(input: any) {
    const existing = this.items.get(keyOf(input.Item));
    if (
      input.ConditionExpression &&
      !evaluate(input.ConditionExpression, existing, input.ExpressionAttributeNames, input.ExpressionAttributeValues)
    ) {
      throw new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
    }
    this.put(input.Item);
    return {};
  }

  private counter(input: any) {
    if (!/^ADD #v :n$/.test(input.UpdateExpression))
      throw new Error(`fake table: unsupported update ${input.UpdateExpression}`);
    const item = this.get(input.Key) ?? { ...input.Key, value: 0 };
    item['value'] = Number(item['value']) + Number(input.ExpressionAttributeValues[':n']);
    this.put(item);
    return { Attributes: { value: item['value'] } };
  }

  private transact(actions: any[]) {
    if (actions.length > 100)
      throw Object.assign(new Error('Member must have length less than or equal to 100'), {
        name: 'ValidationException',
      });
    const keys = actions.map((a) => keyOf(a.Put?.Item ?? a.Update?.Key ?? a.Delete?.Key ?? a.ConditionCheck?.Key));
    if (new Set(keys).size !== keys.length) {
      throw Object.assign(new Error('Transaction request cannot include multiple operations on one item'), {
        name: 'ValidationException',
      });
    }
    const reasons = actions.map((a, i) => {
      const op = a.Put ?? a.Update ?? a.Delete;
      const ok =
        !op.ConditionExpression ||
        evaluate(
          op.ConditionExpression,
          this.items.get(keys[i]!),
          op.ExpressionAttributeNames,
          op.ExpressionAttributeValues,
        );
      return { Code: ok ? 'None' : 'ConditionalCheckFailed' };
    });
    if (reasons.some((r) => r.Code !== 'None')) {
      throw new TransactionCanceledException({
        message: 'Transaction cancelled',
        $metadata: {},
        CancellationReasons: reasons,
      });
    }
    actions.forEach((a, i) => {
      const key = keys[i]!;
      this.writes.set(key, (this.writes.get(key) ?? 0) + 1);
      if (a.Put) this.put(a.Put.Item);
      else if (a.Delete) this.items.delete(key);
      else if (a.Update) this.items.set(key, applyUpdate(this.items.get(key) ?? { ...a.Update.Key }, a.Update));
    });
    return {};
  }
}

function keyOf(item: { pk?: unknown; sk?: unknown } & object): string {
  return `${String(item['pk'])}|${String(item['sk'])}`;
}

/** Conditions joined by AND: attribute_exists(x), attribute_not_exists(x), x = :v. */
function evaluate(expression: string, item: Item | undefined, names: Names, values: Values): boolean {
  const name = (token: string) => names?.[token] ?? token;
  return expression.split(' AND ').every((term) => {
    const t = term.trim();
    const exists = /^attribute_exists\((.+)\)$/.exec(t);
    if (exists) return item !== undefined && item[name(exists[1]!)] !== undefined;
    const missing = /^attribute_not_exists\((.+)\)$/.exec(t);
    if (missing) return item === undefined || item[name(missing[1]!)] === undefined;
    const equals = /^(\S+) = (:\S+)$/.exec(t);
    if (equals)
      return item !== undefined && JSON.stringify(item[name(equals[1]!)]) === JSON.stringify(values?.[equals[2]!]);
    throw new Error(`fake table: unsupported condition ${t}`);
  });
}

/** `SET #a = :a, #b = :b REMOVE #c, #d` */
function applyUpdate(
  item: Item,
  update: { UpdateExpression: string; ExpressionAttributeNames?: Names; ExpressionAttributeValues?: Values },
): Item {
  const next = structuredClone(item);
  const match = /^(?:SET (.+?))?\s*(?:REMOVE (.+))?$/.exec(update.UpdateExpression.trim());
  if (!match) throw new Error(`fake table: unsupported update ${update.UpdateExpression}`);
  for (const assignment of match[1]?.split(', ') ?? []) {
    const [target, value] = assignment.split(' = ');
    next[update.ExpressionAttributeNames?.[target!] ?? target!] = structuredClone(
      update.ExpressionAttributeValues?.[value!],
    );
  }
  for (const target of match[2]?.split(', ') ?? []) delete next[update.ExpressionAttributeNames?.[target] ?? target];
  return next;
}
