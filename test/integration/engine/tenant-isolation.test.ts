import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { awaitExecutionStatus, listExecutions, type ExecutionItem } from '../support/executions.js';

/**
 * Client A owns an event, a failed execution (the reject address), a completed one and their sent e-mails;
 * client B asks for each of them. B must get exactly the answer of an id that does not exist.
 */
let a: { key: string; eventId: number; failed: ExecutionItem; completed: ExecutionItem };
let bKey: string;

beforeAll(async () => {
  const [clientA, clientB] = await Promise.all([createTestClient(), createTestClient()]);
  bKey = clientB.api_key;
  const key = clientA.api_key;
  const event = await call('POST', '/client/events?sync=true', {
    key,
    body: { type: 'signup', email: 'reject@simulator.amazonses.com', auto_create_contact: true },
  });
  await call('POST', '/client/events?sync=true', {
    key,
    body: { type: 'trial_ending', email: `iso-${randomUUID().slice(0, 8)}@example.com`, auto_create_contact: true },
  });
  const all = await listExecutions(key);
  const [failed, completed] = await Promise.all([
    awaitExecutionStatus(key, all.find((e) => e.workflow_id === 1)!.id, 4),
    awaitExecutionStatus(key, all.find((e) => e.workflow_id === 3)!.id, 3),
  ]);
  a = { key, eventId: event.body.data.id, failed, completed };
});

/** The parts of an answer that must not tell "another client's" from "missing" (the request id differs anyway). */
const visible = (res: {
  status: number;
  body: { data: unknown; errors: unknown; message: string; success: boolean };
}) => ({
  status: res.status,
  data: res.body.data,
  errors: res.body.errors,
  message: res.body.message,
  success: res.body.success,
});

describe('tenant isolation of the engine routes', () => {
  it.each([
    [
      'GET /client/events/{id}',
      () => ['GET', `/client/events/${a.eventId}`],
      () => ['GET', `/client/events/${a.eventId + 1}`],
    ],
    [
      'GET /client/sent-emails/{id} (a sent one)',
      () => ['GET', `/client/sent-emails/${a.completed.sent_email_id}`],
      () => ['GET', `/client/sent-emails/${randomUUID()}`],
    ],
    [
      'GET /client/sent-emails/{id} (a failed one)',
      () => ['GET', `/client/sent-emails/${a.failed.sent_email_id}`],
      () => ['GET', `/client/sent-emails/${randomUUID()}`],
    ],
    [
      'POST /client/executions/{execution_id}/retry',
      () => ['POST', `/client/executions/${a.failed.id}/retry`],
      () => ['POST', `/client/executions/${a.failed.id + 1}/retry`],
    ],
  ])(
    "answers 404 for another client's resource on %s, exactly as for a missing one",
    async (_route, foreign, missing) => {
      // Prepare
      const [method, path] = foreign() as [string, string];
      const [missingMethod, missingPath] = missing() as [string, string];

      // Act
      const res = await call(method, path, { key: bKey });

      // Assess
      expect(res.status).toBe(404);
      expect(visible(res)).toEqual(visible(await call(missingMethod, missingPath, { key: bKey })));
    },
  );

  it("leaves the owner's failed execution failed when another client asks to retry it", async () => {
    // Act
    await call('POST', `/client/executions/${a.failed.id}/retry`, { key: bKey });

    // Assess
    const owner = await listExecutions(a.key);
    expect(owner.find((e) => e.id === a.failed.id)).toEqual(a.failed);
    expect(owner.filter((e) => e.retried_from !== null)).toEqual([]);
    expect(await listExecutions(bKey)).toEqual([]);
  });

  it.each(['per_page=100', 'workflow_id=1', 'status=4', 'status=3', `created_from=2025-01-01`])(
    "never lists another client's executions (GET /client/executions?%s)",
    async (query) => {
      // Act
      const res = await call('GET', `/client/executions?${query}`, { key: bKey });

      // Assess
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ executions: [], next_cursor: null });
      expect(res.body.meta).toMatchObject({ total: 0, total_pages: 0 });
    },
  );

  it('still shows the owner everything B was refused', async () => {
    // Act
    const [event, sent, failedSent] = await Promise.all([
      call('GET', `/client/events/${a.eventId}`, { key: a.key }),
      call('GET', `/client/sent-emails/${a.completed.sent_email_id}`, { key: a.key }),
      call('GET', `/client/sent-emails/${a.failed.sent_email_id}`, { key: a.key }),
    ]);

    // Assess
    expect([event.status, sent.status, failedSent.status]).toEqual([200, 200, 200]);
  });
});
