import { memoryClientAdapters } from '../../../../shared/adapters/memory/client-stores.js';
import { MemoryContactStore } from '../../../../shared/adapters/memory/contact-store.js';
import {
  clientKey,
  MemoryEngineData,
  sentEmailKey,
  type MemoryJourneyReads,
} from '../../../../shared/adapters/memory/engine-data.js';
import { MemoryRunStore } from '../../../../shared/adapters/memory/run-store.js';
import { MemorySettingsStore } from '../../../../shared/adapters/memory/settings-store.js';
import { MemoryTopicStore } from '../../../../shared/adapters/memory/topic-store.js';
import { MemoryWorkflowData } from '../../../../shared/adapters/memory/workflow-data.js';
import type { ContactRecord } from '../../../../shared/domain/contacts/contact-store.js';
import type { ExecutionRecord } from '../../../../shared/domain/executions/execution-record.js';
import type { JourneyIndex, JourneyVersionRecord } from '../../../../shared/domain/journeys/journey-records.js';
import { advanceRun, type AdvanceDeps } from '../../../../shared/domain/runs/advance-run.js';
import type { RunRecord } from '../../../../shared/domain/runs/run-record.js';
import type { RunStore } from '../../../../shared/domain/runs/run-store.js';
import type { SettingsRecord } from '../../../../shared/domain/settings/settings-store.js';
import type { RunMessage } from '../../../../shared/platform.js';
import { contactRecord } from '../../support/contact-fixtures.js';
import { RecordingQueue, RecordingScheduler } from '../engine/engine-harness.js';
import type { JourneyStep } from '../../../../shared/domain/journeys/definition/types.js';
import { definitionOf, indexedOf, indexOf, RUN_CLIENT, runRecord, versionOf } from './run-fixtures.js';

/** The journey index and versions a test publishes by hand. */
export class TestJourneys implements MemoryJourneyReads {
  readonly indexes = new Map<number, JourneyIndex>();
  readonly versions = new Map<string, JourneyVersionRecord>();
  indexOf(clientId: number): JourneyIndex | undefined {
    return this.indexes.get(clientId);
  }
  versionOf(clientId: number, journeyId: number, version: number): JourneyVersionRecord | undefined {
    return this.versions.get(`${clientId}#${journeyId}#${version}`);
  }
  publish(version: JourneyVersionRecord): void {
    this.versions.set(`${version.client_id}#${version.journey_id}#${version.version}`, version);
  }
}

/**
 * The run store's port as the DynamoDB adapter costs it: each `read` one BatchGetItem (the versions it names with it),
 * each `transition` one TransactWriteItems, `versions` none once cached (this counts the calls that would miss the
 * container's cache).
 */
export class CountingRuns implements RunStore {
  reads = 0;
  transitions = 0;
  versionReads = 0;
  private readonly seenVersions = new Set<string>();
  /** Set to make the next transition commit and then throw (the answer lost after DynamoDB wrote it). */
  loseNextAnswer = false;
  constructor(private readonly inner: RunStore) {}
  read: RunStore['read'] = async (clientId, wants) => {
    this.reads += 1;
    const reads = await this.inner.read(clientId, wants);
    // The versions a message names come with the read, and stay in the container's cache after it.
    for (const v of reads.versions ?? [])
      this.seenVersions.add(`${clientId}#${wants.versions!.journeyId}#${v.version}`);
    return reads;
  };
  versions: RunStore['versions'] = (clientId, journeyId, versions) => {
    const missing = versions.filter((v) => !this.seenVersions.has(`${clientId}#${journeyId}#${v}`));
    if (missing.length > 0) this.versionReads += 1;
    for (const v of versions) this.seenVersions.add(`${clientId}#${journeyId}#${v}`);
    return this.inner.versions(clientId, journeyId, versions);
  };
  transition: RunStore['transition'] = async (t) => {
    this.transitions += 1;
    const outcome = await this.inner.transition(t);
    if (this.loseNextAnswer) {
      this.loseNextAnswer = false;
      throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    }
    return outcome;
  };
  dueBefore: RunStore['dueBefore'] = (...args) => this.inner.dueBefore(...args);
  allDue: RunStore['allDue'] = (...args) => this.inner.allDue(...args);
  eraseRuns: RunStore['eraseRuns'] = (...args) => this.inner.eraseRuns(...args);
  reset(): void {
    this.reads = 0;
    this.transitions = 0;
    this.versionReads = 0;
  }
}

