import { describe, expect, it } from 'vitest';
import { EXECUTION_STATUS } from '../../../../shared/domain/executions/execution-record.js';
import { CLIENT_ID, engineHarness, NOW } from './engine-harness.js';

const listAll = async (h: Awaited<ReturnType<typeof engineHarness>>) =>
  (await h.stores.executions.list(CLIENT_ID, { page: 1, perPage: 100 })).executions;

describe('processEvent (memory ports)', () => {
  it('starts one execution per enabled workflow the event triggers, and dispatches each for its send time', async () => {
    // Prepare: signup triggers welcome (1, at once) and onboarding tips (2: a day later, then the next 09:00).
    const h = await engineHarness({ enabled_workflows: [1, 2] });
    const ann = await h.contact();
    const event = await h.ingest({ type: 'signup', email: ann.email });

    // Act
    const processed = await h.process(event.id);

    // Assess
    const executions = await listAll(h);
    const welcome = executions.find((e) => e.workflow_id === 1)!;
    const tips = executions.find((e) => e.workflow_id === 2)!;
    expect(executions).toHaveLength(2);
    expect(welcome).toMatchObject({
      status: EXECUTION_STATUS.queued,
      contact_id: ann.id,
      event_id: event.id,
      scheduled_for: NOW,
    });
    expect(tips).toMatchObject({ status: EXECUTION_STATUS.queued, scheduled_for: '2026-01-17T09:00:00.000Z' });
    expect(processed).toMatchObject({ queue_status: 'processed', contact_id: ann.id, processed_at: NOW });
    expect([...processed!.execution_ids!].sort()).toEqual([welcome.id, tips.id].sort());
    expect(await h.stores.events.get(CLIENT_ID, event.id)).toEqual(processed);
    expect(h.queue.sent).toEqual([
      { queue: 'workflow', message: { client_id: CLIENT_ID, execution_id: welcome.id }, options: { delaySeconds: 0 } },
    ]);
    expect(h.scheduler.scheduled).toEqual([
      {
        instant: '2026-01-17T09:00:00.000Z',
        queue: 'workflow',
        message: { client_id: CLIENT_ID, execution_id: tips.id },
        name: `exec-${CLIENT_ID}-${tips.id}-${Date.parse('2026-01-17T09:00:00.000Z')}`,
      },
    ]);
    expect(await h.storedContact(ann.id)).toMatchObject({
      active_workflow_count: 2,
      tags: ['stage:signed_up'],
      last_activity_at: NOW,
    });
  });

  it('starts nothing for a workflow the client disabled', async () => {
    // Prepare: trial_ending triggers workflow 3 only, which this client does not run.
    const h = await engineHarness({ enabled_workflows: [1, 2] });
    const ann = await h.contact();
    const event = await h.ingest({ type: 'trial_ending', email: ann.email });

    // Act
    const processed = await h.process(event.id);

    // Assess
    expect(processed).toMatchObject({ queue_status: 'processed', contact_id: ann.id, execution_ids: [] });
    expect(await listAll(h)).toEqual([]);
    expect(h.queue.sent).toEqual([]);
    expect(h.scheduler.scheduled).toEqual([]);
    expect((await h.storedContact(ann.id))?.active_workflow_count).toBe(0);
  });

  it('answers contact_not_found for an unknown contact, creating none', async () => {
    // Prepare
    const h = await engineHarness();
    const event = await h.ingest({ type: 'signup', email: 'stranger@example.com' });

    // Act
    const processed = await h.process(event.id);

    // Assess
    expect(processed).toMatchObject({ queue_status: 'failed', process_error: 'contact_not_found', execution_ids: [] });
    expect(await h.stores.events.get(CLIENT_ID, event.id)).toEqual(processed);
    expect(await h.stores.contacts.getByEmail(CLIENT_ID, 'stranger@example.com')).toBeUndefined();
    expect(await listAll(h)).toEqual([]);
    expect(h.queue.sent).toEqual([]);
  });

  it('creates the unknown contact of an event with auto_create_contact (source api) and starts its workflows', async () => {
    // Prepare
    const h = await engineHarness({ enabled_workflows: [1] });
    const event = await h.ingest({ type: 'signup', email: 'new@example.com', uid: 'crm-9', auto_create_contact: true });

    // Act
    const processed = await h.process(event.id);

    // Assess
    const created = await h.stores.contacts.getByEmail(CLIENT_ID, 'new@example.com');
    expect(created).toMatchObject({
      client_contact_id: 'crm-9',
      source: 1,
      is_subscribed: true,
      active_workflow_count: 1,
    });
    expect(processed).toMatchObject({
      queue_status: 'processed',
      contact_id: created!.id,
      contact: { email: 'new@example.com' },
    });
    expect((await listAll(h)).map((e) => [e.workflow_id, e.contact_id])).toEqual([[1, created!.id]]);
    expect(h.queue.sent).toHaveLength(1);
  });

  it('only dispatches again the executions of an event delivered again after it was processed', async () => {
    // Prepare
    const h = await engineHarness({ enabled_workflows: [1] });
    const ann = await h.contact();
    const event = await h.ingest({ type: 'signup', email: ann.email });
    const first = await h.process(event.id);
    const [welcome] = await listAll(h);
    h.clock.advance(60_000);

    // Act
    const again = await h.process(event.id);

    // Assess
    expect(again).toEqual(first);
    expect(await listAll(h)).toEqual([welcome]);
    expect((await h.storedContact(ann.id))?.active_workflow_count).toBe(1);
    const dispatch = {
      queue: 'workflow',
      message: { client_id: CLIENT_ID, execution_id: welcome!.id },
      options: { delaySeconds: 0 },
    };
    expect(h.queue.sent).toEqual([dispatch, dispatch]);
  });
});
