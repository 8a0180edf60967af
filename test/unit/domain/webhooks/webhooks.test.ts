import { Webhook } from 'standardwebhooks';
import { beforeEach, describe, expect, it } from 'vitest';
import { FixedClock, MemoryIds } from '../../../../shared/adapters/memory/client-stores.js';
import { MemoryWebhookStore } from '../../../../shared/adapters/memory/webhook-store.js';
import { AppError } from '../../../../shared/errors.js';
import { createWebhook } from '../../../../shared/domain/webhooks/create-webhook.js';
import { deleteWebhook } from '../../../../shared/domain/webhooks/delete-webhook.js';
import { findWebhook } from '../../../../shared/domain/webhooks/find-webhook.js';
import { listWebhooks } from '../../../../shared/domain/webhooks/list-webhooks.js';
import { rotateWebhookSecret } from '../../../../shared/domain/webhooks/rotate-webhook-secret.js';
import { WebhookBody } from '../../../../shared/domain/webhooks/schemas.js';
import { testWebhook } from '../../../../shared/domain/webhooks/test-webhook.js';
import { updateWebhook } from '../../../../shared/domain/webhooks/update-webhook.js';
import type {
  WebhookAttemptOutcome,
  WebhookRequest,
  WebhookSender,
} from '../../../../shared/domain/webhooks/webhook-sender.js';

const CLIENT = 7;
const OTHER = 8;
const NOW = '2026-01-15T10:00:00.000Z';
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

class RecordingSender implements WebhookSender {
  readonly requests: WebhookRequest[] = [];
  constructor(
    private readonly outcome: WebhookAttemptOutcome = {
      status_code: 204,
      duration_ms: 3,
      response_body: '',
      error: null,
    },
  ) {}
  async send(request: WebhookRequest): Promise<WebhookAttemptOutcome> {
    this.requests.push(request);
    return this.outcome;
  }
}

let clock: FixedClock;
let webhooks: MemoryWebhookStore;
let deps: { clock: FixedClock; ids: MemoryIds; webhooks: MemoryWebhookStore };

beforeEach(() => {
  clock = new FixedClock(new Date(NOW));
  webhooks = new MemoryWebhookStore();
  deps = { clock, ids: new MemoryIds(), webhooks };
});

const body = (input: Record<string, unknown> = {}) =>
  WebhookBody.parse({ url: 'https://hooks.example.com/els', ...input });
const caught = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, items: error.items };
    throw error;
  }
  throw new Error('expected a failure');
};

describe('createWebhook', () => {
  it('stores the endpoint and shows its secret once; reads show it masked', async () => {
    // Act
    const created = await createWebhook(
      deps,
      CLIENT,
      body({ event_types: ['email.sent', 'email.sent', 'contact.unsubscribed'] }),
      false,
    );

    // Assess
    expect(created).toEqual({
      id: 1,
      url: 'https://hooks.example.com/els',
      description: '',
      event_types: ['email.sent', 'contact.unsubscribed'],
      enabled: true,
      humans_only: false,
      failing_since: null,
      slow_since: null,
      disabled_reason: null,
      masked_secret: `whsec_…${created.secret.slice(-4)}`,
      previous_secret_expires_at: null,
      secret: expect.stringMatching(SECRET),
      created_at: NOW,
      updated_at: NOW,
    });
    expect(await webhooks.get(CLIENT, 1)).toEqual({
      id: 1,
      client_id: CLIENT,
      url: 'https://hooks.example.com/els',
      description: '',
      event_types: ['email.sent', 'contact.unsubscribed'],
      enabled: true,
      humans_only: false,
      secret: created.secret,
      created_at: NOW,
      updated_at: NOW,
    });
    const [listed] = await listWebhooks(deps, CLIENT);
    expect(listed).not.toHaveProperty('secret');
    expect(JSON.stringify(listed)).not.toContain(created.secret);
  });

  it('answers 409 max at the 11th endpoint and writes nothing', async () => {
    for (let i = 0; i < 10; i += 1) await createWebhook(deps, CLIENT, body(), false);

    expect(await caught(createWebhook(deps, CLIENT, body(), false))).toEqual({
      status: 409,
      items: [
        {
          condition: 'max',
          key: 'webhooks',
          error: 'A client may have at most 10 webhook endpoints; delete one first',
        },
      ],
    });
    expect(await webhooks.list(CLIENT)).toHaveLength(10);
    // Another client has its own 10.
    await expect(createWebhook(deps, OTHER, body(), false)).resolves.toMatchObject({ id: 12 });
  });

  it('refuses a private URL on AWS settings and writes nothing', async () => {
    expect(await caught(createWebhook(deps, CLIENT, body({ url: 'https://169.254.169.254/' }), false))).toEqual({
      status: 422,
      items: [
        {
          condition: 'unsafe',
          key: 'url',
          error: 'Must not point at a loopback, private, link-local or metadata address',
        },
      ],
    });
    expect(webhooks.webhooks.size).toBe(0);
  });
});

