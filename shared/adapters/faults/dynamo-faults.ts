import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
// @smithy/protocol-http's HttpResponse lives in @smithy/core since the SDK merged its packages (the SDK's own import).
import { HttpResponse, type HttpHandler, type HttpHandlerOptions, type HttpRequest } from '@smithy/core/protocols';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { FaultCounts, FaultDice } from './fault-dice.js';
import { connectionReset } from './fault-errors.js';
import type { FaultKind } from './fault-spec.js';

export type DynamoFaultKind = FaultKind<'dynamo'>;
type RequestHandler = DynamoDBClient['config']['requestHandler'];

/** A DynamoDBClient or DynamoDBDocumentClient (the document client shares its base client's config object). */
export interface DynamoClientLike {
  config: { requestHandler: RequestHandler };
}

/** What DynamoDB answers a request over the table's (or account's) throughput: HTTP 400, AWS JSON 1.0. */
export const THROTTLE_BODY = JSON.stringify({
  __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
  message: 'injected fault',
});

/**
 * Injects DynamoDB faults below the SDK's retry strategy: the client's HTTP handler is wrapped, so each attempt
 * draws on its own and the SDK deserializes and retries an injected throttle or reset exactly as a real one (and the
 * request counter, a finalizeRequest middleware, counts every attempt). Install before the client's first request.
 */
export function installDynamoFaults(client: DynamoClientLike, dice: FaultDice<DynamoFaultKind>): FaultyRequestHandler {
  const handler = new FaultyRequestHandler(client.config.requestHandler, dice);
  client.config.requestHandler = handler;
  return handler;
}

export class FaultyRequestHandler implements HttpHandler<Record<string, unknown>> {
  constructor(
    private readonly inner: RequestHandler,
    private readonly dice: FaultDice<DynamoFaultKind>,
  ) {}

  get metadata() {
    return this.inner.metadata;
  }

  async handle(request: HttpRequest, options?: HttpHandlerOptions): Promise<{ response: HttpResponse }> {
    const fault = this.dice.draw();
    switch (fault) {
      // Nothing reaches DynamoDB.
      case 'throttle':
        this.dice.record(fault);
        return { response: throttledResponse() };
      case 'reset':
        this.dice.record(fault);
        throw connectionReset();
      case 'reset-after-write': {
        // A read has no write to lose the answer of: it goes through.
        if (!isWrite(request)) return this.inner.handle(request, options);
        // DynamoDB did whatever it was asked (written, or refused on a condition), then the answer is lost. The SDK
        // retries the reset as it would a real one: an unconditional write is applied again, a conditional one may
        // now fail on the item its own first attempt wrote, and a TransactWriteItems is recognised by its
        // ClientRequestToken (the same on every attempt of one command) and answered as the first was.
        const { response } = await this.inner.handle(request, options);
        await discard(response.body);
        this.dice.record(fault);
        throw connectionReset();
      }
      case undefined:
        return this.inner.handle(request, options);
    }
  }

  destroy(): void {
    this.inner.destroy?.();
  }

  updateHttpClientConfig(key: string, value: unknown): void {
    (this.inner as Partial<HttpHandler<Record<string, unknown>>>).updateHttpClientConfig?.(key, value);
  }

  httpHandlerConfigs(): Record<string, unknown> {
    return (this.inner as Partial<HttpHandler<Record<string, unknown>>>).httpHandlerConfigs?.() ?? {};
  }

  get counts(): FaultCounts<DynamoFaultKind> {
    return this.dice.counts();
  }
}

/** The operations that change the table, by the AWS JSON protocol's target header (`DynamoDB_20120810.PutItem`). */
const WRITE_OPERATIONS = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

function isWrite(request: HttpRequest): boolean {
  const target = Object.entries(request.headers).find(([name]) => name.toLowerCase() === 'x-amz-target')?.[1];
  return WRITE_OPERATIONS.has(target?.split('.').pop() ?? '');
}

/** Reads a streamed answer to its end, so its keep-alive socket goes back to the pool rather than hanging. */
async function discard(body: unknown): Promise<void> {
  if (body instanceof Readable) {
    body.resume();
    await finished(body).catch(() => undefined);
  }
}

function throttledResponse(): HttpResponse {
  const body = Buffer.from(THROTTLE_BODY);
  return new HttpResponse({
    statusCode: 400,
    reason: 'Bad Request',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'content-length': String(body.length),
      'x-amzn-requestid': 'injected-fault',
    },
    body,
  });
}
