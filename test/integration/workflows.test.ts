import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createDocumentClient } from '../../shared/adapters/dynamo/document-client.js';
import { clientPk, keys } from '../../shared/adapters/dynamo/keys.js';
import { call, RFC3339_UTC } from './support/api.js';
import { createTestClient } from './support/clients.js';

const table = () => ({
  db: createDocumentClient({ region: 'us-east-1', endpoint: inject('dynamoEndpoint') }),
  name: inject('tableName'),
});

async function apiKeyIdOf(clientId: number): Promise<number> {
  const { db, name } = table();
  const out = await db.send(new GetCommand({ TableName: name, Key: keys.clientProfile(clientId) }));
  return Number(out.Item?.['api_key_id']);
}

async function clientTemplates(key: string) {
  const res = await call('POST', '/client/email-templates/list', { key, body: { type: 2 } });
  return res.body.data.templates as { id: number }[];
}

describe('GET /client/workflows', () => {
  it("shows the catalog with the client's effective configuration", async () => {
    const client = await createTestClient(); // free plan: 3 workflows
    const res = await call('GET', '/client/workflows', { key: client.api_key });

    expect(res.status).toBe(200);
    const workflows = res.body.data.workflows;
    expect(workflows.map((w: { id: number; key: string }) => [w.id, w.key])).toEqual([
      [1, 'welcome'],
      [2, 'onboarding_tips'],
      [3, 'trial_ending'],
      [4, 'upgrade_thanks'],
      [5, 'payment_failed'],
      [6, 'cancellation_winback'],
      [7, 'feature_adoption'],
      [8, 're_engagement'],
    ]);
    expect(workflows.map((w: { enabled: boolean }) => w.enabled)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(workflows[1]).toMatchObject({
      name: 'Onboarding tips',
      trigger: { event: 'signup' },
      critical: false,
      defaults: { template_id: 2, delay_minutes: 1440, send_time_mode: 1, send_slot: 'morning' },
      customization: {
        workflow_id: 2,
        template_id: 2,
        delay_minutes: 1440,
        send_time_mode: 1,
        preferred_send_hour: null,
      },
      template: { id: 2, name: 'Onboarding tips', type: 1 },
      clone_template_id: null,
    });
    expect(workflows[3].trigger).toEqual({ event: 'upgrade', or_when: { field: 'upgrade', equals: true } });
    expect(workflows[4].critical).toBe(true);
    expect(res.body.meta).toMatchObject({ total: 8, enabled: 3, max_workflows: 3 });

    await call('PATCH', '/client/settings', { key: client.api_key, body: { enabled_workflows: [5, 8] } });
    const after = await call('GET', '/client/workflows', { key: client.api_key });
    expect(
      after.body.data.workflows.filter((w: { enabled: boolean }) => w.enabled).map((w: { id: number }) => w.id),
    ).toEqual([5, 8]);
  });
});

describe('POST /client/workflows/{workflow_id}/clone-template', () => {
  it('creates a client copy of the default system template (201), then returns the same copy (200)', async () => {
    const client = await createTestClient();
    const first = await call('POST', '/client/workflows/1/clone-template', { key: client.api_key });

    expect(first.status).toBe(201);
    const system = (await call('GET', '/client/email-templates/1', { key: client.api_key })).body.data;
    expect(first.body.data).toEqual({
      template_id: first.body.data.id,
      workflow_id: 1,
      id: expect.any(Number),
      user_id: client.id,
      name: 'Welcome (copy)',
      subject: system.subject,
      preview_text: system.preview_text,
      html_body: system.html_body,
      text_body: system.text_body,
      type: 2,
      source_template: { id: 1, name: 'Welcome', subject: system.subject, updated_at: system.updated_at },
      source_template_id: 1,
      created_at: expect.stringMatching(RFC3339_UTC),
      updated_at: expect.stringMatching(RFC3339_UTC),
      deleted_at: { time: '0001-01-01T00:00:00Z', valid: false },
    });

    const second = await call('POST', '/client/workflows/1/clone-template', { key: client.api_key });
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual(first.body.data);
    expect((await clientTemplates(client.api_key)).map((t) => t.id)).toEqual([first.body.data.template_id]);
  });

  it('makes exactly one copy under 10 concurrent calls', async () => {
    const client = await createTestClient();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => call('POST', '/client/workflows/3/clone-template', { key: client.api_key })),
    );

    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    const ids = new Set(responses.map((r) => r.body.data.template_id));
    expect(ids.size).toBe(1);
    expect((await clientTemplates(client.api_key)).map((t) => t.id)).toEqual([...ids]);
  });

  it('answers 404 for an unknown workflow', async () => {
    const client = await createTestClient();
    for (const id of ['99', '0', 'welcome']) {
      const res = await call('POST', `/client/workflows/${id}/clone-template`, { key: client.api_key });
      expect(res.status, id).toBe(404);
      expect(res.body.errors, id).toEqual([
        { condition: 'not_found', key: 'workflow_id', error: 'Workflow not found' },
      ]);
    }
  });
});

