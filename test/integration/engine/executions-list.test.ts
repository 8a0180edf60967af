import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { awaitExecutionStatus, listExecutions, type ExecutionItem } from '../support/executions.js';

/**
 * One client, three executions, read by every test below (none writes): a signup (welcome → completed, onboarding
 * tips → queued for tomorrow), then a trial_ending (trial ending → completed), in that order.
 */
let key: string;
let welcome: ExecutionItem;
let tips: ExecutionItem;
let trial: ExecutionItem;

beforeAll(async () => {
  const client = await createTestClient();
  key = client.api_key;
  const email = `list-${randomUUID().slice(0, 8)}@example.com`;
  await call('POST', '/client/events?sync=true', { key, body: { type: 'signup', email, auto_create_contact: true } });
  await call('POST', '/client/events?sync=true', { key, body: { type: 'trial_ending', email } });
  const all = await listExecutions(key);
  const of = (workflowId: number) => all.find((e) => e.workflow_id === workflowId)!;
  [welcome, trial] = await Promise.all([
    awaitExecutionStatus(key, of(1).id, 3),
    awaitExecutionStatus(key, of(3).id, 3),
  ]);
  tips = of(2);
});

/** Newest first: by created_at, then by id (the signup's two executions share their created_at). */
const newestFirst = (...items: ExecutionItem[]) =>
  items.sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id).map((e) => e.id);

describe('GET /client/executions', () => {
  it("lists the client's executions newest first with page, per_page, total and total_pages", async () => {
    // Act
    const res = await call('GET', '/client/executions', { key });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.data.executions.map((e: ExecutionItem) => e.id)).toEqual(newestFirst(welcome, tips, trial));
    expect(res.body.data.executions[0].id).toBe(trial.id);
    expect(res.body.meta).toEqual({
      page: 1,
      per_page: 20,
      total: 3,
      total_pages: 1,
      total_is_exact: true,
      request_id: expect.any(String),
    });
  });

  it.each([
    ['workflow_id', () => `workflow_id=2`, () => [tips]],
    ['status', () => `status=3`, () => [welcome, trial]],
    ['status and workflow_id together', () => `status=3&workflow_id=1`, () => [welcome]],
    ['a status no execution has', () => `status=4`, () => []],
    ['created_from (an instant, inclusive)', () => `created_from=${trial.created_at}`, () => [trial]],
    ['created_to (an instant, inclusive)', () => `created_to=${welcome.created_at}`, () => [welcome, tips]],
    [
      'created_from and created_to',
      () => `created_from=${welcome.created_at}&created_to=${welcome.created_at}`,
      () => [welcome, tips],
    ],
    [
      'created_from as a bare date (that whole UTC day on)',
      () => `created_from=${welcome.created_at.slice(0, 10)}`,
      () => [welcome, tips, trial],
    ],
    ['created_to before any execution', () => `created_to=2025-01-01`, () => []],
    ['created_from after every execution', () => `created_from=2999-01-01T00:00:00Z`, () => []],
  ])('filters by %s', async (_case, query, expected) => {
    // Act
    const res = await call('GET', `/client/executions?${query()}`, { key });

    // Assess
    expect(res.status).toBe(200);
    const want = newestFirst(...expected());
    expect(res.body.data.executions.map((e: ExecutionItem) => e.id)).toEqual(want);
    expect(res.body.meta).toMatchObject({ total: want.length, total_pages: want.length === 0 ? 0 : 1 });
  });

  it.each([
    ['per_page=1&page=1', 0, { page: 1, per_page: 1, total: 3, total_pages: 3 }],
    ['per_page=1&page=2', 1, { page: 2, per_page: 1, total: 3, total_pages: 3 }],
    ['per_page=2&page=2', 2, { page: 2, per_page: 2, total: 3, total_pages: 2 }],
    ['per_page=1&page=4', undefined, { page: 4, per_page: 1, total: 3, total_pages: 3 }],
  ])('pages with %s', async (query, index, meta) => {
    // Act
    const res = await call('GET', `/client/executions?${query}`, { key });

    // Assess
    expect(res.status).toBe(200);
    const all = newestFirst(welcome, tips, trial);
    expect(res.body.data.executions.map((e: ExecutionItem) => e.id)).toEqual(index === undefined ? [] : [all[index]]);
    expect(res.body.meta).toEqual({ ...meta, total_is_exact: true, request_id: expect.any(String) });
  });

  it.each([
    ['status=9', { condition: 'enum', key: 'status', error: 'Must be an execution status from 1 to 7' }],
    ['status=queued', { condition: 'enum', key: 'status', error: 'Must be an execution status from 1 to 7' }],
    [
      'created_from=garbage',
      { condition: 'format', key: 'created_from', error: 'Must be an RFC 3339 timestamp or a date YYYY-MM-DD' },
    ],
    [
      'created_to=2026-13-01',
      { condition: 'format', key: 'created_to', error: 'Must be an RFC 3339 timestamp or a date YYYY-MM-DD' },
    ],
    [
      'created_from=2026-02-01&created_to=2026-01-01',
      { condition: 'min', key: 'created_to', error: 'Must not be before created_from' },
    ],
    ['per_page=500', { condition: 'max', key: 'per_page', error: 'Must be at most 100' }],
    ['per_page=0', { condition: 'min', key: 'per_page', error: 'Must be from 1 to 100' }],
    ['page=0', { condition: 'min', key: 'page', error: 'Must be a page number from 1' }],
    ['workflow_id=abc', { condition: 'format', key: 'workflow_id', error: 'Must be a workflow id' }],
  ])('answers 422 for %s', async (query, item) => {
    // Act
    const res = await call('GET', `/client/executions?${query}`, { key });

    // Assess
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, data: {}, message: 'Validation failed' });
    expect(res.body.errors).toEqual([item]);
  });
});
