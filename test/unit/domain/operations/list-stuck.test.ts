import { describe, expect, it } from 'vitest';
import { FixedClock } from '../../../../shared/adapters/memory/client-stores.js';
import { clientKey } from '../../../../shared/adapters/memory/engine-data.js';
import { memoryStores } from '../../../../shared/adapters/memory/memory-stores.js';
import type { EventRecord } from '../../../../shared/domain/events/event-record.js';
import {
  EXECUTION_STATUS,
  type ExecutionRecord,
  type ExecutionStatus,
} from '../../../../shared/domain/executions/execution-record.js';
import type { ExecutionStore } from '../../../../shared/domain/executions/execution-store.js';
import { listStuck } from '../../../../shared/domain/operations/list-stuck.js';

const NOW = '2026-01-15T10:00:00.000Z';
const ago = (seconds: number) => new Date(Date.parse(NOW) - seconds * 1000).toISOString();
const LEASE = { leaseMs: 600_000, queuedMs: 120_000 };

function execution(
  id: number,
  status: ExecutionStatus,
  updatedAt: string,
  fields: Partial<ExecutionRecord> = {},
): ExecutionRecord {
  return {
    id,
    client_id: 7,
    workflow_id: 1,
    contact_id: 3,
    event_id: null,
    status,
    is_test: false,
    attempt: 1,
    template_id: 1,
    priority_score: 90,
    critical: false,
    cap_day: '2026-01-15',
    scheduled_for: ago(3_600),
    created_at: ago(3_600),
    updated_at: updatedAt,
    ...fields,
  };
}

function event(id: number, createdAt: string): EventRecord {
  return {
    id,
    client_id: 8,
    type: 'signup',
    email: 'ann@example.com',
    auto_create_contact: false,
    ts: createdAt,
    payload: { type: 'signup', email: 'ann@example.com' },
    mode: 'async',
    queue_status: 'queued',
    retry_count: 0,
    created_at: createdAt,
  };
}

async function storesWith(executions: ExecutionRecord[], events: EventRecord[] = []) {
  const stores = memoryStores();
  for (const e of executions) stores.executions.data.executions.set(clientKey(e.client_id, e.id), e);
  for (const e of events) await stores.events.insert(e);
  return { executions: stores.executions, events: stores.events, clock: new FixedClock(new Date(NOW)) };
}

