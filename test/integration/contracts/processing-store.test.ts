import { describe, expect, it } from 'vitest';
import { EXECUTION_STATUS } from '../../../shared/domain/executions/execution-record.js';
import type { SettingsRecord } from '../../../shared/domain/settings/settings-store.js';
import {
  createClient,
  createContact,
  ENGINE_ADAPTERS,
  EVENT_AT,
  eventRecord,
  executionRecord,
} from './engine-support.js';
import { AT, freshClientId, LATER } from './support.js';
import { audit } from './workflow-fixtures.js';

const settingsOf = (clientId: number): SettingsRecord => ({
  id: clientId,
  client_id: clientId,
  tone_of_voice: 1,
  version: 1,
  created_at: AT,
  updated_at: AT,
  timezone: 'Europe/Paris',
});

describe.each(ENGINE_ADAPTERS)('ProcessingStore contract (%s)', (_name, makeStores) => {
  it('finds a contact by e-mail (any case) or by uid, within its client only', async () => {
    // Prepare
    const stores = makeStores();
    const clientId = freshClientId();
    const ann = await createContact(stores, clientId, { client_contact_id: `crm-${clientId}` });

    // Act + Assess
    expect(await stores.processing.findContactId(clientId, { email: ann.email })).toBe(ann.id);
    expect(await stores.processing.findContactId(clientId, { email: ann.email.toUpperCase() })).toBe(ann.id);
    expect(await stores.processing.findContactId(clientId, { uid: `crm-${clientId}` })).toBe(ann.id);
    expect(await stores.processing.findContactId(clientId, { email: 'nobody@example.com' })).toBeUndefined();
    expect(await stores.processing.findContactId(clientId, { uid: 'crm-unknown' })).toBeUndefined();
    expect(await stores.processing.findContactId(freshClientId(), { email: ann.email })).toBeUndefined();
  });

  it('loads the contact, settings, profile and the customizations of the workflows asked for', async () => {
    // Prepare
    const stores = makeStores();
    const clientId = freshClientId();
    const client = await createClient(stores, clientId);
    const ann = await createContact(stores, clientId);
    await stores.settings.save(settingsOf(clientId), undefined);
    const change = { clientId, expectedVersion: undefined, at: AT };
    await stores.customizations.save({
      ...change,
      workflowId: 1,
      overrides: { delay_minutes: 5 },
      audit: audit(1, AT, 'a1'),
    });
    await stores.customizations.save({
      ...change,
      workflowId: 3,
      overrides: { priority_score: 7 },
      audit: audit(3, AT, 'a2'),
    });

    // Act
    const context = await stores.processing.loadContext(clientId, ann.id, [1, 2]);
    const withoutContact = await stores.processing.loadContext(clientId, undefined, []);

    // Assess
    expect(context).toEqual({
      contact: ann,
      settings: settingsOf(clientId),
      client,
      customizations: [{ workflow_id: 1, delay_minutes: 5, version: 1, updated_at: AT }],
    });
    expect(withoutContact).toEqual({ contact: undefined, settings: settingsOf(clientId), client, customizations: [] });
    expect(await stores.processing.loadContext(freshClientId(), ann.id, [1])).toEqual({
      contact: undefined,
      settings: undefined,
      client: undefined,
      customizations: [],
    });
  });

  it('commits the processed event, its executions and the contact figures together', async () => {
    // Prepare
    const stores = makeStores();
    const clientId = freshClientId();
    const ann = await createContact(stores, clientId, { active_workflow_count: 1, tags: ['plan:free'] });
    const event = eventRecord(clientId, { type: 'purchase', amount: 30 });
    await stores.events.insert(event);
    const welcome = executionRecord(clientId, ann.id, { event_id: event.id, priority_score: 90 });
    const critical = executionRecord(clientId, ann.id, {
      event_id: event.id,
      workflow_id: 5,
      critical: true,
      priority_score: 100,
    });
    const skipped = executionRecord(clientId, ann.id, {
      event_id: event.id,
      workflow_id: 2,
      status: EXECUTION_STATUS.skipped,
      reason: 'no_send_time',
      processed_at: LATER,
    });
    const processed = {
      ...event,
      queue_status: 'processed' as const,
      contact_id: ann.id,
      contact: { email: ann.email, first_name: 'Ann', last_name: null },
      execution_ids: [welcome.id, critical.id, skipped.id],
      processed_at: LATER,
    };

    // Act
    const outcome = await stores.processing.commit({
      event: processed,
      executions: [welcome, critical, skipped],
      contact: {
        contactId: ann.id,
        tags: ['plan:pro'],
        lastPurchaseAt: EVENT_AT,
        lastActivityAt: EVENT_AT,
        workflowsStarted: 2,
        at: LATER,
      },
    });

    // Assess
    expect(outcome).toBe('committed');
    expect(await stores.events.get(clientId, event.id)).toEqual(processed);
    expect(await stores.executions.get(clientId, welcome.id)).toEqual(welcome);
    expect(await stores.executions.get(clientId, critical.id)).toEqual(critical);
    expect(await stores.executions.get(clientId, skipped.id)).toEqual(skipped);
    expect(await stores.contacts.get(clientId, ann.id)).toEqual({
      ...ann,
      tags: ['plan:pro'],
      last_purchase_at: EVENT_AT,
      last_activity_at: EVENT_AT,
      active_workflow_count: 3,
      updated_at: LATER,
    });
    // Only the queued, non-critical execution waits for a slot of the contact's day.
    expect((await stores.delivery.load(welcome)).cap).toEqual({ sent: 0, pending: { [welcome.id]: 90 } });
    const queuedNow: { id: number; client_id: number }[] = [];
    let cursor: string | undefined;
    do {
      const page = await stores.events.listQueuedBefore('2091-01-01T00:00:00.000Z', 1_000, cursor);
      queuedNow.push(...page.events);
      cursor = page.cursor;
    } while (cursor !== undefined);
    expect(queuedNow.filter((e) => e.client_id === clientId)).toEqual([]);
  });

  it('answers already_processed for an event no longer queued (or missing), writing nothing', async () => {
    // Prepare
    const stores = makeStores();
    const clientId = freshClientId();
    const ann = await createContact(stores, clientId);
    const event = eventRecord(clientId);
    await stores.events.insert(event);
    const done = { ...event, queue_status: 'processed' as const, execution_ids: [], processed_at: LATER };
    await stores.processing.commit({ event: done, executions: [] });
    const late = executionRecord(clientId, ann.id, { event_id: event.id });

    // Act
    const again = await stores.processing.commit({
      event: { ...done, execution_ids: [late.id] },
      executions: [late],
      contact: { contactId: ann.id, tags: ['x'], workflowsStarted: 1, at: LATER },
    });
    const missing = await stores.processing.commit({
      event: { ...eventRecord(clientId), queue_status: 'processed' },
      executions: [],
    });

    // Assess
    expect([again, missing]).toEqual(['already_processed', 'already_processed']);
    expect(await stores.events.get(clientId, event.id)).toEqual(done);
    expect(await stores.executions.get(clientId, late.id)).toBeUndefined();
    expect(await stores.contacts.get(clientId, ann.id)).toEqual(ann);
  });

  it('answers id_taken when an execution id exists already, writing nothing', async () => {
    // Prepare
    const stores = makeStores();
    const clientId = freshClientId();
    const ann = await createContact(stores, clientId);
    const first = eventRecord(clientId);
    const second = eventRecord(clientId);
    await stores.events.insert(first);
    await stores.events.insert(second);
    const taken = executionRecord(clientId, ann.id, { event_id: first.id });
    await stores.processing.commit({ event: { ...first, queue_status: 'processed' }, executions: [taken] });
    const fresh = executionRecord(clientId, ann.id, { event_id: second.id });

    // Act
    const outcome = await stores.processing.commit({
      event: { ...second, queue_status: 'processed' },
      executions: [fresh, { ...taken, event_id: second.id, workflow_id: 2 }],
      contact: { contactId: ann.id, workflowsStarted: 2, at: LATER },
    });

    // Assess
    expect(outcome).toBe('id_taken');
    expect(await stores.events.get(clientId, second.id)).toEqual(second);
    expect(await stores.executions.get(clientId, fresh.id)).toBeUndefined();
    expect(await stores.executions.get(clientId, taken.id)).toEqual(taken);
    expect(await stores.contacts.get(clientId, ann.id)).toEqual(ann);
  });

  it('stores a failed event alone (no contact, no executions)', async () => {
    const stores = makeStores();
    const clientId = freshClientId();
    const event = eventRecord(clientId);
    await stores.events.insert(event);
    const failed = {
      ...event,
      queue_status: 'failed' as const,
      process_error: 'contact_not_found',
      processed_at: LATER,
      execution_ids: [],
    };

    expect(await stores.processing.commit({ event: failed, executions: [] })).toBe('committed');
    expect(await stores.events.get(clientId, event.id)).toEqual(failed);
  });
});
