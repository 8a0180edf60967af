import { describe, expect, inject, it } from 'vitest';
import { createContainer, type Container } from '../../../shared/composition/container.js';
import { journeyStore } from '../../../shared/composition/providers/journey-store.js';
import { loadConfig } from '../../../shared/config.js';
import { call } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { addTestUser, asSession, createAccountClient, signIn } from '../support/sessions.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let container: Container | undefined;
/** The client's journey index as stored in DynamoDB Local (what event processing reads). */
const indexOf = async (clientId: number) => {
  container ??= createContainer({
    config: loadConfig({
      AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
      TABLE_NAME: inject('tableName'),
      AWS_REGION: process.env['AWS_REGION'] ?? 'us-east-1',
      CONFIG_CACHE_TTL_SECONDS: '0',
    }),
  });
  return container.resolve([journeyStore]).journeys.index(clientId);
};

/** The issue's three-step cart journey: keyed wait for the checkout, else a reminder. */
const cartJourney = (templateId = 3) => ({
  trigger: { event: 'cart_abandoned', key: 'cart_id', reentry: { mode: 'always' } },
  entry: 'wait_checkout',
  steps: [
    {
      id: 'wait_checkout',
      type: 'wait_for_event',
      event: 'checkout_completed',
      match_key: true,
      timeout_minutes: 240,
      on_event: null,
      on_timeout: 'remind',
    },
    { id: 'remind', type: 'send', template_id: templateId, send_time: { mode: 0 }, next: null },
  ],
  settings: { category: 'marketing', topic_id: null, critical: false, exit_events: [], conversion_window_days: 7 },
});

type Definition = ReturnType<typeof cartJourney>;
const withSteps = (definition: Definition, steps: unknown[], entry = definition.entry) => ({
  ...definition,
  entry,
  steps,
});

