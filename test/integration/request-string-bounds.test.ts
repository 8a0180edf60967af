import { describe, expect, it } from 'vitest';
import { request } from './support/api.js';
import { createTestClient } from './support/clients.js';

/** A request string one character over its documented maxLength is a 422 `max` at its key, over HTTP. */
const over = (n: number) => 'x'.repeat(n + 1);

describe('request string bounds over HTTP', () => {
  it.each<[string, string, string, object | undefined, string]>([
    ['a path id', 'GET', `/client/events/${over(320)}`, undefined, 'id'],
    ['a contact path id', 'GET', `/client/contacts/${over(320)}`, undefined, 'id'],
    ['a timestamp query', 'GET', `/client/executions?created_from=${over(64)}`, undefined, 'created_from'],
    ['a stats day', 'GET', `/client/stats?from=${over(10)}`, undefined, 'from'],
    ['a time zone', 'POST', '/client/contacts', { email: 'a@example.com', timezone: over(64) }, 'timezone'],
    ['an event time', 'POST', '/client/events', { type: 'signup', email: 'a@example.com', ts: over(64) }, 'ts'],
    ['a colour', 'PATCH', '/client/settings', { brand_primary_color: over(32) }, 'brand_primary_color'],
    ['a list cursor', 'POST', '/client/email-templates/list', { cursor: over(400) }, 'cursor'],
  ])('%s → 422 max at its key', async (_what, method, path, body, key) => {
    const { api_key } = await createTestClient();

    const res = await request(method, path, { key: api_key, ...(body ? { body } : {}) });

    expect(res.status).toBe(422);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ condition: 'max', key }));
  });
});
