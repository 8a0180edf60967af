import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../shared/errors.js';
import { EXECUTION_STATUS, type ExecutionStatus } from '../../../../shared/domain/executions/execution-record.js';
import { CLIENT_ID, engineHarness, NOW } from './engine-harness.js';

describe('retryExecution (memory ports)', () => {
  it('retries a failed execution: the original retried (7), a new queued execution dispatched now, then sent', async () => {
    // Prepare: a send the provider refused.
    const h = await engineHarness();
    const ann = await h.contact();
    const failed = await h.queued(ann);
    h.mailer.thenReject('MessageRejected: Email address is not verified.');
    await h.execute(failed.id);
    h.clock.advance(60_000);
    const at = h.clock.now().toISOString();

    // Act
    const ack = await h.retry(failed.id);

    // Assess
    expect(ack).toEqual({
      execution_id: expect.any(Number),
      queue_id: ack.execution_id,
      workflow_id: 1,
      contact_id: ann.id,
      is_test: false,
      status: EXECUTION_STATUS.queued,
      status_text: 'queued',
      reason: null,
      processed_at: null,
      retried_from: failed.id,
    });
    expect(await h.execution(failed.id)).toMatchObject({ status: EXECUTION_STATUS.retried, updated_at: at });
    expect(await h.execution(ack.execution_id)).toMatchObject({
      status: EXECUTION_STATUS.queued,
      attempt: 2,
      retried_from: failed.id,
      scheduled_for: at,
      cap_day: NOW.slice(0, 10),
    });
    expect(h.queue.sent).toEqual([
      {
        queue: 'workflow',
        message: { client_id: CLIENT_ID, execution_id: ack.execution_id },
        options: { delaySeconds: 0 },
      },
    ]);
    expect((await h.storedContact(ann.id))?.active_workflow_count).toBe(1);
    expect(await h.execute(ack.execution_id)).toEqual({ kind: 'finished', status: EXECUTION_STATUS.completed });
  });

  it.each([
    ['queued', EXECUTION_STATUS.queued],
    ['executing', EXECUTION_STATUS.executing],
    ['completed', EXECUTION_STATUS.completed],
    ['cancelled', EXECUTION_STATUS.cancelled],
    ['skipped', EXECUTION_STATUS.skipped],
    ['retried', EXECUTION_STATUS.retried],
  ] as [string, ExecutionStatus][])('answers 409 state for a %s execution, writing nothing', async (label, status) => {
    // Prepare
    const h = await engineHarness();
    const ann = await h.contact();
    const execution = await h.queued(ann, { status });
    const before = await h.storedContact(ann.id);

    // Act
    const error = await h.retry(execution.id).catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      status: 409,
      items: [
        {
          condition: 'state',
          key: 'execution_id',
          error: `Only a failed execution can be retried; this one is ${label}`,
        },
      ],
    });
    expect(await h.execution(execution.id)).toEqual(execution);
    expect((await h.stores.executions.list(CLIENT_ID, { page: 1, perPage: 10 })).total).toBe(1);
    expect(await h.storedContact(ann.id)).toEqual(before);
    expect(h.queue.sent).toEqual([]);
  });

  it('answers 404 for an execution the client does not have', async () => {
    const h = await engineHarness();

    await expect(h.retry(123)).rejects.toMatchObject({
      status: 404,
      items: [{ condition: 'not_found', key: 'execution_id' }],
    });
  });
});