describe('journeys over HTTP', () => {
  it('creates, reads, lists, renames, saves a draft and validates a journey', async () => {
    const { api_key: key } = await createTestClient('starter');

    const created = await call('POST', '/client/journeys', {
      key,
      body: { name: ' Cart abandonment ', description: 'Remind after 4 h', definition: cartJourney() },
    });
    const got = await call('GET', '/client/journeys/1000', { key });
    const listed = await call('GET', '/client/journeys', { key });
    const renamed = await call('PATCH', '/client/journeys/1000', { key, body: { name: 'Cart' } });
    const saved = await call('PUT', '/client/journeys/1000/draft', {
      key,
      body: { draft_version: 1, definition: { ...cartJourney(), entry: 'nowhere' } },
    });
    const stale = await call('PUT', '/client/journeys/1000/draft', {
      key,
      body: { draft_version: 1, definition: cartJourney() },
    });
    const validated = await call('POST', '/client/journeys/1000/validate', { key });

    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: 1000,
      name: 'Cart abandonment',
      description: 'Remind after 4 h',
      system: false,
      status: 'draft',
      enabled: null,
      live_version: null,
      draft: cartJourney(),
      draft_version: 1,
      issues: [],
      live: null,
      copied_from: null,
      created_at: expect.stringMatching(RFC3339),
      updated_at: expect.stringMatching(RFC3339),
    });
    expect(got.body.data).toEqual(created.body.data);
    expect(listed.body.meta).toMatchObject({ total: 9, max_journeys: 5 });
    expect(listed.body.data.journeys.map((j: { id: number }) => j.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 1000]);
    expect(listed.body.data.journeys[0]).toMatchObject({ id: 1, system: true, status: 'live', enabled: true });
    expect(listed.body.data.journeys[8]).toEqual({
      id: 1000,
      name: 'Cart abandonment',
      description: 'Remind after 4 h',
      system: false,
      status: 'draft',
      enabled: null,
      live_version: null,
      updated_at: expect.stringMatching(RFC3339),
    });
    expect(renamed.body.data).toMatchObject({ name: 'Cart', description: 'Remind after 4 h' });
    // A half-done draft saves; its issues say what keeps it from publishing.
    expect(saved.status).toBe(200);
    expect(saved.body.data.draft_version).toBe(2);
    expect(saved.body.data.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'entry', condition: 'reference' })]),
    );
    expect(stale.status).toBe(409);
    expect(stale.body.errors).toEqual([expect.objectContaining({ condition: 'state', key: 'draft_version' })]);
    expect(validated.body.data).toMatchObject({ valid: false, impact: [], counted_at: null });
    expect(validated.body.data.issues).toEqual(saved.body.data.issues);
  });

  it('starts from a skeleton whose issues name what is left, and from a copy of a system journey', async () => {
    const { api_key: key } = await createTestClient('starter');

    const skeleton = await call('POST', '/client/journeys', { key, body: { name: 'Empty' } });
    const copy = await call('POST', '/client/journeys', { key, body: { name: 'My trial', copy_of: 3 } });
    const both = await call('POST', '/client/journeys', {
      key,
      body: { name: 'x', copy_of: 3, definition: cartJourney() },
    });
    const otherCopy = await call('POST', '/client/journeys', { key, body: { name: 'x', copy_of: 999 } });

    expect(skeleton.status).toBe(201);
    expect(skeleton.body.data.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      'steps.0.template_id',
      'trigger.event',
    ]);
    expect(copy.status).toBe(201);
    expect(copy.body.data).toMatchObject({ id: 1001, copied_from: 3, issues: [] });
    expect(copy.body.data.draft.trigger.event).toBe('trial_ending');
    expect(both.status).toBe(422);
    expect(both.body.errors).toEqual([expect.objectContaining({ condition: 'format', key: 'copy_of' })]);
    expect(otherCopy.status).toBe(404);
  });

  it('refuses a publish with every problem at once, each at its path', async () => {
    const { api_key: key } = await createTestClient('starter');
    const broken = withSteps(
      cartJourney(),
      [
        { ...cartJourney().steps[0], on_timeout: 'missing' },
        { id: 'remind', type: 'send', template_id: 999_999, send_time: { mode: 0 }, next: null },
        { id: 'orphan', type: 'exit' },
      ],
      'wait_checkout',
    );
    await call('POST', '/client/journeys', { key, body: { name: 'Broken', definition: broken } });

    const refused = await call('POST', '/client/journeys/1000/publish', { key, body: { draft_version: 1 } });
    const state = await call('GET', '/client/journeys/1000', { key });

    expect(refused.status).toBe(422);
    const keys = refused.body.errors.map((e: { key: string; condition: string }) => `${e.key} ${e.condition}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        'definition.steps.0.on_timeout reference',
        'definition.steps.1.template_id reference',
        expect.stringMatching(/^definition\.steps\.(1|2) graph$/),
      ]),
    );
    // Nothing was written: still a draft, not in the index.
    expect(state.body.data).toMatchObject({ status: 'draft', live_version: null });
  });

  it('publishes, indexes, pauses, resumes, versions, diffs and archives a journey', async () => {
    const client = await createTestClient('starter');
    const key = client.api_key;
    await call('POST', '/client/journeys', { key, body: { name: 'Cart', definition: cartJourney() } });

    const v1 = await call('POST', '/client/journeys/1000/publish', { key, body: { draft_version: 1 } });
    const indexAfterPublish = await indexOf(client.id);
    const v2Draft = withSteps(cartJourney(), [
      { ...cartJourney().steps[0], timeout_minutes: 120, on_timeout: 'remind_again' },
      { id: 'remind_again', type: 'send', template_id: 2, send_time: { mode: 0 }, next: null },
    ]);
    await call('PUT', '/client/journeys/1000/draft', { key, body: { draft_version: 1, definition: v2Draft } });
    const impact = await call('POST', '/client/journeys/1000/validate', { key });
    const noMove = await call('POST', '/client/journeys/1000/publish', { key, body: { draft_version: 2 } });
    const badMove = await call('POST', '/client/journeys/1000/publish', {
      key,
      body: { draft_version: 2, moves: { remind: { action: 'move_to', step_id: 'remind' }, extra: { action: 'end' } } },
    });
    const v2 = await call('POST', '/client/journeys/1000/publish', {
      key,
      body: { draft_version: 2, moves: { remind: { action: 'move_to', step_id: 'remind_again' } } },
    });
    const paused = await call('POST', '/client/journeys/1000/pause', { key });
    const pausedIndex = await indexOf(client.id);
    const pauseAgain = await call('POST', '/client/journeys/1000/pause', { key });
    const resumed = await call('POST', '/client/journeys/1000/resume', { key });
    const versions = await call('GET', '/client/journeys/1000/versions', { key });
    const version1 = await call('GET', '/client/journeys/1000/versions/1', { key });
    const missingVersion = await call('GET', '/client/journeys/1000/versions/9', { key });
    const diff = await call('GET', '/client/journeys/1000/diff?from=1&to=2', { key });
    const diffDraft = await call('GET', '/client/journeys/1000/diff?from=2&to=draft', { key });
    const deleteLive = await call('DELETE', '/client/journeys/1000', { key });
    const archived = await call('POST', '/client/journeys/1000/archive', { key });
    const archivedIndex = await indexOf(client.id);
    const saveArchived = await call('PUT', '/client/journeys/1000/draft', {
      key,
      body: { draft_version: 2, definition: cartJourney() },
    });

    expect(v1.status).toBe(201);
    expect(v1.body.data).toEqual({
      journey_id: 1000,
      version: 1,
      definition: cartJourney(),
      moves: {},
      published_at: expect.stringMatching(RFC3339),
      published_by: null,
    });
    expect(indexAfterPublish).toEqual({
      version: 1,
      journeys: [
        {
          id: 1000,
          name: 'Cart',
          status: 'live',
          live_version: 1,
          trigger: cartJourney().trigger,
          entry: 'wait_checkout',
          settings: cartJourney().settings,
          awaited_events: ['checkout_completed'],
          templates_in_use: [3],
        },
      ],
    });
    expect(impact.body.data.impact).toEqual([
      { step_id: 'wait_checkout', change: 'changed', waiting: 0 },
      { step_id: 'remind', change: 'removed', waiting: 0 },
    ]);
    expect(noMove.status).toBe(422);
    expect(noMove.body.errors).toEqual([expect.objectContaining({ condition: 'required', key: 'moves.remind' })]);
    expect(badMove.status).toBe(422);
    expect(badMove.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ condition: 'reference', key: 'moves.remind.step_id' }),
        expect.objectContaining({ condition: 'reference', key: 'moves.extra' }),
      ]),
    );
    expect(v2.status).toBe(201);
    expect(v2.body.data).toMatchObject({
      version: 2,
      moves: { remind: { action: 'move_to', step_id: 'remind_again' } },
    });
    expect(paused.body.data).toMatchObject({ status: 'paused', live_version: 2 });
    expect(pausedIndex.version).toBe(3);
    expect(pausedIndex.journeys).toEqual([
      expect.objectContaining({ id: 1000, status: 'paused', live_version: 2, templates_in_use: [2] }),
    ]);
    expect(pauseAgain.status).toBe(409);
    expect(pauseAgain.body.errors).toEqual([expect.objectContaining({ condition: 'state' })]);
    expect(resumed.body.data.status).toBe('live');
    expect(versions.body.data.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(version1.body.data.definition).toEqual(cartJourney());
    expect(missingVersion.status).toBe(404);
    expect(diff.body.data).toMatchObject({
      trigger_changed: false,
      settings_changed: false,
      added: ['remind_again'],
      removed: ['remind'],
      changed: [expect.objectContaining({ step_id: 'wait_checkout' })],
    });
    expect(diffDraft.body.data).toMatchObject({ added: [], removed: [], changed: [] });
    expect(deleteLive.status).toBe(409);
    expect(deleteLive.body.errors).toEqual([expect.objectContaining({ condition: 'state' })]);
    expect(archived.body.data.status).toBe('archived');
    expect(archivedIndex).toEqual({ version: 5, journeys: [] });
    expect(saveArchived.status).toBe(409);
  });

  it('holds the plan limit: archive and delete free a place, and the list counts them', async () => {
    const { api_key: key } = await createTestClient('free');

    const first = await call('POST', '/client/journeys', { key, body: { name: 'One' } });
    const over = await call('POST', '/client/journeys', { key, body: { name: 'Two' } });
    const deleted = await call('DELETE', '/client/journeys/1000', { key });
    const second = await call('POST', '/client/journeys', { key, body: { name: 'Two' } });
    await call('POST', '/client/journeys/1001/archive', { key });
    const third = await call('POST', '/client/journeys', { key, body: { name: 'Three' } });
    const listed = await call('GET', '/client/journeys', { key });
    const gone = await call('GET', '/client/journeys/1000', { key });

    expect(first.status).toBe(201);
    expect(over.status).toBe(409);
    expect(over.body.errors).toEqual([expect.objectContaining({ condition: 'max', key: 'journeys' })]);
    expect(deleted.body.data).toEqual({ id: 1000, name: 'One', deleted: true });
    expect(second.body.data.id).toBe(1001);
    expect(third.body.data.id).toBe(1002);
    expect(listed.body.meta.max_journeys).toBe(1);
    expect(listed.body.data.journeys.slice(8).map((j: { id: number; status: string }) => [j.id, j.status])).toEqual([
      [1001, 'archived'],
      [1002, 'draft'],
    ]);
    expect(gone.status).toBe(404);
  });

  it('creates up to the limit under concurrent requests, never beyond', async () => {
    const { api_key: key } = await createTestClient('starter');

    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => call('POST', '/client/journeys', { key, body: { name: `J${i}` } })),
    );

    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(3);
    expect(new Set(answers.filter((a) => a.status === 201).map((a) => a.body.data.id)).size).toBe(5);
  });

  it('shows system journeys read-only and answers each write on them with what to do instead', async () => {
    const { api_key: key } = await createTestClient('starter');

    const system = await call('GET', '/client/journeys/5', { key });
    const patch = await call('PATCH', '/client/journeys/5', { key, body: { name: 'x' } });
    const draft = await call('PUT', '/client/journeys/5/draft', { key, body: { draft_version: 1, definition: {} } });
    const publish = await call('POST', '/client/journeys/5/publish', { key, body: { draft_version: 1 } });
    const pause = await call('POST', '/client/journeys/5/pause', { key });
    const remove = await call('DELETE', '/client/journeys/5', { key });
    const versions = await call('GET', '/client/journeys/5/versions', { key });

    expect(system.body.data).toMatchObject({
      id: 5,
      system: true,
      status: 'live',
      enabled: true,
      draft: null,
      draft_version: 0,
      live_version: null,
    });
    expect(system.body.data.live.trigger.event).toBe('payment_failed');
    expect(system.body.data.live.settings.category).toBe('transactional');
    expect([patch.status, patch.body.errors[0].condition]).toEqual([422, 'read_only']);
    expect([draft.status, draft.body.errors[0].condition]).toEqual([422, 'read_only']);
    for (const answer of [publish, pause, remove]) {
      expect([answer.status, answer.body.errors[0].condition]).toEqual([409, 'state']);
    }
    expect(versions.body.data).toEqual({ versions: [] });
  });

  it('publishes a copy of an enabled system journey only by disabling its workflow in the same write', async () => {
    const { api_key: key } = await createTestClient('starter');
    await call('POST', '/client/journeys', { key, body: { name: 'My welcome', copy_of: 1 } });

    const refused = await call('POST', '/client/journeys/1000/publish', { key, body: { draft_version: 1 } });
    const beforeSettings = await call('GET', '/client/journeys/1', { key });
    const published = await call('POST', '/client/journeys/1000/publish', {
      key,
      body: { draft_version: 1, disable_source_workflow: true },
    });
    const system = await call('GET', '/client/journeys/1', { key });
    const workflows = await call('GET', '/client/workflows', { key });

    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({ condition: 'state', key: 'disable_source_workflow' }),
    ]);
    expect(beforeSettings.body.data.enabled).toBe(true);
    expect(published.status).toBe(201);
    expect(system.body.data).toMatchObject({ enabled: false, status: 'paused' });
    expect(workflows.body.data.workflows.find((w: { id: number }) => w.id === 1).enabled).toBe(false);
  });

  it("answers 404 for another client's journey, whatever the verb", async () => {
    const owner = await createTestClient('starter');
    const other = await createTestClient('starter');
    await call('POST', '/client/journeys', { key: owner.api_key, body: { name: 'Mine', definition: cartJourney() } });
    await call('POST', '/client/journeys/1000/publish', { key: owner.api_key, body: { draft_version: 1 } });
    const key = other.api_key;

    const answers = await Promise.all([
      call('GET', '/client/journeys/1000', { key }),
      call('PATCH', '/client/journeys/1000', { key, body: { name: 'x' } }),
      call('DELETE', '/client/journeys/1000', { key }),
      call('PUT', '/client/journeys/1000/draft', { key, body: { draft_version: 1, definition: {} } }),
      call('POST', '/client/journeys/1000/validate', { key }),
      call('POST', '/client/journeys/1000/publish', { key, body: { draft_version: 1 } }),
      call('POST', '/client/journeys/1000/pause', { key }),
      call('POST', '/client/journeys/1000/resume', { key }),
      call('POST', '/client/journeys/1000/archive', { key }),
      call('GET', '/client/journeys/1000/versions', { key }),
      call('GET', '/client/journeys/1000/versions/1', { key }),
      call('GET', '/client/journeys/1000/diff?from=1&to=draft', { key }),
      call('POST', '/client/journeys', { key, body: { name: 'x', copy_of: 1000 } }),
    ]);

    for (const answer of answers) {
      expect(answer.status, answer.text.slice(0, 200)).toBe(404);
      expect(answer.body.errors[0].condition).toBe('not_found');
    }
    // The owner's journey is untouched.
    const mine = await call('GET', '/client/journeys/1000', { key: owner.api_key });
    expect(mine.body.data).toMatchObject({ name: 'Mine', status: 'live', live_version: 1 });
  });

  it('refuses to delete a template a live journey sends, and allows it once the journey is archived', async () => {
    const { api_key: key } = await createTestClient('starter');
    const template = await call('POST', '/client/email-templates', {
      key,
      body: { name: 'Reminder', subject: 'Your cart', html_body: '<p>Back?</p>', text_body: 'Back?' },
    });
    const templateId = template.body.data.id as number;
    await call('POST', '/client/journeys', { key, body: { name: 'Cart', definition: cartJourney(templateId) } });
    await call('POST', '/client/journeys/1000/publish', { key, body: { draft_version: 1 } });

    const refused = await call('DELETE', `/client/email-templates/${templateId}`, { key });
    await call('POST', '/client/journeys/1000/archive', { key });
    const allowed = await call('DELETE', `/client/email-templates/${templateId}`, { key });

    expect(template.status).toBe(201);
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([expect.objectContaining({ condition: 'state', key: 'id' })]);
    expect(refused.body.errors[0].error).toContain('Journey 1000');
    expect(allowed.status).toBe(200);
  });

  it('lets a content role edit a draft but only a manager publish', async () => {
    const client = await createAccountClient('growth');
    const member = await signIn(await addTestUser(client, 3));
    const owner = await signIn(client.email);

    const created = await asSession(member, 'POST', '/client/journeys', {
      body: { name: 'By a member', definition: cartJourney() },
    });
    const memberPublish = await asSession(member, 'POST', '/client/journeys/1000/publish', {
      body: { draft_version: 1 },
    });
    const ownerPublish = await asSession(owner, 'POST', '/client/journeys/1000/publish', {
      body: { draft_version: 1 },
    });

    expect(created.status).toBe(201);
    expect(memberPublish.status).toBe(403);
    expect(memberPublish.body.errors[0]).toMatchObject({ condition: 'forbidden', key: 'role' });
    expect(ownerPublish.status).toBe(201);
    expect(ownerPublish.body.data.published_by).toBe(client.owner_user_id);
  });
});