describe('PATCH /client/workflows/{workflow_id}/customization', () => {
  it("activates a clone: the workflow then uses the client's copy", async () => {
    const client = await createTestClient();
    const clone = (await call('POST', '/client/workflows/1/clone-template', { key: client.api_key })).body.data;

    const res = await call('PATCH', '/client/workflows/1/customization', {
      key: client.api_key,
      body: { template_id: clone.template_id, delay_minutes: 30, priority_score: 75 },
    });

    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      workflow_id: 1,
      template_id: clone.template_id,
      delay_minutes: 30,
      priority_score: 75,
      preferred_send_hour: null,
      preferred_send_minute: null,
      send_time_mode: 0,
      exit_events: [],
      conversion_window_days: 7,
      topic_id: null,
      overrides: {
        template_id: clone.template_id,
        delay_minutes: 30,
        priority_score: 75,
        preferred_send_hour: null,
        preferred_send_minute: null,
        send_time_mode: null,
        conversion_window_days: null,
        exit_events: null,
        topic_id: null,
      },
      updated_at: expect.stringMatching(RFC3339_UTC),
    });
    const workflows = (await call('GET', '/client/workflows', { key: client.api_key })).body.data.workflows;
    expect(workflows[0]).toMatchObject({
      template: { id: clone.template_id, name: 'Welcome (copy)', type: 2 },
      clone_template_id: clone.template_id,
      customization: { template_id: clone.template_id, delay_minutes: 30 },
    });
  });

  it('derives send_time_mode from the preferred hour and removes overrides with null', async () => {
    const client = await createTestClient();
    const timed = await call('PATCH', '/client/workflows/8/customization', {
      key: client.api_key,
      body: { preferred_send_hour: 17, preferred_send_minute: 30 },
    });
    expect(timed.body.data).toMatchObject({ preferred_send_hour: 17, preferred_send_minute: 30, send_time_mode: 1 });

    const back = await call('PATCH', '/client/workflows/8/customization', {
      key: client.api_key,
      body: { preferred_send_hour: null, preferred_send_minute: null },
    });
    expect(back.body.data).toMatchObject({ preferred_send_hour: null, preferred_send_minute: null, send_time_mode: 0 });

    const minuteAlone = await call('PATCH', '/client/workflows/8/customization', {
      key: client.api_key,
      body: { preferred_send_minute: 5 },
    });
    expect(minuteAlone.status).toBe(422);
    expect(minuteAlone.body.errors[0]).toMatchObject({ key: 'preferred_send_hour', condition: 'required' });
  });

  it('reports every bound at once (DESIGN.md §5)', async () => {
    const client = await createTestClient();
    const res = await call('PATCH', '/client/workflows/2/customization', {
      key: client.api_key,
      body: {
        delay_minutes: 525_601,
        priority_score: 101,
        preferred_send_hour: 24,
        preferred_send_minute: -1,
        template_id: 'x',
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { key: string; condition: string }) => [e.key, e.condition])).toEqual([
      ['template_id', 'type'],
      ['delay_minutes', 'max'],
      ['priority_score', 'max'],
      ['preferred_send_hour', 'max'],
      ['preferred_send_minute', 'min'],
    ]);
  });

  it("accepts a system template, refuses another client's or an unknown template (404 on template_id)", async () => {
    const client = await createTestClient();
    const other = await createTestClient();
    const theirs = (await call('POST', '/client/workflows/1/clone-template', { key: other.api_key })).body.data;

    const system = await call('PATCH', '/client/workflows/6/customization', {
      key: client.api_key,
      body: { template_id: 8 },
    });
    expect(system.status).toBe(200);
    expect(system.body.data.template_id).toBe(8);

    for (const templateId of [theirs.template_id, 99, 500_000]) {
      const res = await call('PATCH', '/client/workflows/6/customization', {
        key: client.api_key,
        body: { template_id: templateId },
      });
      expect(res.status, String(templateId)).toBe(404);
      expect(res.body.errors, String(templateId)).toEqual([
        { condition: 'not_found', key: 'template_id', error: 'Template not found' },
      ]);
    }
    const unknownWorkflow = await call('PATCH', '/client/workflows/42/customization', {
      key: client.api_key,
      body: { delay_minutes: 1 },
    });
    expect(unknownWorkflow.status).toBe(404);
  });

  it('appends an audit record (key id, time, before, after) with every change, in the same write', async () => {
    const client = await createTestClient();
    const keyId = await apiKeyIdOf(client.id);
    await call('PATCH', '/client/workflows/5/customization', { key: client.api_key, body: { delay_minutes: 10 } });
    await call('PATCH', '/client/workflows/5/customization', {
      key: client.api_key,
      body: { priority_score: 99, preferred_send_hour: 9 },
    });
    const noop = await call('PATCH', '/client/workflows/5/customization', {
      key: client.api_key,
      body: { delay_minutes: 10 },
    });
    expect(noop.status).toBe(200);
    const refused = await call('PATCH', '/client/workflows/5/customization', {
      key: client.api_key,
      body: { template_id: 777_777 },
    });
    expect(refused.status).toBe(404);

    const res = await call('GET', '/client/workflows/5/customization/audit', { key: client.api_key });

    expect(res.status).toBe(200);
    const none = {
      template_id: null,
      delay_minutes: null,
      priority_score: null,
      preferred_send_hour: null,
      preferred_send_minute: null,
      send_time_mode: 0,
      conversion_window_days: null,
      exit_events: null,
      topic_id: null,
    };
    expect(res.body.data.entries).toEqual([
      {
        id: expect.any(String),
        workflow_id: 5,
        key_id: keyId,
        auth_method: 'api_key',
        request_id: expect.any(String),
        at: expect.stringMatching(RFC3339_UTC),
        before: { ...none, delay_minutes: 10 },
        after: { ...none, delay_minutes: 10, priority_score: 99, preferred_send_hour: 9, send_time_mode: 1 },
      },
      {
        id: expect.any(String),
        workflow_id: 5,
        key_id: keyId,
        auth_method: 'api_key',
        request_id: expect.any(String),
        at: expect.stringMatching(RFC3339_UTC),
        before: none,
        after: { ...none, delay_minutes: 10 },
      },
    ]);
    expect(res.body.meta).toMatchObject({ page: 1, per_page: 20, total: 2, total_pages: 1 });

    // The store holds exactly the customization item and its two audit items for this workflow.
    const { db, name } = table();
    const stored = await db.send(
      new QueryCommand({
        TableName: name,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': clientPk(client.id), ':p': keys.customization(client.id, 5).sk },
      }),
    );
    expect(stored.Items?.length).toBe(3);

    const other = await createTestClient();
    const theirs = await call('GET', '/client/workflows/5/customization/audit', { key: other.api_key });
    expect(theirs.body.data.entries).toEqual([]);
  });
});

describe('deleting a template a workflow uses', () => {
  it('is refused (409) until another template is active; then clone-template makes a fresh copy', async () => {
    const client = await createTestClient();
    const clone = (await call('POST', '/client/workflows/7/clone-template', { key: client.api_key })).body.data;
    await call('PATCH', '/client/workflows/7/customization', {
      key: client.api_key,
      body: { template_id: clone.template_id },
    });

    const refused = await call('DELETE', `/client/email-templates/${clone.template_id}`, { key: client.api_key });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      { condition: 'state', key: 'id', error: expect.stringContaining('Workflow 7') },
    ]);

    await call('PATCH', '/client/workflows/7/customization', { key: client.api_key, body: { template_id: null } });
    const deleted = await call('DELETE', `/client/email-templates/${clone.template_id}`, { key: client.api_key });
    expect(deleted.status).toBe(200);

    const fresh = await call('POST', '/client/workflows/7/clone-template', { key: client.api_key });
    expect(fresh.status).toBe(201);
    expect(fresh.body.data.template_id).not.toBe(clone.template_id);
  });
});
