import { describe, expect, inject, it } from 'vitest';
import { memoryStores } from '../../../shared/adapters/memory/memory-stores.js';
import { createContainer, type Container } from '../../../shared/composition/container.js';
import { clock } from '../../../shared/composition/providers/clock.js';
import { customizationStore } from '../../../shared/composition/providers/customization-store.js';
import { ids } from '../../../shared/composition/providers/ids.js';
import { journeyStore } from '../../../shared/composition/providers/journey-store.js';
import { settingsStore } from '../../../shared/composition/providers/settings-store.js';
import { templateStore } from '../../../shared/composition/providers/template-store.js';
import { segmentStore } from '../../../shared/composition/providers/segment-store.js';
import { topicStore } from '../../../shared/composition/providers/topic-store.js';
import type { Ports } from '../../../shared/composition/port-registry.js';
import { loadConfig } from '../../../shared/config.js';
import type { JourneyDefinition } from '../../../shared/domain/journeys/definition/types.js';
import { compileIndexEntry } from '../../../shared/domain/journeys/journey-index.js';
import type { JourneyRecord, JourneyVersionRecord } from '../../../shared/domain/journeys/journey-records.js';
import { changeJourneyStatus } from '../../../shared/domain/journeys/journey-lifecycle.js';
import { createJourney } from '../../../shared/domain/journeys/create-journey.js';
import { publishJourney } from '../../../shared/domain/journeys/publish-journey.js';
import { getJourney, listJourneys } from '../../../shared/domain/journeys/read-journeys.js';
import { saveDraft } from '../../../shared/domain/journeys/edit-journey.js';
import { deleteTemplate } from '../../../shared/domain/templates/delete-template.js';
import type { TemplateRecord } from '../../../shared/domain/templates/template-store.js';
import { AT, freshClientId, LATER } from './support.js';

/** The JourneyStore contract, on the memory adapter and on the DynamoDB adapter against DynamoDB Local. */
type JourneyPorts = Pick<Ports, 'journeys' | 'settings' | 'templates'>;

let dynamo: Container | undefined;
const dynamoContainer = (): Container =>
  (dynamo ??= createContainer({
    config: loadConfig({
      AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
      TABLE_NAME: inject('tableName'),
      AWS_REGION: process.env['AWS_REGION'] ?? 'us-east-1',
      CONFIG_CACHE_TTL_SECONDS: '0',
    }),
  }));

const ADAPTERS: [string, () => JourneyPorts][] = [
  ['memory', () => memoryStores()],
  ['dynamodb', () => dynamoContainer().resolve([journeyStore, settingsStore, templateStore])],
];

const definition = (templateId: number): JourneyDefinition => ({
  trigger: { event: 'cart_abandoned', reentry: { mode: 'once' } },
  entry: 'remind',
  steps: [{ id: 'remind', type: 'send', template_id: templateId, send_time: { mode: 0 }, next: null }],
  settings: { category: 'marketing', topic_id: null, critical: false, exit_events: [], conversion_window_days: 7 },
});
const draftOf = (name: string, templateId = 3): Omit<JourneyRecord, 'id' | 'client_id'> => ({
  name,
  status: 'draft',
  draft: definition(templateId) as unknown as Record<string, unknown>,
  draft_version: 1,
  created_at: AT,
  updated_at: AT,
});
const templateOf = (clientId: number, id: number): TemplateRecord => ({
  id,
  client_id: clientId,
  type: 2,
  name: 'Reminder',
  subject: 'Back?',
  preview_text: '',
  html_body: '<p>Back?</p>',
  text_body: 'Back?',
  created_at: AT,
  updated_at: AT,
});

/** The version and the writes a first publish of `journey` makes. */
const firstPublish = (journey: JourneyRecord, templateIds: number[] = []) => {
  const version: JourneyVersionRecord = {
    client_id: journey.client_id,
    journey_id: journey.id,
    version: 1,
    definition: journey.draft as unknown as JourneyDefinition,
    moves: {},
    published_at: LATER,
  };
  const published: JourneyRecord = { ...journey, status: 'live', live_version: 1, updated_at: LATER };
  return {
    journey: published,
    draftVersion: journey.draft_version,
    version,
    index: { readVersion: 0, journeys: [compileIndexEntry(published, version)] },
    templateIds,
    segmentIds: [] as number[],
    at: LATER,
  };
};

