import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { handler } from '../../../../functions/http/dev-queues-redrive.js';
import { LocalQueue } from '../../../../local/engine/local-queue.js';
import { createContainer, setContainer } from '../../../../shared/composition/container.js';
import { loadConfig } from '../../../../shared/config.js';

const context = {
  awsRequestId: 'aws-req',
  functionName: 'dev-queues-redrive',
  getRemainingTimeInMillis: () => 1000,
} as unknown as Context;

function redriveEvent(queue: string): APIGatewayProxyEventV2 {
  const path = `/api/v1/dev/queues/${queue}/redrive`;
  return {
    version: '2.0',
    routeKey: 'POST /api/v1/dev/queues/{queue}/redrive',
    rawPath: path,
    rawQueryString: '',
    headers: {},
    pathParameters: { queue },
    requestContext: { requestId: 'req-1', http: { method: 'POST', path } } as never,
    isBase64Encoded: false,
  } as APIGatewayProxyEventV2;
}

/** A queue with no consumer (a moved message waits in it), behind the port as the local engine puts it. */
function localQueueBehindThePort(): LocalQueue {
  const queue = new LocalQueue();
  setContainer(
    createContainer({
      config: loadConfig({}),
      overrides: { deadLetters: { redrive: async (name) => ({ kind: 'moved', moved: queue.redrive(name) }) } },
    }),
  );
  return queue;
}

const call = async (event: APIGatewayProxyEventV2) => {
  const res = await handler(event, context);
  return { status: res.statusCode, body: JSON.parse(res.body as string) as Record<string, unknown> };
};

let queue: LocalQueue | undefined;
afterEach(async () => {
  setContainer(undefined);
  await queue?.stop();
});

describe('POST /dev/queues/{queue}/redrive (local runtime only)', () => {
  it("moves that queue's dead letters back and answers how many, leaving the other queues' alone", async () => {
    // Prepare
    queue = localQueueBehindThePort();
    queue.deadLetters.push(
      { queue: 'workflow', messageId: 'm-1', body: '{"client_id":7,"execution_id":1}', receiveCount: 5 },
      { queue: 'events', messageId: 'm-2', body: '{"client_id":7,"event_id":2}', receiveCount: 5 },
      { queue: 'workflow', messageId: 'm-3', body: '{"client_id":7,"execution_id":3}', receiveCount: 5 },
    );

    // Act
    const res = await call(redriveEvent('workflow'));

    // Assess
    expect(res).toEqual({
      status: 200,
      body: {
        success: true,
        message: 'Dead letters moved back',
        data: { queue: 'workflow', moved: 2 },
        errors: [],
        meta: { request_id: 'req-1' },
      },
    });
    expect(queue.deadLetters.map((letter) => letter.messageId)).toEqual(['m-2']);
    expect(queue.depth('workflow')).toBe(2);
  });

  it('answers 0 when the queue has none', async () => {
    // Prepare
    queue = localQueueBehindThePort();

    // Act
    const res = await call(redriveEvent('ses-status'));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body['data']).toEqual({ queue: 'ses-status', moved: 0 });
  });

  it('answers 422 for a queue that does not exist, moving nothing', async () => {
    // Prepare
    queue = localQueueBehindThePort();
    queue.deadLetters.push({ queue: 'events', messageId: 'm-1', body: '{}', receiveCount: 5 });

    // Act
    const res = await call(redriveEvent('dead-letters'));

    // Assess
    expect(res.status).toBe(422);
    expect(res.body['errors']).toEqual([{ condition: 'enum', key: 'queue', error: expect.any(String) }]);
    expect(queue.deadLetters).toHaveLength(1);
  });
});
