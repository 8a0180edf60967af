import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { keys } from '../../shared/adapters/dynamo/keys.js';
import {
  WEBHOOK_REPLAYS_PER_ATTEMPT,
  WEBHOOK_REPLAYS_PER_ENDPOINT_HOUR,
} from '../../shared/domain/webhooks/attempts.js';
import { call } from './support/api.js';
import { createTestClient } from './support/clients.js';
import { eventually } from './support/eventually.js';
import { documentClient } from './support/partition.js';

/** A receiver answering 204 to everything, counting what arrives per path. */
let server: Server;
let base: string;
const received = new Map<string, number>();

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.set(req.url ?? '/', (received.get(req.url ?? '/') ?? 0) + 1);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** An endpoint taking `email.sent`, and the ids of the attempts of `signups` welcome e-mails to it. */
async function endpointWithAttempts(signups: number) {
  const client = await createTestClient();
  const path = `/caps-${randomUUID().slice(0, 8)}`;
  const hook = await call('POST', '/client/webhooks', {
    key: client.api_key,
    body: { url: `${base}${path}`, event_types: ['email.sent'] },
  });
  expect(hook.status).toBe(201);
  for (let i = 0; i < signups; i++) {
    const res = await call('POST', '/client/events?sync=true', {
      key: client.api_key,
      body: { type: 'signup', email: `caps-${randomUUID().slice(0, 8)}@example.com`, auto_create_contact: true },
    });
    expect(res.status).toBe(201);
  }
  const attempts = await eventually(
    `${signups} attempts at ${path}`,
    async () => {
      const list = await call('GET', `/client/webhooks/${hook.body.data.id}/attempts`, { key: client.api_key });
      return list.body.data.attempts.length >= signups ? (list.body.data.attempts as { id: string }[]) : undefined;
    },
    { timeoutMs: 20_000 },
  );
  return { client, hookId: hook.body.data.id as number, path, attemptIds: attempts.map((a) => a.id) };
}

/** Keeps the test inside one fixed UTC hour of the per-endpoint cap. */
async function awayFromTheHoursEnd(): Promise<void> {
  const left = 3600 - (Math.floor(Date.now() / 1000) % 3600);
  if (left < 15) await new Promise((resolve) => setTimeout(resolve, (left + 1) * 1000));
}

describe('replay caps, over HTTP', { timeout: 90_000 }, () => {
  it(`replays an attempt ${WEBHOOK_REPLAYS_PER_ATTEMPT} times, then answers 409 max at attempt_id and queues nothing`, async () => {
    // Prepare
    const { client, hookId, path, attemptIds } = await endpointWithAttempts(1);
    const replay = () =>
      call('POST', `/client/webhooks/${hookId}/attempts/${attemptIds[0]}/replay`, { key: client.api_key });

    // Act
    const allowed = [];
    for (let i = 0; i < WEBHOOK_REPLAYS_PER_ATTEMPT; i++) allowed.push(await replay());
    const refused = await replay();

    // Assess
    expect(allowed.map((r) => r.status)).toEqual(Array(WEBHOOK_REPLAYS_PER_ATTEMPT).fill(202));
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, data: {}, errors: [{ condition: 'max', key: 'attempt_id' }] });
    // The original delivery and the allowed replays arrive; the refused one never does.
    await eventually(
      'the replays',
      async () => ((received.get(path) ?? 0) >= 1 + WEBHOOK_REPLAYS_PER_ATTEMPT ? true : undefined),
      { timeoutMs: 20_000 },
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(received.get(path)).toBe(1 + WEBHOOK_REPLAYS_PER_ATTEMPT);
  });

  it(`answers 409 max at id once the endpoint was replayed ${WEBHOOK_REPLAYS_PER_ENDPOINT_HOUR} times this hour`, async () => {
    // Prepare: the endpoint's count of this hour at the cap (as that many replays leave it), one attempt never replayed.
    const { client, hookId, attemptIds } = await endpointWithAttempts(1);
    await awayFromTheHoursEnd();
    const now = Math.floor(Date.now() / 1000);
    await documentClient().send(
      new UpdateCommand({
        TableName: inject('tableName'),
        Key: keys.webhookReplayWindow(client.id, hookId, now - (now % 3600)),
        UpdateExpression: 'SET n = :n, expires_at = :expires',
        ExpressionAttributeValues: { ':n': WEBHOOK_REPLAYS_PER_ENDPOINT_HOUR, ':expires': now + 7200 },
      }),
    );

    // Act
    const refused = await call('POST', `/client/webhooks/${hookId}/attempts/${attemptIds[0]}/replay`, {
      key: client.api_key,
    });

    // Assess: refused, and the attempt's own count untouched (the transaction wrote neither).
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ errors: [{ condition: 'max', key: 'id' }] });
    expect(refused.body.errors[0].error).toMatch(/from \d{4}-\d{2}-\d{2}T\d{2}:00:00\.000Z$/);
  });
});
