import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createDocumentClient } from '../../shared/adapters/dynamo/document-client.js';
import { keys } from '../../shared/adapters/dynamo/keys.js';
import { call, NOT_DELETED, RFC3339_UTC, request } from './support/api.js';
import { createTestClient } from './support/clients.js';

const WRITABLE_FIELDS = [
  'morning_send_hour',
  'morning_send_minute',
  'afternoon_send_hour',
  'afternoon_send_minute',
  'quiet_hour_start',
  'quiet_hour_end',
  'send_window_enabled',
  'send_window_start_hour',
  'send_window_end_hour',
  'send_window_allowed_days',
  'timezone',
  'max_emails_per_day',
  'queue_timeout_days',
  'custom_email_quota_per_day',
  'custom_email_quota_per_month',
  'custom_max_workflows',
  'enable_critical_bypass',
  'ai_advisor_enabled',
  'auto_approve_enabled',
  'enabled_workflows',
  'preferences',
  'brand_name',
  'brand_logo_url',
  'brand_primary_color',
  'brand_secondary_color',
  'company_name',
  'company_address',
  'email_from_name',
  'email_from_address',
  'email_reply_to',
  'email_signature',
] as const;

const CLEARABLE = {
  afternoon_send_hour: 15,
  afternoon_send_minute: 45,
  morning_send_hour: 8,
  morning_send_minute: 15,
  custom_email_quota_per_day: 50,
  custom_email_quota_per_month: 500,
  custom_max_workflows: 2,
  quiet_hour_start: 22,
  quiet_hour_end: 6,
  send_window_allowed_days: '1,2,3,4,5',
  send_window_start_hour: 8,
  send_window_end_hour: 18,
} as const;

function startOfNextMonthUtc(now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
}

/** A client as those created before their settings row was written with them: no row until the first PATCH. */
async function withoutSettingsRow(clientId: number): Promise<void> {
  const db = createDocumentClient({ region: 'us-east-1', endpoint: inject('dynamoEndpoint') });
  await db.send(new DeleteCommand({ TableName: inject('tableName'), Key: keys.settings(clientId) }));
}

describe('GET /client/settings', () => {
  it("answers a new client's settings from its creation, every field unset, with its deliverability — never another client's", async () => {
    const a = await createTestClient();
    const b = await createTestClient();
    await call('PATCH', '/client/settings', { key: a.api_key, body: { brand_name: 'Alpha' } });

    const res = await call('GET', '/client/settings', { key: b.api_key });

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ brand_name: null, morning_send_hour: null, enabled_workflows: null });
    expect(res.body.data.deliverability).toMatchObject({
      window_days: 30,
      sends: 0,
      status: 'healthy',
      paused_at: null,
    });
  });

  it('answers 404 for a client created before settings rows came with clients, until its first PATCH', async () => {
    const client = await createTestClient();
    await withoutSettingsRow(client.id);

    const res = await call('GET', '/client/settings', { key: client.api_key });

    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, data: {}, errors: [{ condition: 'not_found', key: 'settings' }] });
  });
});

