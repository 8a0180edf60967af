import { describe, expect, it } from 'vitest';
import { EXECUTION_STATUS } from '../../../shared/domain/executions/execution-record.js';
import { createContact, ENGINE_ADAPTERS, executionRecord, nextRecordId, seedExecutions } from './engine-support.js';
import { AT, freshClientId, LATER } from './support.js';

const minute = (n: number) => new Date(Date.parse(AT) + n * 60_000).toISOString();
const page = (fields: Partial<{ page: number; perPage: number }> = {}) => ({ page: 1, perPage: 50, ...fields });

describe.each(ENGINE_ADAPTERS)('ExecutionStore contract (%s)', (_name, makeStores) => {
  it('reads an execution by id, within its client only', async () => {
    const stores = makeStores();
    const clientId = freshClientId();
    const [execution] = await seedExecutions(stores, clientId, [executionRecord(clientId, 1)]);

    expect(await stores.executions.get(clientId, execution!.id)).toEqual(execution);
    expect(await stores.executions.get(freshClientId(), execution!.id)).toBeUndefined();
  });

  it('finishes an execution unchanged since it was read, lowering the contact active count once', async () => {
    // Prepare
    const stores = makeStores();
    const clientId = freshClientId();
    const ann = await createContact(stores, clientId, { active_workflow_count: 1 });
    const [read] = await seedExecutions(stores, clientId, [
      executionRecord(clientId, ann.id, { reason: 'moved_to_preferred_time' }),
    ]);

    // Act
    const first = await stores.executions.finish(read!, {
      status: EXECUTION_STATUS.skipped,
      reason: 'unsubscribed',
      at: LATER,
    });
    const second = await stores.executions.finish(read!, {
      status: EXECUTION_STATUS.cancelled,
      reason: 'queue_timeout',
      at: LATER,
    });

    // Assess
    expect([first, second]).toEqual([true, false]);
    expect(await stores.executions.get(clientId, read!.id)).toEqual({
      ...read,
      status: EXECUTION_STATUS.skipped,
      reason: 'unsubscribed',
      processed_at: LATER,
      updated_at: LATER,
    });
    expect((await stores.contacts.get(clientId, ann.id))?.active_workflow_count).toBe(0);
    expect((await stores.delivery.load(read!)).cap).toEqual({ sent: 0, pending: {} });
  });

  it('keeps the stored reason when a finish gives none', async () => {
    const stores = makeStores();
    const clientId = freshClientId();
    const [read] = await seedExecutions(stores, clientId, [executionRecord(clientId, 1, { reason: 'kept' })]);

    expect(await stores.executions.finish(read!, { status: EXECUTION_STATUS.completed, at: LATER })).toBe(true);
    expect((await stores.executions.get(clientId, read!.id))?.reason).toBe('kept');
  });

  it('refuses to finish an execution whose updated_at moved since it was read', async () => {
    // Prepare
    const stores = makeStores();
    const clientId = freshClientId();
    const ann = await createContact(stores, clientId, { active_workflow_count: 1 });
    const [read] = await seedExecutions(stores, clientId, [executionRecord(clientId, ann.id)]);
    await stores.executions.defer(read!, minute(60), 'deferred', minute(1));
    const moved = await stores.executions.get(clientId, read!.id);

    // Act
    const outcome = await stores.executions.finish(read!, {
      status: EXECUTION_STATUS.skipped,
      reason: 'unsubscribed',
      at: LATER,
    });

    // Assess
    expect(outcome).toBe(false);
    expect(await stores.executions.get(clientId, read!.id)).toEqual(moved);
    expect((await stores.contacts.get(clientId, ann.id))?.active_workflow_count).toBe(1);
  });

  it('finishes the execution of an erased contact alone', async () => {
    const stores = makeStores();
    const clientId = freshClientId();
    const [read] = await seedExecutions(stores, clientId, [executionRecord(clientId, nextRecordId())]);

    expect(
      await stores.executions.finish(read!, {
        status: EXECUTION_STATUS.cancelled,
        reason: 'contact_erased',
        at: LATER,
      }),
    ).toBe(true);
    expect((await stores.executions.get(clientId, read!.id))?.status).toBe(EXECUTION_STATUS.cancelled);
  });

  it('defers an execution unchanged since it was read: status kept, scheduled_for and reason moved', async () => {
    // Prepare
    const stores = makeStores();
    const clientId = freshClientId();
    const [read] = await seedExecutions(stores, clientId, [executionRecord(clientId, 1)]);

    // Act
    const first = await stores.executions.defer(read!, minute(1440), 'deferred: e-mail quota reached', LATER);
    const stale = await stores.executions.defer(read!, minute(2880), 'again', LATER);

    // Assess
    expect([first, stale]).toEqual([true, false]);
    expect(await stores.executions.get(clientId, read!.id)).toEqual({
      ...read,
      scheduled_for: minute(1440),
      reason: 'deferred: e-mail quota reached',
      updated_at: LATER,
      deferrals: 1,
    });
  });

  it('lists the client executions newest first, filtered, one page at a time, with the total of matches', async () => {
    // Prepare
    const stores = makeStores();
    const clientId = freshClientId();
    const made = [0, 1, 2, 3, 4].map((n) =>
      executionRecord(clientId, 1, {
        workflow_id: n % 2 === 0 ? 1 : 2,
        status: n === 4 ? EXECUTION_STATUS.failed : EXECUTION_STATUS.queued,
        created_at: minute(n),
      }),
    );
    await seedExecutions(stores, clientId, made);
    const other = freshClientId();
    await seedExecutions(stores, other, [executionRecord(other, 1)]);
    const ids = (list: { executions: { id: number }[] }) => list.executions.map((e) => e.id);
    const [e0, e1, e2, e3, e4] = made.map((e) => e.id);

    // Act + Assess
    const all = await stores.executions.list(clientId, page());
    expect(ids(all)).toEqual([e4, e3, e2, e1, e0]);
    expect(all.total).toBe(5);
    expect(all.executions[0]).toEqual(made[4]);
    const second = await stores.executions.list(clientId, page({ page: 2, perPage: 2 }));
    expect(second).toEqual({ executions: [made[2], made[1]], total: 5, totalExact: true, next: expect.any(String) });
    // From a position (a cursor): the executions older than it, the same page as by number.
    const first = await stores.executions.list(clientId, page({ perPage: 2 }));
    expect(await stores.executions.list(clientId, { ...page({ page: 2, perPage: 2 }), after: first.next! })).toEqual(
      second,
    );
    const last = await stores.executions.list(clientId, { ...page({ page: 3, perPage: 2 }), after: second.next! });
    expect(last).toEqual({ executions: [made[0]], total: 5, totalExact: true });
    expect(await stores.executions.list(clientId, page({ page: 4, perPage: 2 }))).toEqual({
      executions: [],
      total: 5,
      totalExact: true,
    });
    expect(ids(await stores.executions.list(clientId, { ...page(), workflowId: 1 }))).toEqual([e4, e2, e0]);
    expect(ids(await stores.executions.list(clientId, { ...page(), status: EXECUTION_STATUS.failed }))).toEqual([e4]);
    expect(ids(await stores.executions.list(clientId, { ...page(), createdFrom: minute(1) }))).toEqual([
      e4,
      e3,
      e2,
      e1,
    ]);
    expect(ids(await stores.executions.list(clientId, { ...page(), createdBefore: minute(3) }))).toEqual([e2, e1, e0]);
    const window = await stores.executions.list(clientId, {
      ...page({ perPage: 1 }),
      workflowId: 2,
      createdFrom: minute(1),
      createdBefore: minute(4),
    });
    expect(window).toEqual({ executions: [made[3]], total: 2, totalExact: true, next: expect.any(String) });
    expect(await stores.executions.list(freshClientId(), page())).toEqual({
      executions: [],
      total: 0,
      totalExact: true,
    });
  });

  it('counts at most page × per_page + 100 matches per listing shard: past that, total is a lower bound', async () => {
    // Prepare: 102 executions in one listing shard (ids ≡ 0 mod 8), skipped so they wait on no day counter.
    const stores = makeStores();
    const clientId = freshClientId();
    const base = 8 * nextRecordId() * 10_000;
    const made = Array.from({ length: 102 }, (_, n) =>
      executionRecord(clientId, 1, { id: base + 8 * n, status: EXECUTION_STATUS.skipped, created_at: minute(n) }),
    );
    for (let i = 0; i < made.length; i += 90) await seedExecutions(stores, clientId, made.slice(i, i + 90));

    // Act
    const first = await stores.executions.list(clientId, page({ perPage: 1 }));
    const wider = await stores.executions.list(clientId, page({ perPage: 3 }));

    // Assess
    expect(first).toEqual({ executions: [made[101]], total: 101, totalExact: false, next: expect.any(String) });
    expect(wider).toEqual({
      executions: [made[101], made[100], made[99]],
      total: 102,
      totalExact: true,
      next: expect.any(String),
    });
  });

  it('retries a failed execution: the original retried (7), the new one stored, the contact active count raised', async () => {
    // Prepare
    const stores = makeStores();
    const clientId = freshClientId();
    const ann = await createContact(stores, clientId);
    const [failed] = await seedExecutions(stores, clientId, [
      executionRecord(clientId, ann.id, {
        status: EXECUTION_STATUS.failed,
        reason: 'MessageRejected',
        processed_at: AT,
      }),
    ]);
    const next = executionRecord(clientId, ann.id, {
      attempt: 2,
      retried_from: failed!.id,
      created_at: LATER,
      updated_at: LATER,
    });

    // Act
    const first = await stores.executions.retry(failed!, next, LATER);
    const again = await stores.executions.retry(
      failed!,
      executionRecord(clientId, ann.id, { retried_from: failed!.id }),
      LATER,
    );

    // Assess
    expect([first, again]).toEqual([true, false]);
    expect(await stores.executions.get(clientId, failed!.id)).toEqual({
      ...failed,
      status: EXECUTION_STATUS.retried,
      updated_at: LATER,
    });
    expect(await stores.executions.get(clientId, next.id)).toEqual(next);
    expect((await stores.contacts.get(clientId, ann.id))?.active_workflow_count).toBe(1);
  });

  it.each([
    ['queued', EXECUTION_STATUS.queued],
    ['executing', EXECUTION_STATUS.executing],
    ['completed', EXECUTION_STATUS.completed],
    ['skipped', EXECUTION_STATUS.skipped],
  ] as const)('refuses to retry a %s execution, writing nothing', async (_label, status) => {
    // Prepare
    const stores = makeStores();
    const clientId = freshClientId();
    const ann = await createContact(stores, clientId);
    const [original] = await seedExecutions(stores, clientId, [executionRecord(clientId, ann.id, { status })]);
    const next = executionRecord(clientId, ann.id, { retried_from: original!.id });

    // Act
    const outcome = await stores.executions.retry({ ...original!, status: EXECUTION_STATUS.failed }, next, LATER);

    // Assess
    expect(outcome).toBe(false);
    expect(await stores.executions.get(clientId, original!.id)).toEqual(original);
    expect(await stores.executions.get(clientId, next.id)).toBeUndefined();
    expect(await stores.contacts.get(clientId, ann.id)).toEqual(ann);
  });

  it('refuses to retry when the contact is gone, writing nothing', async () => {
    const stores = makeStores();
    const clientId = freshClientId();
    const contactId = nextRecordId();
    const [failed] = await seedExecutions(stores, clientId, [
      executionRecord(clientId, contactId, { status: EXECUTION_STATUS.failed }),
    ]);
    const next = executionRecord(clientId, contactId, { retried_from: failed!.id });

    expect(await stores.executions.retry(failed!, next, LATER)).toBe(false);
    expect(await stores.executions.get(clientId, failed!.id)).toEqual(failed);
    expect(await stores.executions.get(clientId, next.id)).toBeUndefined();
  });
});
