import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { clientKey } from '../../../../shared/adapters/memory/engine-data.js';
import { DynamoProcessingStore } from '../../../../shared/adapters/dynamo/processing-store.js';
import { eventProcessingDeps } from '../../../../shared/domain/events/create-event.js';
import { processEvent } from '../../../../shared/domain/events/process-event.js';
import type { ProcessingCommit, ProcessingStore } from '../../../../shared/domain/events/processing-store.js';
import { compileIndex } from '../../../../shared/domain/segments/definition/specs.js';
import { openExecutionValue } from '../../../../shared/domain/workflows/goals.js';
import { JOURNEY_LIMITS } from '../../../../shared/public/journey-rules.js';
import { CLIENT_ID, engineHarness, NOW, type EngineHarness } from '../engine/engine-harness.js';
import { cartJourney, publishIndex } from './journey-fixtures.js';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dbMock = mockClient(db);
beforeEach(() => dbMock.reset());

/** The DynamoDB transaction a commit becomes (built by the real adapter against a mocked client). */
async function transactionItems(commit: ProcessingCommit): Promise<number> {
  dbMock.on(TransactWriteCommand).resolves({});
  await new DynamoProcessingStore(db, 'tbl').commit(commit);
  return dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!.length;
}

/**
 * A contact as heavy as the limits allow for one event: `runs` runs of journeys the event exits, each with a queued
 * send listed (`open_<id>`), so the event cancels each send and exits each run while it enters the journeys it triggers.
 */
async function heavy(h: EngineHarness, runs: number, openPerRun: number) {
  const exited = Array.from({ length: runs }, (_, i) =>
    cartJourney({ id: 1100 + i, trigger: { event: 'other', reentry: { mode: 'always' } }, awaited_events: [] }),
  );
  const triggered = Array.from({ length: JOURNEY_LIMITS.liveJourneysPerTrigger }, (_, i) =>
    cartJourney({
      id: 1000 + i,
      trigger: { event: 'cart_abandoned', reentry: { mode: 'always' } },
      settings: { ...cartJourney().settings, exit_events: [] },
    }),
  );
  publishIndex(
    h,
    ...triggered,
    ...exited.map((j) => ({ ...j, settings: { ...j.settings, exit_events: ['cart_abandoned'] } })),
  );
  const ann = await h.contact();
  const stored = h.stores.contacts.contacts.get(clientKey(CLIENT_ID, ann.id)) as unknown as Record<string, unknown>;
  for (let i = 0; i < runs; i += 1) {
    const runId = 7000 + i;
    stored[`run_${runId}`] = { j: 1100 + i, q: 3 };
    h.stores.processing.data.runs.set(clientKey(CLIENT_ID, runId), {
      id: runId,
      client_id: CLIENT_ID,
      journey_id: 1100 + i,
      version: 3,
      contact_id: ann.id,
      event_id: 1,
      status: 'active',
      step_id: 'remind',
      seq: 3,
      step_entered_at: NOW,
      sends: {},
      branches: {},
      arms: {},
      path: [],
      event: { type: 'other', ts: NOW },
      created_at: NOW,
      updated_at: NOW,
    });
    h.stores.processing.data.runLocks.set(`RUNLOCK#${CLIENT_ID}#${1100 + i}#${ann.id}`, {
      run_id: runId,
      active: true,
      entered_at: NOW,
    });
    for (let k = 0; k < openPerRun; k += 1) {
      const execution = await h.queued(ann, {
        id: 90_000 + i * 10 + k,
        workflow_id: 1100 + i,
        cap_day: `2026-01-${15 + k}`,
      });
      stored[`open_${execution.id}`] = openExecutionValue(execution);
    }
  }
  return ann;
}

async function processRecording(h: EngineHarness, email: string) {
  const event = await h.ingest({ type: 'cart_abandoned', email });
  const commits: ProcessingCommit[] = [];
  const real = h.stores.processing;
  const processing: ProcessingStore = {
    findContactId: (c, ref) => real.findContactId(c, ref),
    loadContext: (c, id, w) => real.loadContext(c, id, w),
    commit: async (commit) => {
      commits.push(structuredClone(commit));
      return real.commit(commit);
    },
  };
  const processed = (await processEvent(
    eventProcessingDeps({ ...h.stores, queue: h.queue, scheduler: h.scheduler, processing }),
    CLIENT_ID,
    event.id,
  ))!;
  return { processed, commit: commits.at(-1)! };
}

describe('the processing commit at the limits', () => {
  it('stays under 100 items with every journey of the trigger entered and as many runs exited as a contact holds', async () => {
    // Prepare: 10 journeys triggered, 10 runs (the rest of the contact's 20) of journeys the event exits, each with a
    // queued send.
    const h = await engineHarness();
    const ann = await heavy(h, JOURNEY_LIMITS.runsPerContact - JOURNEY_LIMITS.liveJourneysPerTrigger, 1);

    // Act
    const { processed, commit } = await processRecording(h, ann.email);

    // Assess
    expect(processed.journey_entries!.filter((e) => e.outcome === 'entered')).toHaveLength(10);
    expect(commit.runExits).toHaveLength(10);
    expect(commit.cancellations).toHaveLength(10);
    // The event, 10 runs and their locks, the contact, 10 cancellations, 10 exits and their lock releases, one cap day.
    expect(await transactionItems(commit)).toBe(1 + 2 * 10 + 1 + 10 + 2 * 10 + 1);
  });

  it('refuses entries (`runs_limit`) that the commit has no room for, rather than fail the event', async () => {
    // Prepare: 10 exited runs, each with four queued sends on four days to cancel.
    const h = await engineHarness();
    const ann = await heavy(h, 10, 4);

    // Act
    const { processed, commit } = await processRecording(h, ann.email);

    // Assess
    expect(processed.queue_status).toBe('processed');
    const entered = processed.journey_entries!.filter((e) => e.outcome === 'entered').length;
    expect(entered).toBeLessThan(10);
    expect(processed.journey_entries!.filter((e) => e.outcome === 'runs_limit')).toHaveLength(10 - entered);
    expect(await transactionItems(commit)).toBeLessThanOrEqual(100);
  });

  it('keeps room for the counters of an event a segment counts, conditioned on their version', async () => {
    // Prepare: as above, and a segment counting the event's type.
    const h = await engineHarness();
    const ann = await heavy(h, 10, 4);
    const index = compileIndex([
      {
        id: 1,
        version: 1,
        definition: {
          match: 'all',
          groups: [
            { match: 'all', conditions: [{ on: 'event_count', event: 'cart_abandoned', op: 'at_least', count: 1 }] },
          ],
        },
      },
    ]);
    h.stores.processing.data.segmentIndexes.set(CLIENT_ID, { version: 1, ...index });

    // Act
    const { processed, commit } = await processRecording(h, ann.email);

    // Assess
    expect(processed.queue_status).toBe('processed');
    expect(commit.contact?.counters).toEqual({
      next: { ev_v: 1, recent: { [index.specs[0]!.id]: [expect.any(Number)] }, total: { [index.specs[0]!.id]: 1 } },
      readVersion: null,
    });
    expect(await transactionItems(commit)).toBeLessThanOrEqual(100);
    const counters = dbMock
      .commandCalls(TransactWriteCommand)[0]!
      .args[0].input.TransactItems!.find((item) => item.Update?.Key?.['sk'] === 'EVCOUNT');
    expect(counters?.Update).toMatchObject({
      ConditionExpression: 'attribute_not_exists(ev_v)',
      ExpressionAttributeValues: { ':v': 1, ':e': 'contact_counters' },
    });
  });
});
