import { Readable } from 'node:stream';
import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  DeleteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  ProvisionedThroughputExceededException,
  PutItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
// The SDK's own retry strategy with its classification; only the backoff is set to 1 ms so the test runs fast.
import { ConfiguredRetryStrategy } from '@smithy/core/retry';
import { HttpResponse, type HttpHandler, type HttpRequest } from '@smithy/core/protocols';
import { describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../../../shared/adapters/dynamo/document-client.js';
import { RequestCounter } from '../../../../shared/adapters/dynamo/request-counter.js';
import { installDynamoFaults, type DynamoFaultKind } from '../../../../shared/adapters/faults/dynamo-faults.js';
import { FaultDice } from '../../../../shared/adapters/faults/fault-dice.js';
import { seededRandom } from '../../../../shared/adapters/faults/seeded-random.js';

/** Stands in for DynamoDB: answers every request 200 `{}` (GetItem: no item) and counts what reached it. */
class FakeDynamo implements HttpHandler<Record<string, unknown>> {
  readonly requests: HttpRequest[] = [];
  /** The answer's body: a buffer, or a stream as the node handler gives it. */
  body: () => Buffer | Readable = () => Buffer.from('{}');
  async handle(request: HttpRequest): Promise<{ response: HttpResponse }> {
    this.requests.push(request);
    return {
      response: new HttpResponse({
        statusCode: 200,
        headers: { 'content-type': 'application/x-amz-json-1.0', 'content-length': '2' },
        body: this.body(),
      }),
    };
  }
  updateHttpClientConfig(): void {}
  httpHandlerConfigs(): Record<string, unknown> {
    return {};
  }
}

const clientWith = (fake: FakeDynamo, maxAttempts: number) =>
  new DynamoDBClient({
    region: 'us-east-1',
    endpoint: 'http://dynamo.test',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    requestHandler: fake,
    retryStrategy: new ConfiguredRetryStrategy(maxAttempts, () => 1),
  });
const dice = (kind: DynamoFaultKind, rate: number, seed = 1) => new FaultDice([{ kind, rate }], seededRandom(seed));
const getItem = new GetItemCommand({ TableName: 't', Key: { pk: { S: 'CLIENT#7' }, sk: { S: 'PROFILE' } } });

describe('installDynamoFaults', () => {
  it('answers every attempt normally at rate 0', async () => {
    // Prepare
    const fake = new FakeDynamo();
    const client = clientWith(fake, 5);
    const handler = installDynamoFaults(client, dice('throttle', 0));
    // Act
    const output = await client.send(getItem);
    // Assess
    expect(output.Item).toBeUndefined();
    expect(output.$metadata.attempts).toBe(1);
    expect(fake.requests).toHaveLength(1);
    expect(handler.counts).toEqual({ calls: 1, injected: { throttle: 0 }, total: 0 });
  });

  it('has the SDK retry an injected throttle as a real one: seed 7 at rate 0.9 throttles two attempts, the third passes', async () => {
    // Prepare: mulberry32(7) draws 0.012, 0.062, 0.977, …
    const fake = new FakeDynamo();
    const client = clientWith(fake, 5);
    const handler = installDynamoFaults(client, dice('throttle', 0.9, 7));
    // Act
    const output = await client.send(getItem);
    // Assess
    expect(output.$metadata.attempts).toBe(3);
    expect(fake.requests).toHaveLength(1);
    expect(handler.counts).toEqual({ calls: 3, injected: { throttle: 2 }, total: 2 });
  });

  it('surfaces ProvisionedThroughputExceededException, deserialized by the SDK, when every attempt is throttled', async () => {
    // Prepare
    const fake = new FakeDynamo();
    const client = clientWith(fake, 3);
    installDynamoFaults(client, dice('throttle', 1));
    // Act
    const error = await client.send(getItem).catch((e: unknown) => e);
    // Assess
    expect(error).toBeInstanceOf(ProvisionedThroughputExceededException);
    expect(error).toMatchObject({
      name: 'ProvisionedThroughputExceededException',
      message: 'injected fault',
      $fault: 'client',
      $metadata: { httpStatusCode: 400, attempts: 3 },
    });
    expect(fake.requests).toEqual([]);
  });

  it('has the SDK retry an injected connection reset, sent before the request reached DynamoDB', async () => {
    // Prepare
    const fake = new FakeDynamo();
    const client = clientWith(fake, 5);
    const handler = installDynamoFaults(client, dice('reset', 0.9, 7));
    // Act
    const output = await client.send(getItem);
    // Assess
    expect(output.$metadata.attempts).toBe(3);
    expect(fake.requests).toHaveLength(1);
    expect(handler.counts.injected).toEqual({ reset: 2 });
  });

  it('surfaces the ECONNRESET error when every attempt is reset', async () => {
    // Prepare
    const fake = new FakeDynamo();
    const client = clientWith(fake, 2);
    installDynamoFaults(client, dice('reset', 1));
    // Act
    const error = await client.send(getItem).catch((e: unknown) => e);
    // Assess
    expect(error).toMatchObject({ code: 'ECONNRESET', message: 'socket hang up', $metadata: { attempts: 2 } });
    expect(fake.requests).toEqual([]);
  });

  it('works on the document client the container uses, and its request counter counts every attempt', async () => {
    // Prepare: the service's own client (maxAttempts 5, default backoff: a reset waits ≤ 50 ms, then ≤ 100 ms).
    const fake = new FakeDynamo();
    const counter = new RequestCounter();
    const db = createDocumentClient({ region: 'us-east-1', endpoint: 'http://dynamo.test', counter });
    db.config.requestHandler = fake;
    installDynamoFaults(db, dice('reset', 0.9, 7));
    // Act
    const output = await db.send(new GetCommand({ TableName: 't', Key: { pk: 'CLIENT#7', sk: 'PROFILE' } }));
    // Assess
    expect(output.$metadata.attempts).toBe(3);
    expect(fake.requests).toHaveLength(1);
    expect(counter.snapshot()).toEqual({ GetItemCommand: 3 });
  });

  describe('reset-after-write', () => {
    const putItem = () =>
      new PutItemCommand({
        TableName: 't',
        Item: { pk: { S: 'RUN#7#42' }, sk: { S: 'RUN' } },
        ConditionExpression: 'attribute_not_exists(pk)',
      });

    it('lets the write reach DynamoDB, then loses its answer: the SDK retries, and the error surfaces once attempts run out', async () => {
      // Prepare
      const fake = new FakeDynamo();
      const client = clientWith(fake, 2);
      const handler = installDynamoFaults(client, dice('reset-after-write', 1));
      // Act
      const error = await client.send(putItem()).catch((e: unknown) => e);
      // Assess: both attempts were written
      expect(error).toMatchObject({ code: 'ECONNRESET', message: 'socket hang up', $metadata: { attempts: 2 } });
      expect(fake.requests.map((r) => r.headers['x-amz-target'])).toEqual([
        'DynamoDB_20120810.PutItem',
        'DynamoDB_20120810.PutItem',
      ]);
      expect(handler.counts).toEqual({ calls: 2, injected: { 'reset-after-write': 2 }, total: 2 });
    });

    it('answers the attempt that draws no fault: seed 7 at rate 0.9 writes three times and the third answer arrives', async () => {
      // Prepare: mulberry32(7) draws 0.012, 0.062, 0.977, …
      const fake = new FakeDynamo();
      const client = clientWith(fake, 5);
      const handler = installDynamoFaults(client, dice('reset-after-write', 0.9, 7));
      // Act
      const output = await client.send(putItem());
      // Assess
      expect(output.$metadata.attempts).toBe(3);
      expect(fake.requests).toHaveLength(3);
      expect(handler.counts.injected).toEqual({ 'reset-after-write': 2 });
    });

    it.each([
      ['GetItem', () => getItem],
      [
        'Query',
        () =>
          new QueryCommand({
            TableName: 't',
            KeyConditionExpression: 'pk = :p',
            ExpressionAttributeValues: { ':p': { S: 'x' } },
          }),
      ],
      [
        'BatchGetItem',
        () => new BatchGetItemCommand({ RequestItems: { t: { Keys: [{ pk: { S: 'a' }, sk: { S: 'b' } }] } } }),
      ],
    ])('leaves a read (%s) alone even when it draws the fault', async (_name, command) => {
      // Prepare
      const fake = new FakeDynamo();
      const client = clientWith(fake, 5);
      const handler = installDynamoFaults(client, dice('reset-after-write', 1));
      // Act
      const output = await client.send(command() as GetItemCommand);
      // Assess
      expect(output.$metadata.attempts).toBe(1);
      expect(fake.requests).toHaveLength(1);
      expect(handler.counts).toEqual({ calls: 1, injected: { 'reset-after-write': 0 }, total: 0 });
    });

    it.each([
      [
        'UpdateItem',
        () =>
          new UpdateItemCommand({
            TableName: 't',
            Key: { pk: { S: 'a' }, sk: { S: 'b' } },
            UpdateExpression: 'SET n = :n',
            ExpressionAttributeValues: { ':n': { N: '1' } },
          }),
      ],
      ['DeleteItem', () => new DeleteItemCommand({ TableName: 't', Key: { pk: { S: 'a' }, sk: { S: 'b' } } })],
      [
        'BatchWriteItem',
        () =>
          new BatchWriteItemCommand({
            RequestItems: { t: [{ PutRequest: { Item: { pk: { S: 'a' }, sk: { S: 'b' } } } }] },
          }),
      ],
    ])('loses the answer of every kind of write (%s)', async (name, command) => {
      // Prepare
      const fake = new FakeDynamo();
      const client = clientWith(fake, 1);
      installDynamoFaults(client, dice('reset-after-write', 1));
      // Act
      const error = await client.send(command() as unknown as PutItemCommand).catch((e: unknown) => e);
      // Assess
      expect(error).toMatchObject({ code: 'ECONNRESET' });
      expect(fake.requests.map((r) => r.headers['x-amz-target'])).toEqual([`DynamoDB_20120810.${name}`]);
    });

    it('retries a TransactWriteItems with the same ClientRequestToken, which DynamoDB answers as the first attempt', async () => {
      // Prepare
      const fake = new FakeDynamo();
      const client = clientWith(fake, 3);
      installDynamoFaults(client, dice('reset-after-write', 0.9, 7));
      const transact = new TransactWriteItemsCommand({
        TransactItems: [{ Put: { TableName: 't', Item: { pk: { S: 'a' }, sk: { S: 'b' } } } }],
      });
      // Act
      await client.send(transact);
      // Assess
      const tokens = fake.requests.map(
        (r) => (JSON.parse(String(r.body)) as { ClientRequestToken?: string }).ClientRequestToken,
      );
      expect(tokens).toHaveLength(3);
      expect(tokens[0]).toEqual(expect.any(String));
      expect(new Set(tokens).size).toBe(1);
    });

    it('reads the lost answer to its end, so its socket is not left hanging', async () => {
      // Prepare: DynamoDB's answer as the node handler gives it, a stream
      const fake = new FakeDynamo();
      const streams: Readable[] = [];
      fake.body = () => {
        const stream = Readable.from([Buffer.from('{}')]);
        streams.push(stream);
        return stream;
      };
      const client = clientWith(fake, 1);
      installDynamoFaults(client, dice('reset-after-write', 1));
      // Act
      await client.send(putItem()).catch(() => undefined);
      // Assess
      expect(streams).toHaveLength(1);
      expect(streams[0]!.readableEnded).toBe(true);
    });
  });

  it('delegates destroy to the handler it wraps', () => {
    // Prepare
    const fake = new FakeDynamo();
    let destroyed = 0;
    Object.assign(fake, { destroy: () => (destroyed += 1) });
    const client = clientWith(fake, 1);
    installDynamoFaults(client, dice('throttle', 0.5));
    // Act
    client.destroy();
    // Assess
    expect(destroyed).toBe(1);
  });
});
