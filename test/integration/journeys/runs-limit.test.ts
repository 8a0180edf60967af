import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../../shared/adapters/dynamo/keys.js';
import { tableOf } from '../../../shared/composition/providers/table.js';
import { eventProcessingDeps } from '../../../shared/domain/events/create-event.js';
import { ingestEvent } from '../../../shared/domain/events/ingest-event.js';
import { processEvent } from '../../../shared/domain/events/process-event.js';
import type { ProcessingStore } from '../../../shared/domain/events/processing-store.js';
import { EventBody } from '../../../shared/domain/events/schemas.js';
import type { JourneyDefinition } from '../../../shared/domain/journeys/definition/types.js';
import type { IndexedJourney } from '../../../shared/domain/journeys/journey-records.js';
import { JOURNEY_LIMITS } from '../../../shared/public/journey-rules.js';
import { createTestClient } from '../support/clients.js';
import {
  addContact,
  engineContainer,
  engineDeps,
  RecordingQueue,
  RecordingScheduler,
} from '../support/engine-components.js';

const JOURNEY = 1000;
const LIMIT = JOURNEY_LIMITS.runsPerContact;
const definition: JourneyDefinition = {
  trigger: { event: 'cart_abandoned', key: 'cart_id', reentry: { mode: 'always' } },
  entry: 'cool_down',
  steps: [{ id: 'cool_down', type: 'wait', minutes: 5, next: null }],
  settings: { category: 'marketing', topic_id: null, critical: false, exit_events: [], conversion_window_days: 7 },
};

/**
 * The runs-per-contact limit on DynamoDB Local: a contact one run short of it, and events of its that two workers
 * process at the same instant (each reads the contact before either commits), with the engine's real adapters.
 */
describe('the runs-per-contact limit, on DynamoDB', () => {
  it('lets two events processed at once start one run between them: the counter’s condition refuses the other', async () => {
    // Prepare
    const container = engineContainer({ queue: new RecordingQueue(), scheduler: new RecordingScheduler() });
    const deps = engineDeps(container);
    const client = await createTestClient();
    const { db, tableName } = tableOf(container);
    const indexed: IndexedJourney = {
      id: JOURNEY,
      name: 'Cart',
      status: 'live',
      live_version: 1,
      trigger: definition.trigger,
      entry: definition.entry,
      settings: definition.settings,
      awaited_events: [],
      templates_in_use: [],
    };
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.journeyIndex(client.id), version: 1, journeys: [indexed] },
      }),
    );
    const email = `limit-${randomUUID().slice(0, 8)}@example.com`;
    const contactId = await addContact(deps, client.id, { email });
    // LIMIT - 1 runs of another journey in flight, as event processing leaves their markers and counter.
    const markers = Object.fromEntries(Array.from({ length: LIMIT - 1 }, (_, i) => [`#m${i}`, `run_${900 + i}`]));
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.contact(client.id, contactId),
        UpdateExpression: `SET ${Object.keys(markers)
          .map((name) => `${name} = :m`)
          .join(', ')}, runs_n = :n`,
        ExpressionAttributeNames: markers,
        ExpressionAttributeValues: { ':m': { j: 1001, q: 1 }, ':n': LIMIT - 1 },
      }),
    );
    const ingested = await Promise.all(
      ['A-1', 'B-1'].map((cart) => {
        const raw = { type: 'cart_abandoned', email, cart_id: cart };
        return ingestEvent(deps, client.id, EventBody.parse(raw), raw, 'async');
      }),
    );
    const real = deps.processing;
    let firstReads = 0;
    let release!: () => void;
    const bothRead = new Promise<void>((resolve) => {
      release = resolve;
    });
    const processing: ProcessingStore = {
      findContactId: (c, ref) => real.findContactId(c, ref),
      loadContext: async (c, id, w) => {
        const context = await real.loadContext(c, id, w);
        if (firstReads < 2) {
          firstReads += 1;
          if (firstReads === 2) release();
          await bothRead;
        }
        return context;
      },
      commit: (commit) => real.commit(commit),
    };

    // Act
    const processed = await Promise.all(
      ingested.map(({ event }) => processEvent(eventProcessingDeps({ ...deps, processing }), client.id, event.id)),
    );

    // Assess
    expect(
      processed
        .flatMap((p) => p!.journey_entries ?? [])
        .map((e) => e.outcome)
        .sort(),
    ).toEqual(['entered', 'runs_limit']);
    expect(firstReads).toBe(2);
    const contact = (
      await db.send(
        new GetCommand({ TableName: tableName, Key: keys.contact(client.id, contactId), ConsistentRead: true }),
      )
    ).Item!;
    expect(Object.keys(contact).filter((name) => /^run_\d+$/.test(name))).toHaveLength(LIMIT);
    expect(contact['runs_n']).toBe(LIMIT);
  });
});
