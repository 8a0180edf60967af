import { describe, expect, it } from 'vitest';
import { mergeListing } from '../../../../shared/adapters/dynamo/broadcast-store.js';
import type { BroadcastStore, RecipientDetails } from '../../../../shared/domain/broadcasts/broadcast-store.js';
import { exportBroadcastRecipients, listBroadcastRecipients } from '../../../../shared/domain/broadcasts/results.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../../../shared/domain/executions/execution-record.js';
import { SENT_STATUS } from '../../../../shared/domain/sent-emails/sent-email-record.js';
import { parse } from 'csv-parse/sync';

const SECRET = 'x'.repeat(40);
const C = 7;
const B = 3;
const pad = (n: number, w: number) => String(n).padStart(w, '0');
const positionOf = (e: ExecutionRecord) => `${pad(e.contact_id, 12)}#${pad(e.id, 16)}`;

/** A recipient listing in 16 shards, read as DynamoDB reads it (per shard after a position, up to `limit`, filtered). */
function storeOf(executions: ExecutionRecord[], details: RecipientDetails, reads: string[] = []): BroadcastStore {
  return {
    get: async (clientId: number, id: number) =>
      clientId === C && id === B ? { broadcast: { id: B } as never, totals: undefined, variants: [] } : {},
    recipientPage: async (
      _c: number,
      _b: number,
      page: { after?: string; limit: number; statuses?: readonly number[] },
    ) => {
      reads.push(`${page.after ?? '-'}/${page.limit}`);
      const shards = Array.from({ length: 16 }, (_, s) => {
        const evaluated = executions
          .filter((e) => e.contact_id % 16 === s && (page.after === undefined || positionOf(e) > page.after))
          .sort((x, y) => (positionOf(x) < positionOf(y) ? -1 : 1));
        const taken = evaluated.slice(0, page.limit);
        const rows = taken
          .filter((e) => !page.statuses || page.statuses.includes(e.status))
          .map((e) => ({ key: positionOf(e), item: e }));
        return {
          rows,
          ...(evaluated.length >= page.limit && taken.length > 0 ? { stoppedAt: positionOf(taken.at(-1)!) } : {}),
        };
      });
      const merged = mergeListing(shards, page.limit);
      return {
        recipients: merged.rows.map((r) => r.item),
        ...(merged.nextAfter ? { nextAfter: merged.nextAfter } : {}),
      };
    },
    recipientDetails: async () => details,
  } as unknown as BroadcastStore;
}

const execution = (id: number, contact: number, status: number, fields: Partial<ExecutionRecord> = {}) =>
  ({ id, client_id: C, contact_id: contact, broadcast_id: B, status, ...fields }) as ExecutionRecord;

describe('listBroadcastRecipients', () => {
  const executions = [
    execution(11, 1, EXECUTION_STATUS.completed, { sent_email_id: 'e1' }),
    execution(12, 2, EXECUTION_STATUS.completed, { sent_email_id: 'e2' }),
    execution(13, 3, EXECUTION_STATUS.completed, { sent_email_id: 'e3', converted_at: '2026-01-02T00:00:00.000Z' }),
    execution(14, 17, EXECUTION_STATUS.skipped, { reason: 'unsubscribed' }),
    execution(15, 18, EXECUTION_STATUS.queued),
  ];
  const details: RecipientDetails = {
    emails: new Map([
      ['e1', { status: SENT_STATUS.clicked }],
      ['e2', { status: SENT_STATUS.clicked }],
      ['e3', { status: SENT_STATUS.delivered }],
    ]),
    humanOpened: new Set(['e1']),
    humanClicked: new Set(['e1']),
    contacts: new Map([
      [1, 'a@x.io'],
      [2, 'b@x.io'],
      [3, 'c@x.io'],
      [17, 'q@x.io'],
      [18, 'r@x.io'],
    ]),
  };

  it('pages a status one recipient at a time through rows that do not match, the cursor bound to the filter', async () => {
    const deps = { broadcasts: storeOf(executions, details), cursorSecret: SECRET };
    const first = await listBroadcastRecipients(deps, C, B, { status: 'delivered', per_page: 1 });
    expect(first.recipients.map((r) => [r.contact_id, r.status])).toEqual([[2, 'delivered']]);
    const second = await listBroadcastRecipients(deps, C, B, {
      status: 'delivered',
      per_page: 1,
      cursor: first.next_cursor!,
    });
    expect(second.recipients.map((r) => [r.contact_id, r.status, r.converted_at])).toEqual([
      [3, 'delivered', '2026-01-02T00:00:00.000Z'],
    ]);
    await expect(
      listBroadcastRecipients(deps, C, B, { status: 'clicked', per_page: 1, cursor: first.next_cursor! }),
    ).rejects.toMatchObject({ status: 422 });
    await expect(listBroadcastRecipients(deps, 8, B, { per_page: 10 })).rejects.toMatchObject({ status: 404 });
  });

  it('lists every recipient with its status from execution and e-mail: a machine’s click is no click', async () => {
    const deps = { broadcasts: storeOf(executions, details), cursorSecret: SECRET };
    const all = await listBroadcastRecipients(deps, C, B, { per_page: 100 });
    expect(all.recipients.map((r) => [r.contact_id, r.email, r.status, r.reason, r.human_clicked])).toEqual([
      [1, 'a@x.io', 'clicked', null, true],
      [2, 'b@x.io', 'delivered', null, false],
      [3, 'c@x.io', 'delivered', null, false],
      [17, 'q@x.io', 'skipped', 'unsubscribed', false],
      [18, 'r@x.io', 'queued', null, false],
    ]);
    expect(all.next_cursor).toBeNull();
  });

  it('exports the same rows as CSV that parses back', async () => {
    const deps = { broadcasts: storeOf(executions, details), cursorSecret: SECRET };
    const page = await exportBroadcastRecipients(deps, C, B, {});
    const rows = parse(page.csv, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r['contact_id'], r['status'], r['reason'], r['human_clicked']])).toEqual([
      ['1', 'clicked', '', 'true'],
      ['2', 'delivered', '', 'false'],
      ['3', 'delivered', '', 'false'],
      ['17', 'skipped', 'unsubscribed', 'false'],
      ['18', 'queued', '', 'false'],
    ]);
    expect(page.nextCursor).toBeNull();
  });
});