describe('listStuck', () => {
  it('lists the executions at 2 past their lease and the queued ones a lease past due, oldest first, with why each waits and how long past the lease', async () => {
    // Prepare
    const deps = await storesWith([
      execution(1, EXECUTION_STATUS.executing, ago(700), { outcome_unknown: true, reason: 'send_outcome_unknown' }),
      execution(2, EXECUTION_STATUS.executing, ago(3_600), { retry_pending: true, reason: 'ses_throttled' }),
      execution(3, EXECUTION_STATUS.executing, ago(599)),
      execution(4, EXECUTION_STATUS.completed, ago(3_600)),
      execution(5, EXECUTION_STATUS.queued, ago(3_600)),
    ]);

    // Act
    const listing = await listStuck(deps, LEASE);

    // Assess
    expect(listing).toEqual({
      at: NOW,
      executions: [
        {
          client_id: 7,
          execution_id: 2,
          status: 2,
          reason: 'ses_throttled',
          outcome_unknown: false,
          retry_pending: true,
          updated_at: ago(3_600),
          scheduled_for: ago(3_600),
          past_lease_seconds: 3_000,
        },
        {
          // Queued, due an hour ago: its message was lost, the sweep sends it.
          client_id: 7,
          execution_id: 5,
          status: 1,
          reason: null,
          outcome_unknown: false,
          retry_pending: false,
          updated_at: ago(3_600),
          scheduled_for: ago(3_600),
          past_lease_seconds: 3_000,
        },
        {
          client_id: 7,
          execution_id: 1,
          status: 2,
          reason: 'send_outcome_unknown',
          outcome_unknown: true,
          retry_pending: false,
          updated_at: ago(700),
          scheduled_for: ago(3_600),
          past_lease_seconds: 100,
        },
      ],
      events: [],
      more: { executions: false, events: false },
    });
  });

  it('lists the events queued longer than the sweeper waits, oldest first, with their age', async () => {
    // Prepare
    const deps = await storesWith([], [event(11, ago(121)), event(12, ago(900)), event(13, ago(119))]);
    await deps.events.insert(event(14, ago(1_000)));
    // Processed meanwhile: no longer queued.
    deps.events.data.queuedIndex.delete(clientKey(8, 14));

    // Act
    const listing = await listStuck(deps, LEASE);

    // Assess
    expect(listing.events).toEqual([
      { client_id: 8, event_id: 12, created_at: ago(900), age_seconds: 900 },
      { client_id: 8, event_id: 11, created_at: ago(121), age_seconds: 121 },
    ]);
    expect(listing.more).toEqual({ executions: false, events: false });
  });

  it('leaves out an execution that ended or was claimed again between the index read and its own read', async () => {
    // Prepare: the index still names 1 and 2, but their records have moved on.
    const { executions, events, clock } = await storesWith([execution(3, EXECUTION_STATUS.executing, ago(900))]);
    const moved: Pick<ExecutionStore, 'listExecutingBefore' | 'get'> = {
      listExecutingBefore: async () => ({ executions: [1, 2, 3, 4].map((id) => ({ client_id: 7, execution_id: id })) }),
      get: async (clientId, id) =>
        id === 1
          ? execution(1, EXECUTION_STATUS.completed, ago(10))
          : id === 2
            ? execution(2, EXECUTION_STATUS.executing, ago(10))
            : executions.get(clientId, id),
    };

    // Act
    const listing = await listStuck({ executions: moved, events, clock }, LEASE);

    // Assess
    expect(listing.executions.map((e) => e.execution_id)).toEqual([3]);
  });

  it('pages through both indexes, stops at `limit` of each and says there is more', async () => {
    // Prepare
    const deps = await storesWith(
      Array.from({ length: 5 }, (_, i) => execution(i + 1, EXECUTION_STATUS.executing, ago(1_000 - i))),
      Array.from({ length: 5 }, (_, i) => event(i + 21, ago(1_000 - i))),
    );
    const pageSizes: number[] = [];
    const listExecutingBefore = deps.executions.listExecutingBefore.bind(deps.executions);
    deps.executions.listExecutingBefore = async (before, limit, cursor) => {
      pageSizes.push(limit);
      return listExecutingBefore(before, Math.min(limit, 2), cursor);
    };

    // Act
    const listing = await listStuck(deps, { ...LEASE, limit: 3 });

    // Assess
    expect(listing.executions.map((e) => e.execution_id)).toEqual([1, 2, 3]);
    expect(listing.events.map((e) => e.event_id)).toEqual([21, 22, 23]);
    expect(listing.more).toEqual({ executions: true, events: true });
    expect(pageSizes).toEqual([3, 1]);
  });

  it('reads the executions in parallel waves of `readWave`', async () => {
    // Prepare
    const deps = await storesWith(
      Array.from({ length: 7 }, (_, i) => execution(i + 1, EXECUTION_STATUS.executing, ago(1_000))),
    );
    let inFlight = 0;
    const waves: number[] = [];
    const get = deps.executions.get.bind(deps.executions);
    deps.executions.get = async (clientId, id) => {
      inFlight += 1;
      waves.push(inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      const record = await get(clientId, id);
      inFlight -= 1;
      return record;
    };

    // Act
    const listing = await listStuck(deps, { ...LEASE, readWave: 3 });

    // Assess
    expect(listing.executions).toHaveLength(7);
    expect(Math.max(...waves)).toBe(3);
    expect(waves).toEqual([1, 2, 3, 1, 2, 3, 1]);
  });
});