describe.each(ADAPTERS)('JourneyStore contract (%s)', (_name, adapter) => {
  it('numbers journeys from 1000, counts them against the limit, and lists their summaries', async () => {
    // Prepare
    const { journeys } = adapter();
    const client = freshClientId();

    // Act
    const first = await journeys.create(client, draftOf('A'), 2);
    const second = await journeys.create(client, draftOf('B'), 2);
    const third = await journeys.create(client, draftOf('C'), 2);
    const count = await journeys.list(client);

    // Assess
    expect([first, second]).toMatchObject([{ id: 1000 }, { id: 1001 }]);
    expect(third).toBe('limit');
    expect(count).toEqual({
      n: 2,
      next_id: 1002,
      journeys: [
        { id: 1000, name: 'A', status: 'draft', updated_at: AT },
        { id: 1001, name: 'B', status: 'draft', updated_at: AT },
      ],
    });
    expect(await journeys.get(client, 1000)).toEqual({ ...draftOf('A'), id: 1000, client_id: client });
  });

  it('saves a draft only at the draft_version read, and renames with the summary', async () => {
    // Prepare
    const { journeys } = adapter();
    const client = freshClientId();
    const journey = (await journeys.create(client, draftOf('A'), 5)) as JourneyRecord;

    // Act
    const saved = await journeys.saveDraft(journey, { steps: [] }, 1, LATER);
    const stale = await journeys.saveDraft(journey, { steps: [1] }, 1, LATER);
    const renamed = await journeys.rename({ ...journey, name: 'Renamed', description: 'Why' }, LATER);

    // Assess
    expect([saved, stale, renamed]).toEqual(['done', 'stale', 'done']);
    expect(await journeys.get(client, 1000)).toMatchObject({
      name: 'Renamed',
      description: 'Why',
      draft: { steps: [] },
      draft_version: 2,
      updated_at: LATER,
    });
    expect((await journeys.list(client)).journeys).toEqual([
      { id: 1000, name: 'Renamed', description: 'Why', status: 'draft', updated_at: LATER },
    ]);
  });

  it('publishes all or nothing: a template deleted since validation or an index moved writes nothing', async () => {
    // Prepare
    const { journeys, templates } = adapter();
    const client = freshClientId();
    const journey = (await journeys.create(client, draftOf('A', 1500), 5)) as JourneyRecord;
    await templates.create({ ...templateOf(client, 1500), deleted_at: AT });

    // Act
    const deletedTemplate = await journeys.publish(firstPublish(journey, [1500]));
    const staleIndex = await journeys.publish({ ...firstPublish(journey), index: { readVersion: 4, journeys: [] } });

    // Assess
    expect([deletedTemplate, staleIndex]).toEqual(['stale', 'stale']);
    expect(await journeys.get(client, 1000)).toMatchObject({ status: 'draft' });
    expect(await journeys.version(client, 1000, 1)).toBeUndefined();
    expect(await journeys.index(client)).toEqual({ version: 0, journeys: [] });
  });

  it('publishes the version, the journey, the index and the summary together', async () => {
    // Prepare
    const { journeys, templates } = adapter();
    const client = freshClientId();
    const journey = (await journeys.create(client, draftOf('A', 1500), 5)) as JourneyRecord;
    await templates.create(templateOf(client, 1500));
    const write = firstPublish(journey, [1500]);

    // Act
    const outcome = await journeys.publish(write);
    const again = await journeys.publish(write);

    // Assess
    expect([outcome, again]).toEqual(['done', 'stale']);
    expect(await journeys.get(client, 1000)).toMatchObject({ status: 'live', live_version: 1 });
    expect(await journeys.version(client, 1000, 1)).toEqual(write.version);
    expect(await journeys.versions(client, 1000)).toEqual([{ version: 1, published_at: LATER }]);
    expect(await journeys.index(client)).toEqual({ version: 1, journeys: write.index.journeys });
    expect((await journeys.list(client)).journeys[0]).toMatchObject({ status: 'live', live_version: 1 });
  });

  it('writes the settings with a publish that disables a workflow, conditioned on their version', async () => {
    // Prepare
    const { journeys, settings } = adapter();
    const client = freshClientId();
    const journey = (await journeys.create(client, draftOf('A'), 5)) as JourneyRecord;
    const record = { id: client, client_id: client, tone_of_voice: 0, version: 1, created_at: AT, updated_at: LATER };

    // Act
    const staleSettings = await journeys.publish({
      ...firstPublish(journey),
      settings: { record: { ...record, enabled_workflows: [2] }, expectedVersion: 3 },
    });
    const published = await journeys.publish({
      ...firstPublish(journey),
      settings: { record: { ...record, enabled_workflows: [2] }, expectedVersion: undefined },
    });

    // Assess
    expect([staleSettings, published]).toEqual(['stale', 'done']);
    expect((await settings.load(client, '2026-11')).settings).toMatchObject({ enabled_workflows: [2], version: 1 });
  });

  it('archives with the index and frees the count; deletes only a draft never published', async () => {
    // Prepare
    const { journeys } = adapter();
    const client = freshClientId();
    const live = (await journeys.create(client, draftOf('A'), 2)) as JourneyRecord;
    const draft = (await journeys.create(client, draftOf('B'), 2)) as JourneyRecord;
    await journeys.publish(firstPublish(live));

    // Act
    const wrongFrom = await journeys.changeStatus({ journey: live, from: 'paused', to: 'live', at: LATER });
    const archived = await journeys.changeStatus({
      journey: live,
      from: 'live',
      to: 'archived',
      index: { readVersion: 1, journeys: [] },
      at: LATER,
    });
    const deleteLive = await journeys.delete({ ...live, status: 'draft' });
    const deleted = await journeys.delete(draft);
    const count = await journeys.list(client);

    // Assess
    expect([wrongFrom, archived, deleteLive, deleted]).toEqual(['stale', 'done', 'stale', 'done']);
    expect(await journeys.index(client)).toEqual({ version: 2, journeys: [] });
    expect(count.n).toBe(0);
    expect(count.journeys).toEqual([{ id: 1000, name: 'A', status: 'archived', live_version: 1, updated_at: LATER }]);
    expect(await journeys.get(client, 1001)).toBeUndefined();
  });

  it('deletes a template only while the journey index is at the version read', async () => {
    // Prepare
    const { journeys, templates } = adapter();
    const client = freshClientId();
    await templates.create(templateOf(client, 1500));
    const template = (await templates.get(client, 1500))!;
    const journey = (await journeys.create(client, draftOf('A'), 5)) as JourneyRecord;
    await journeys.publish(firstPublish(journey));

    // Act
    const moved = await templates.softDelete(template, [], LATER, 0);
    const deleted = await templates.softDelete(template, [], LATER, 1);

    // Assess
    expect(moved).toEqual({ kind: 'journeys_changed' });
    expect(deleted).toMatchObject({ kind: 'deleted' });
  });
});