describe('PATCH /client/settings', () => {
  it('creates the row on the first PATCH (a client without one) and shows every SPEC field (unset = null) with the nested client', async () => {
    const client = await createTestClient('starter');
    await withoutSettingsRow(client.id);
    const res = await call('PATCH', '/client/settings', {
      key: client.api_key,
      body: { brand_name: 'Acme', morning_send_hour: 9, enabled_workflows: [1, 5] },
    });

    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Settings created');
    const s = res.body.data;
    const expectedFields = Object.fromEntries(WRITABLE_FIELDS.map((f) => [f, null]));
    expect(s).toEqual({
      id: expect.any(Number),
      client_id: client.id,
      ...expectedFields,
      brand_name: 'Acme',
      morning_send_hour: 9,
      enabled_workflows: [1, 5],
      tone_of_voice: 0,
      created_at: expect.stringMatching(RFC3339_UTC),
      updated_at: expect.stringMatching(RFC3339_UTC),
      deleted_at: NOT_DELETED,
      deliverability: {
        window_days: 30,
        sends: 0,
        bounces: 0,
        complaints: 0,
        bounce_rate: 0,
        complaint_rate: 0,
        status: 'healthy',
        paused_at: null,
        paused_reason: null,
      },
      // The test client's domain is verified (createTestClient): its e-mails go From no-reply@ it, outside the sandbox.
      sending: {
        from_address: `no-reply@${client.domain}`,
        from_name: 'Acme',
        from_status: 'unset',
        sandbox: false,
        verified_domains: [client.domain],
        problems: [],
        tenant: {
          name: expect.stringMatching(new RegExp(`client-${client.id}$`)),
          status: 'enabled',
          paused_reason: null,
          paused_at: null,
        },
      },
      client: {
        id: client.id,
        client_id: client.client_id,
        first_name: null,
        last_name: null,
        email: expect.stringMatching(/@test\.example$/),
        phone: null,
        city: null,
        state: null,
        country: null,
        street_address: null,
        zip_code: null,
        website: null,
        avatar_url: null,
        avatar_file_id: null,
        avatar_file: null,
        api_key: `els_…${client.api_key.slice(-4)}`,
        api_key_enabled: true,
        is_email_verified: false,
        email_verified_at: null,
        current_user_count: 1,
        monthly_email_quota: 25_000,
        monthly_emails_sent: 0,
        quota_reset_at: startOfNextMonthUtc(),
        status: 'active',
        subscription_plan_id: 2,
        subscription_status: 'active',
        subscription_tier: 'starter',
        subscription_billing_period: 'monthly',
        subscription_ends_at: null,
        created_at: expect.stringMatching(RFC3339_UTC),
        updated_at: expect.stringMatching(RFC3339_UTC),
        deleted_at: NOT_DELETED,
        roles: [
          {
            // The owner user's id: its own counter, equal to the client's only while no other test has made users.
            id: expect.any(Number),
            user_id: expect.any(Number),
            role: 1,
            created_at: expect.stringMatching(RFC3339_UTC),
            updated_at: expect.stringMatching(RFC3339_UTC),
            deleted_at: NOT_DELETED,
          },
        ],
        subscription_plan: {
          id: 2,
          name: 'Starter',
          description: expect.any(String),
          tier: 'starter',
          display_order: 2,
          is_active: true,
          max_users: 3,
          max_workflows: 6,
          max_emails_per_day: 2_000,
          max_emails_per_month: 25_000,
          api_requests_per_second: 25,
          event_requests_per_second: 50,
          price_monthly_eur: 29,
          price_annually_eur: 290,
          has_advanced_ai_logic: false,
          has_ai_advisor: false,
          has_ai_journey_mapping: false,
          has_core_playbooks: true,
          has_health_monitor: true,
          has_one_click_fixes: false,
          has_priority_growth_support: false,
          has_priority_processing: false,
          has_smart_3_event_setup: true,
          has_unlimited_flows: false,
          created_at: expect.stringMatching(RFC3339_UTC),
          updated_at: expect.stringMatching(RFC3339_UTC),
          deleted_at: NOT_DELETED,
        },
      },
    });

    const again = await call('GET', '/client/settings', { key: client.api_key });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(s);
  });

  it('updates only the fields sent, unsets null ones, and keeps id and created_at', async () => {
    const client = await createTestClient();
    const first = await call('PATCH', '/client/settings', {
      key: client.api_key,
      body: { brand_name: 'Acme', company_name: 'Acme Ltd', timezone: 'Europe/Paris', send_window_enabled: true },
    });
    const second = await call('PATCH', '/client/settings', {
      key: client.api_key,
      body: { company_name: 'Acme Group', timezone: null, brand_primary_color: '#112233' },
    });

    expect(second.status).toBe(200);
    expect(second.body.message).toBe('Settings updated');
    expect(second.body.data).toMatchObject({
      id: first.body.data.id,
      created_at: first.body.data.created_at,
      brand_name: 'Acme',
      company_name: 'Acme Group',
      timezone: null,
      send_window_enabled: true,
      brand_primary_color: '#112233',
    });
  });

  it('unsets each field with its clear flag, leaving the others', async () => {
    const client = await createTestClient('growth');
    const set = await call('PATCH', '/client/settings', {
      key: client.api_key,
      body: { ...CLEARABLE, brand_name: 'Keep' },
    });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject(CLEARABLE);

    const remaining: Record<string, unknown> = { ...CLEARABLE };
    for (const field of Object.keys(CLEARABLE)) {
      const res = await call('PATCH', '/client/settings', { key: client.api_key, body: { [`clear_${field}`]: true } });
      expect(res.status, field).toBe(200);
      delete remaining[field];
      expect(res.body.data[field], field).toBeNull();
      expect(res.body.data, field).toMatchObject({ ...remaining, brand_name: 'Keep' });
    }
  });

  it('refuses a field together with its clear flag (422) and writes nothing', async () => {
    const client = await createTestClient();
    const before = await call('GET', '/client/settings', { key: client.api_key });
    const res = await call('PATCH', '/client/settings', {
      key: client.api_key,
      body: { quiet_hour_start: 22, clear_quiet_hour_start: true },
    });

    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { condition: 'format', key: 'quiet_hour_start', error: expect.stringContaining('clear_quiet_hour_start') },
    ]);
    expect((await call('GET', '/client/settings', { key: client.api_key })).body.data).toEqual(before.body.data);
  });

  it('reports every broken bound at once, one item per field', async () => {
    const client = await createTestClient();
    const before = await call('GET', '/client/settings', { key: client.api_key });
    const res = await call('PATCH', '/client/settings', {
      key: client.api_key,
      body: {
        morning_send_hour: 24,
        morning_send_minute: 60,
        afternoon_send_hour: -1,
        afternoon_send_minute: 75,
        quiet_hour_start: 25,
        quiet_hour_end: -2,
        send_window_enabled: 'yes',
        send_window_start_hour: 99,
        send_window_end_hour: 24,
        send_window_allowed_days: '0,8,1',
        timezone: 'Not/AZone',
        max_emails_per_day: -1,
        queue_timeout_days: 0,
        custom_email_quota_per_day: -1,
        custom_email_quota_per_month: -1,
        custom_max_workflows: -1,
        enable_critical_bypass: 'on',
        ai_advisor_enabled: 'off',
        auto_approve_enabled: 2,
        enabled_workflows: [1, 42],
        preferences: ['a'],
        brand_name: 'b'.repeat(101),
        brand_logo_url: 'http://example.com/logo.png',
        brand_primary_color: 'blue',
        brand_secondary_color: '#12',
        company_name: 'c'.repeat(201),
        company_address: 'd'.repeat(501),
        email_from_name: 'Two\r\nLines',
        email_from_address: 'nope',
        email_reply_to: 'nope@',
        email_signature: 'e'.repeat(2001),
        clear_morning_send_hour: 'yes',
      },
    });

    expect(res.status).toBe(422);
    const keys = res.body.errors.map((e: { key: string }) => e.key);
    expect(keys.length).toBe(new Set(keys).size);
    expect([...keys].sort()).toEqual([...WRITABLE_FIELDS, 'clear_morning_send_hour'].sort());
    for (const item of res.body.errors) expect(['min', 'max', 'format', 'type', 'enum']).toContain(item.condition);
    expect((await call('GET', '/client/settings', { key: client.api_key })).body.data).toEqual(before.body.data);
  });

  it('keeps enabled_workflows within custom_max_workflows or the plan, and custom limits within the plan', async () => {
    const client = await createTestClient(); // free: 3 workflows, 100/day, 1000/month
    const tooMany = await call('PATCH', '/client/settings', {
      key: client.api_key,
      body: { enabled_workflows: [1, 2, 3, 4] },
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors).toEqual([{ condition: 'max', key: 'enabled_workflows', error: expect.any(String) }]);

    const raise = await call('PATCH', '/client/settings', {
      key: client.api_key,
      body: { custom_max_workflows: 4, custom_email_quota_per_month: 5000 },
    });
    expect(raise.status).toBe(422);
    expect(raise.body.errors.map((e: { key: string }) => e.key)).toEqual([
      'custom_max_workflows',
      'custom_email_quota_per_month',
    ]);

    const tighter = await call('PATCH', '/client/settings', {
      key: client.api_key,
      body: { custom_max_workflows: 2, enabled_workflows: [1, 2, 3] },
    });
    expect(tighter.status).toBe(422);
    expect(tighter.body.errors[0]).toMatchObject({ key: 'enabled_workflows', condition: 'max' });

    const fine = await call('PATCH', '/client/settings', {
      key: client.api_key,
      body: { custom_max_workflows: 2, enabled_workflows: [5, 1], custom_email_quota_per_month: 800 },
    });
    expect(fine.status).toBe(200);
    expect(fine.body.data).toMatchObject({ custom_max_workflows: 2, enabled_workflows: [1, 5] });
    expect(fine.body.data.client.monthly_email_quota).toBe(800);
  });

  it('loses no field when several PATCHes race (the first ones racing to create the row)', async () => {
    const client = await createTestClient();
    await withoutSettingsRow(client.id);
    const patches = [
      { brand_name: 'Acme' },
      { company_name: 'Acme Ltd' },
      { morning_send_hour: 7 },
      { timezone: 'Asia/Tokyo' },
      { email_signature: 'Cheers' },
    ];
    const responses = await Promise.all(
      patches.map((body) => call('PATCH', '/client/settings', { key: client.api_key, body })),
    );

    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(responses.filter((r) => r.body.message === 'Settings created')).toHaveLength(1);
    expect(new Set(responses.map((r) => r.body.data.id)).size).toBe(1);
    const final = await call('GET', '/client/settings', { key: client.api_key });
    expect(final.body.data).toMatchObject(Object.assign({}, ...patches));
  });

  it("reads monthly_emails_sent from this month's quota counter", async () => {
    const client = await createTestClient();
    const db = createDocumentClient({ region: 'us-east-1', endpoint: inject('dynamoEndpoint') });
    const month = new Date().toISOString().slice(0, 7);
    await db.send(
      new PutCommand({ TableName: inject('tableName'), Item: { ...keys.quota(client.id, month), sent: 17 } }),
    );

    const res = await call('PATCH', '/client/settings', { key: client.api_key, body: {} });

    expect(res.status).toBe(200);
    expect(res.body.data.client).toMatchObject({
      monthly_emails_sent: 17,
      monthly_email_quota: 1_000,
      quota_reset_at: startOfNextMonthUtc(),
    });
  });

  it('answers 400 for a body that is not JSON and 401 without a key', async () => {
    const client = await createTestClient();
    const bad = await call('PATCH', '/client/settings', {
      key: client.api_key,
      rawBody: '{"brand_name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect((await request('PATCH', '/client/settings', { body: {} })).status).toBe(401);
  });
});
