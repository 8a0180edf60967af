import { describe, expect, it } from 'vitest';
import { call } from './support/api.js';
import { createTestClient } from './support/clients.js';

/**
 * Every list reads at most a page's worth: the template list answers no bodies, numbered pages stop at page ×
 * per_page ≤ 1 000 (a 422 `max` at `page`), and `next_cursor` walks the rest one page at a time, each item once.
 */
type Answer = Awaited<ReturnType<typeof call>>;

/** Follows `next_cursor` from the first page, collecting what `itemsOf` names on each page. */
async function walk(
  first: Answer,
  next: (cursor: string) => Promise<Answer>,
  itemsOf: (a: Answer) => unknown[],
): Promise<{ items: unknown[]; pages: number[] }> {
  const items: unknown[] = [];
  const pages: number[] = [];
  let answer = first;
  for (let guard = 0; guard < 20; guard += 1) {
    expect(answer.status).toBe(200);
    items.push(...itemsOf(answer));
    pages.push(answer.body.meta.page);
    const cursor = answer.body.data.next_cursor as string | null;
    if (cursor === null) return { items, pages };
    answer = await next(cursor);
  }
  throw new Error('next_cursor never ended');
}

describe('bounded lists', () => {
  it('POST /client/email-templates/list answers templates without bodies, and its cursor walks them one page at a time', async () => {
    // Prepare
    const { api_key: key } = await createTestClient();
    const big = `<p>${'x'.repeat(200_000)}</p>`;
    const made = [];
    for (const name of ['T1', 'T2', 'T3'])
      made.push(
        (await call('POST', '/client/email-templates', { key, body: { name, subject: 'Hi', html_body: big } })).body
          .data.id,
      );

    // Act
    const list = (body: object) =>
      call('POST', '/client/email-templates/list', { key, body: { type: 2, per_page: 1, ...body } });
    const first = await list({});
    const walked = await walk(
      first,
      (cursor) => list({ cursor }),
      (a) => a.body.data.templates.map((t: { id: number }) => t.id),
    );

    // Assess
    expect(first.body.data.templates[0]).not.toHaveProperty('html_body');
    expect(first.body.data.templates[0]).not.toHaveProperty('text_body');
    expect(first.text.length).toBeLessThan(5_000);
    expect(first.body.meta).toMatchObject({ page: 1, per_page: 1, total: 3, total_pages: 3, total_is_exact: true });
    expect(walked).toEqual({ items: made, pages: [1, 2, 3] });
    expect((await list({ q: 't2' })).body.data.templates.map((t: { name: string }) => t.name)).toEqual(['T2']);
  });

  it('refuses a numbered page past page × per_page = 1 000, a cursor of another list, and a page with a cursor', async () => {
    const { api_key: key } = await createTestClient();
    const templates = (body: object) => call('POST', '/client/email-templates/list', { key, body });
    const page11 = await templates({ page: 11, per_page: 100 });
    const executions = await call('GET', '/client/executions?page=51&per_page=20', { key });
    const audit = await call('GET', '/client/workflows/1/customization/audit?page=1001', { key });
    const oldMax = await call('GET', '/client/executions?page=100000', { key });

    expect(page11.status).toBe(422);
    expect(page11.body.errors).toEqual([
      {
        condition: 'max',
        key: 'page',
        error: 'Must be at most 10 with per_page 100 (page × per_page ≤ 1000); follow next_cursor beyond',
      },
    ]);
    expect(executions.body.errors).toEqual([
      {
        condition: 'max',
        key: 'page',
        error: 'Must be at most 50 with per_page 20 (page × per_page ≤ 1000); follow next_cursor beyond',
      },
    ]);
    expect(audit.body.errors).toEqual([{ condition: 'max', key: 'page', error: 'Must be at most 1000' }]);
    expect(oldMax.body.errors).toEqual([{ condition: 'max', key: 'page', error: 'Must be at most 1000' }]);
    expect((await templates({ page: 10, per_page: 100 })).status).toBe(200);

    // A cursor only continues its own list, for its own client and filters.
    await call('PATCH', '/client/workflows/1/customization', { key, body: { delay_minutes: 1 } });
    await call('PATCH', '/client/workflows/1/customization', { key, body: { delay_minutes: 2 } });
    const auditCursor = (await call('GET', '/client/workflows/1/customization/audit?per_page=1', { key })).body.data
      .next_cursor as string;
    const other = await createTestClient();
    for (const res of [
      await call('GET', `/client/workflows/2/customization/audit?cursor=${auditCursor}`, { key }),
      await call('GET', `/client/workflows/1/customization/audit?cursor=${auditCursor}`, { key: other.api_key }),
      await call('GET', `/client/executions?cursor=${auditCursor}`, { key }),
      await templates({ cursor: auditCursor }),
    ]) {
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ condition: 'format', key: 'cursor', error: 'Not a cursor of this list' }]);
    }
    const both = await call('GET', `/client/workflows/1/customization/audit?per_page=1&page=2&cursor=${auditCursor}`, {
      key,
    });
    expect(both.body.errors).toEqual([{ condition: 'format', key: 'page', error: 'Must not be given with cursor' }]);
  });

  it('GET /client/workflows/{id}/customization/audit walks the trail newest first by cursor, each change once', async () => {
    const { api_key: key } = await createTestClient();
    for (const delay of [1, 2, 3])
      await call('PATCH', '/client/workflows/1/customization', { key, body: { delay_minutes: delay } });

    const first = await call('GET', '/client/workflows/1/customization/audit?per_page=2', { key });
    const walked = await walk(
      first,
      (cursor) => call('GET', `/client/workflows/1/customization/audit?per_page=2&cursor=${cursor}`, { key }),
      (a) => a.body.data.entries.map((e: { after: { delay_minutes: number } }) => e.after.delay_minutes),
    );

    expect(first.body.meta).toMatchObject({ page: 1, per_page: 2, total: 3, total_pages: 2, total_is_exact: true });
    expect(walked).toEqual({ items: [3, 2, 1], pages: [1, 2] });
  });

  it('GET /client/executions walks the executions newest first by cursor, each once, and the numbered pages agree', async () => {
    const { api_key: key } = await createTestClient();
    for (const n of [1, 2, 3, 4, 5]) {
      await call('POST', '/client/events?sync=true', {
        key,
        body: { type: 'signup', email: `c${n}@example.com`, auto_create_contact: true },
      });
    }
    const numbered = (await call('GET', '/client/executions?per_page=100', { key })).body.data.executions.map(
      (e: { id: number }) => e.id,
    );

    const first = await call('GET', '/client/executions?per_page=2', { key });
    const walked = await walk(
      first,
      (cursor) => call('GET', `/client/executions?per_page=2&cursor=${cursor}`, { key }),
      (a) => a.body.data.executions.map((e: { id: number }) => e.id),
    );

    expect(numbered.length).toBeGreaterThanOrEqual(5);
    expect(walked.items).toEqual(numbered);
    expect(walked.pages).toEqual(Array.from({ length: walked.pages.length }, (_, i) => i + 1));
  });
});