describe('journey requests on DynamoDB', () => {
  it('lists in one wave of two reads, creates with three requests, publishes with two, gets with two', async () => {
    // Prepare
    const container = dynamoContainer();
    const deps = container.resolve([
      journeyStore,
      settingsStore,
      customizationStore,
      templateStore,
      topicStore,
      segmentStore,
      clock,
      ids,
    ]);
    const client = freshClientId();
    const counter = container.requestCounter;
    const { result: created, usage: create } = await counter.measure(() =>
      createJourney(deps, client, { name: 'Cart', definition: definition(3) as unknown as Record<string, unknown> }),
    );

    // Act
    const { usage: list } = await counter.measure(() => listJourneys(deps, client));
    const { usage: publish } = await counter.measure(() =>
      publishJourney(deps, { clientId: client }, created.id, { draft_version: 1 }),
    );
    const { usage: get } = await counter.measure(() => getJourney(deps, client, created.id));
    const { usage: save } = await counter.measure(() =>
      saveDraft(deps, client, created.id, { draft_version: 1, definition: { steps: [] } }),
    );
    const { usage: pause } = await counter.measure(() => changeJourneyStatus(deps, client, created.id, 'pause'));

    // Assess
    // Create: the settings (plan) | the count read, then the transaction.
    expect(create).toMatchObject({
      requests: 3,
      by_command: { BatchGetItemCommand: 1, GetItemCommand: 1, TransactWriteItemsCommand: 1 },
    });
    expect(list).toMatchObject({ requests: 2, waves: 1 });
    // Publish: journey + index in one BatchGet, then the transaction (a system template: nothing else to read).
    expect(publish).toMatchObject({
      requests: 2,
      by_command: { BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 },
    });
    // Get: the journey, then its live version.
    expect(get).toMatchObject({ requests: 2, by_command: { GetItemCommand: 2 } });
    expect(save).toMatchObject({ requests: 2, by_command: { GetItemCommand: 1, TransactWriteItemsCommand: 1 } });
    // Pause: journey + index, the transaction, then the answer's live version.
    expect(pause).toMatchObject({
      requests: 3,
      by_command: { BatchGetItemCommand: 1, TransactWriteItemsCommand: 1, GetItemCommand: 1 },
    });
  });

  it('refuses to delete a template a published journey sends, reading the index beside the template', async () => {
    // Prepare
    const container = dynamoContainer();
    const deps = container.resolve([journeyStore, templateStore, clock]);
    const client = freshClientId();
    await deps.templates.create(templateOf(client, 1500));
    const journey = (await deps.journeys.create(client, draftOf('A', 1500), 5)) as JourneyRecord;
    await deps.journeys.publish(firstPublish(journey, [1500]));

    // Act
    const refused = await container.requestCounter.measure(() =>
      deleteTemplate(deps, client, 1500).catch((error: unknown) => error),
    );

    // Assess
    expect(refused.result).toMatchObject({ status: 409, items: [{ condition: 'state', key: 'id' }] });
    expect(refused.usage).toMatchObject({ requests: 2, waves: 1 });
    expect((await deps.templates.get(client, 1500))?.deleted_at).toBeUndefined();
  });
});