describe('updateWebhook, deleteWebhook and isolation', () => {
  it('changes only the given fields; event_types null means every type', async () => {
    const created = await createWebhook(deps, CLIENT, body({ event_types: ['email.sent'] }), false);
    clock.advance(1000);

    const updated = await updateWebhook(deps, CLIENT, created.id, { event_types: null, enabled: false }, false);

    expect(updated).toMatchObject({
      event_types: null,
      enabled: false,
      url: created.url,
      updated_at: '2026-01-15T10:00:01.000Z',
    });
    expect(await webhooks.get(CLIENT, created.id)).toMatchObject({
      event_types: null,
      enabled: false,
      secret: created.secret,
    });
  });

  it("answers 404 for another client's endpoint, for every operation, and leaves it untouched", async () => {
    const created = await createWebhook(deps, CLIENT, body(), false);
    const before = await webhooks.get(CLIENT, created.id);
    const notFound = { status: 404, items: [{ condition: 'not_found', key: 'id', error: 'Webhook not found' }] };
    const sender = new RecordingSender();

    expect(await caught(findWebhook(deps, OTHER, created.id))).toEqual(notFound);
    expect(await caught(updateWebhook(deps, OTHER, created.id, { enabled: false }, false))).toEqual(notFound);
    expect(await caught(rotateWebhookSecret(deps, OTHER, created.id))).toEqual(notFound);
    expect(await caught(testWebhook({ ...deps, webhookSender: sender }, OTHER, created.id))).toEqual(notFound);
    expect(await caught(deleteWebhook(deps, OTHER, created.id))).toEqual(notFound);
    expect(await webhooks.get(CLIENT, created.id)).toEqual(before);
    expect(sender.requests).toEqual([]);
  });

  it('deletes, freeing a place under the limit', async () => {
    const created = await createWebhook(deps, CLIENT, body(), false);
    expect(await deleteWebhook(deps, CLIENT, created.id)).toMatchObject({ id: created.id });
    expect(await webhooks.list(CLIENT)).toEqual([]);
  });
});

describe('testWebhook and rotateWebhookSecret', () => {
  it('delivers a webhook.test event that a Standard Webhooks receiver verifies', async () => {
    const created = await createWebhook(deps, CLIENT, body({ event_types: ['email.bounced'], enabled: false }), false);
    const sender = new RecordingSender({ status_code: 200, duration_ms: 12, response_body: 'ok', error: null });

    const result = await testWebhook({ ...deps, webhookSender: sender }, CLIENT, created.id);

    expect(result).toEqual({
      delivered: true,
      status_code: 200,
      duration_ms: 12,
      response_body: 'ok',
      error: null,
      message_id: expect.stringMatching(/^msg_[0-9a-f]{32}$/),
    });
    const [request] = sender.requests;
    expect(request!.url).toBe(created.url);
    expect(request!.headers).toEqual({
      'content-type': 'application/json',
      'webhook-id': result.message_id,
      'webhook-timestamp': String(Date.parse(NOW) / 1000),
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]+=*$/),
    });
    expect(JSON.parse(request!.body)).toEqual({
      type: 'webhook.test',
      id: result.message_id,
      created_at: NOW,
      data: { webhook_id: created.id, url: created.url, message: expect.any(String) },
    });
    // standardwebhooks checks the timestamp against the real clock: sign-time equivalence via sign().
    expect(request!.headers['webhook-signature']).toBe(
      new Webhook(created.secret).sign(result.message_id, new Date(NOW), request!.body),
    );
  });

  it('says the endpoint did not take it: a 500 is not delivered', async () => {
    const created = await createWebhook(deps, CLIENT, body(), false);
    const sender = new RecordingSender({ status_code: 500, duration_ms: 4, response_body: 'boom', error: null });

    expect(await testWebhook({ ...deps, webhookSender: sender }, CLIENT, created.id)).toMatchObject({
      delivered: false,
      status_code: 500,
      response_body: 'boom',
    });
  });

  it('signs with both secrets for 24 h after a rotation, then with the new one only', async () => {
    const created = await createWebhook(deps, CLIENT, body(), false);
    clock.advance(60_000);

    const rotated = await rotateWebhookSecret(deps, CLIENT, created.id);

    expect(rotated.secret).toMatch(SECRET);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.previous_secret_expires_at).toBe('2026-01-16T10:01:00.000Z');
    expect(await webhooks.get(CLIENT, created.id)).toMatchObject({
      secret: rotated.secret,
      previous_secret: created.secret,
      previous_secret_expires_at: '2026-01-16T10:01:00.000Z',
      updated_at: '2026-01-15T10:01:00.000Z',
    });
    const sender = new RecordingSender();
    const during = await testWebhook({ ...deps, webhookSender: sender }, CLIENT, created.id);
    const signatures = sender.requests[0]!.headers['webhook-signature']!.split(' ');
    const at = new Date('2026-01-15T10:01:00.000Z');
    expect(signatures).toEqual([
      new Webhook(rotated.secret).sign(during.message_id, at, sender.requests[0]!.body),
      new Webhook(created.secret).sign(during.message_id, at, sender.requests[0]!.body),
    ]);

    clock.advance(24 * 60 * 60 * 1000);
    await testWebhook({ ...deps, webhookSender: sender }, CLIENT, created.id);
    expect(sender.requests[1]!.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect((await findWebhook(deps, CLIENT, created.id)).previous_secret).toBe(created.secret);
    expect((await listWebhooks(deps, CLIENT))[0]!.previous_secret_expires_at).toBeNull();
  });
});