/** A queue whose sends fail while `failing` (the worker's dispatch after its transaction is lost). */
export class FailingQueue extends RecordingQueue {
  failing = false;
  override async send(...args: Parameters<RecordingQueue['send']>): Promise<void> {
    if (this.failing) throw new Error('SQS unavailable');
    return super.send(...args);
  }
}

/** The run engine over memory ports: one client (settings in UTC), journeys published by hand, a fixed clock. */
export async function runWorld() {
  const { clients, clock } = memoryClientAdapters();
  const workflowData = new MemoryWorkflowData();
  const topics = new MemoryTopicStore();
  const contacts = new MemoryContactStore(topics);
  const settings = new MemorySettingsStore(clients);
  const journeys = new TestJourneys();
  const data = new MemoryEngineData();
  const runs = new CountingRuns(
    new MemoryRunStore({ contacts, clients, settings, workflowData, topics, journeys }, data),
  );
  const queue = new FailingQueue();
  const scheduler = new RecordingScheduler();
  const at = clock.now().toISOString();
  await settings.save(
    {
      id: RUN_CLIENT,
      client_id: RUN_CLIENT,
      tone_of_voice: 1,
      version: 1,
      created_at: at,
      updated_at: at,
      timezone: 'UTC',
    },
    undefined,
  );
  const deps: AdvanceDeps = { runs, contacts, clock, queue, scheduler };
  return {
    clock,
    data,
    runs,
    queue,
    scheduler,
    journeys,
    contacts,
    topics,
    deps,
    advance: (message: RunMessage) => advanceRun(deps, message),
    /** The client's settings, these fields changed. */
    async settings(clientId: number, fields: Partial<SettingsRecord>): Promise<void> {
      const current = settings.settings.get(clientId)!;
      await settings.save({ ...current, ...fields, version: current.version + 1 }, current.version);
    },
    async contact(fields: Partial<ContactRecord> = {}): Promise<ContactRecord> {
      const contact = contactRecord({ id: 100, client_id: RUN_CLIENT, client_contact_id: undefined, ...fields });
      await contacts.create(contact);
      return contact;
    },
    /** A run as event processing starts it (its `run_<id>` marker and its lock with it). */
    start(run: RunRecord): void {
      data.runs.set(clientKey(run.client_id, run.id), structuredClone(run));
      const stored = contacts.contacts.get(clientKey(run.client_id, run.contact_id)) as
        | Record<string, unknown>
        | undefined;
      if (stored) stored[`run_${run.id}`] = { j: run.journey_id, q: 1 };
    },
    lock(run: RunRecord, active = true): void {
      data.runLocks.set(`RUNLOCK#${run.client_id}#${run.journey_id}#${run.contact_id}#${run.key_hash}`, {
        run_id: run.id,
        active,
        entered_at: run.created_at,
      });
    },
    run: (id: number) => data.runs.get(clientKey(RUN_CLIENT, id)),
    stored: (id: number) =>
      contacts.contacts.get(clientKey(RUN_CLIENT, id)) as (ContactRecord & Record<string, unknown>) | undefined,
    execution: (id: number) => data.executions.get(clientKey(RUN_CLIENT, id)),
    /** The executor ended the execution (status `status`). */
    endExecution(id: number, status: ExecutionRecord['status']): void {
      const execution = data.executions.get(clientKey(RUN_CLIENT, id))!;
      execution.status = status;
    },
    /** A human opened (and clicked) this e-mail: the counted markers tracking writes once. */
    engage(sentEmailId: string, kind: 'open' | 'click'): void {
      data.countedEngagement.add(`${sentEmailKey(RUN_CLIENT, sentEmailId)}\u0000${kind}`);
    },
    journeyMessages: () => queue.sent.filter((s) => s.queue === 'journey').map((s) => s.message as RunMessage),
  };
}

export type RunWorld = Awaited<ReturnType<typeof runWorld>>;

/** Publishes `steps` as the journey's version 1 (live) in `world` and starts a run (locked) at the first step. */
export function startJourney(world: RunWorld, steps: JourneyStep[]): void {
  const definition = definitionOf(steps);
  world.journeys.publish(versionOf(definition, 1));
  world.journeys.indexes.set(RUN_CLIENT, indexOf(indexedOf(definition)));
  const run = runRecord({ step_id: steps[0]!.id });
  world.start(run);
  world.lock(run);
}
