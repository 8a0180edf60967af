import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoDayCountersProjection } from '../../../../shared/adapters/dynamo/day-counters-projection.js';
import { EXECUTION_STATUS } from '../../../../shared/domain/executions/execution-record.js';
import { SENT_STATUS } from '../../../../shared/domain/sent-emails/sent-email-record.js';
import {
  type CountedChange,
  counterRowKey,
  deltasOfChange,
  linkOf,
  sumDeltas,
} from '../../../../shared/domain/stats/counter-facts.js';

const C = 7;
const DAY = '2026-01-15';
const AT = `${DAY}T10:00:00.000Z`;
const PRICING = 'https://shop.example.com/pricing?utm_source=news';

const change = (entity: CountedChange['entity'], old: object | undefined, next: object | undefined): CountedChange => ({
  entity,
  clientId: C,
  ...(old ? { old } : {}),
  ...(next ? { new: next } : {}),
});
const click = (fields: Record<string, unknown>) => ({
  id: 'l1',
  created_at: AT,
  status: SENT_STATUS.clicked,
  workflow_id: 0,
  broadcast_id: 31,
  url: PRICING,
  is_bot: false,
  ...fields,
});
const recipient = (fields: Record<string, unknown>) => ({
  id: 9,
  client_id: C,
  workflow_id: 0,
  contact_id: 40,
  broadcast_id: 31,
  status: EXECUTION_STATUS.completed,
  created_at: AT,
  updated_at: AT,
  ...fields,
});
const linkRows = (deltas: ReturnType<typeof deltasOfChange>) =>
  deltas.filter((d) => 'broadcastLink' in d.row).map((d) => [counterRowKey(d), d.row, d.adds]);

describe('linkOf', () => {
  it('keeps the query, drops the fragment, lowercases scheme and host, and hashes what it keeps', () => {
    const link = linkOf('HTTPS://Shop.Example.com/pricing?utm_source=news#plans');
    expect(link).toEqual({ url: PRICING, hash: expect.stringMatching(/^[0-9a-f]{12}$/) });
    expect(linkOf(PRICING)).toEqual(link);
    expect(linkOf('https://shop.example.com/pricing?utm_source=ads')!.hash).not.toBe(link!.hash);
  });

  it("collapses this service's per-recipient pages into one link each, and refuses what is no web URL", () => {
    const token = (n: number) => `eyJ${n}abc.${'A'.repeat(42)}${n}`;
    const one = linkOf(`https://mail.example.org/u/${token(1)}`);
    expect(one).toEqual({ url: 'https://mail.example.org/u/{token}', hash: expect.any(String) });
    expect(linkOf(`https://mail.example.org/u/${token(2)}`)).toEqual(one);
    expect(linkOf(`https://mail.example.org/v/${token(2)}`)!.url).toBe('https://mail.example.org/v/{token}');
    // A customer's own path that merely starts with /u/ is a link of its own.
    expect(linkOf('https://shop.example.com/u/jane')!.url).toBe('https://shop.example.com/u/jane');
    expect(linkOf('mailto:someone@example.com')).toBeUndefined();
    expect(linkOf('not a url')).toBeUndefined();
    expect(linkOf(undefined)).toBeUndefined();
  });
});

describe('deltasOfChange: a broadcast e-mail’s clicks by link', () => {
  it('counts a person’s click as h and a machine’s as m on the link’s row, every click, not only the first', () => {
    const hash = linkOf(PRICING)!.hash;
    const first = deltasOfChange(change('sent_email_log', undefined, click({ first_click: true })));
    const again = deltasOfChange(change('sent_email_log', undefined, click({ id: 'l2' })));
    const scanner = deltasOfChange(change('sent_email_log', undefined, click({ id: 'l3', is_bot: true })));
    const row = { broadcastLink: 31, link: hash, url: PRICING };
    expect(linkRows(first)).toEqual([[`${C}#B31#L${hash}`, row, { h: 1 }]]);
    expect(linkRows(again)).toEqual([[`${C}#B31#L${hash}`, row, { h: 1 }]]);
    expect(linkRows(scanner)).toEqual([[`${C}#B31#L${hash}`, row, { m: 1 }]]);
    // The e-mail's first human click still counts once on the totals; a later one only on its link.
    expect(first.find((d) => 'broadcast' in d.row)?.counts).toEqual({ clicked: 1 });
    expect(again.filter((d) => !('broadcastLink' in d.row))).toEqual([]);
    expect(
      sumDeltas([...first, ...again, ...scanner])
        .filter((d) => 'broadcastLink' in d.row)
        .map((d) => d.adds),
    ).toEqual([{ h: 2, m: 1 }]);
  });

  it('counts no link for a log rewritten, an open, a click without a URL, or an e-mail of no broadcast', () => {
    expect(linkRows(deltasOfChange(change('sent_email_log', click({}), click({ unsubscribed_by: 'link' }))))).toEqual(
      [],
    );
    expect(
      linkRows(deltasOfChange(change('sent_email_log', undefined, click({ status: SENT_STATUS.opened })))),
    ).toEqual([]);
    expect(linkRows(deltasOfChange(change('sent_email_log', undefined, click({ url: undefined }))))).toEqual([]);
    expect(linkRows(deltasOfChange(change('sent_email_log', undefined, click({ broadcast_id: undefined }))))).toEqual(
      [],
    );
  });
});

describe('deltasOfChange: a broadcast recipient’s conversion', () => {
  it('counts converted once, when converted_at first appears, on the totals and on the variant’s row', () => {
    const before = recipient({ variant: 1, ab_test: true });
    const after = recipient({ variant: 1, ab_test: true, converted_at: '2026-01-16T08:00:00.000Z' });
    const deltas = deltasOfChange(change('execution', before, after));
    expect(deltas.map((d) => [counterRowKey(d), d.counts])).toEqual([
      [`${C}#B31`, { converted: 1 }],
      [`${C}#B31#V1`, { converted: 1 }],
    ]);
    // Rewritten later (its e-mail's fields, a retry's mark): nothing more.
    expect(deltasOfChange(change('execution', after, { ...after, updated_at: '2026-01-17T00:00:00.000Z' }))).toEqual(
      [],
    );
  });

  it('counts no conversion on any workflow row, nor for an execution of no broadcast', () => {
    const deltas = deltasOfChange(change('execution', recipient({}), recipient({ converted_at: AT })));
    expect(deltas.map((d) => counterRowKey(d))).toEqual([`${C}#B31`]);
    const workflowExecution = { ...recipient({}), broadcast_id: undefined };
    expect(deltasOfChange(change('execution', workflowExecution, { ...workflowExecution, converted_at: AT }))).toEqual(
      [],
    );
  });
});

describe('the day-counters projection: link rows', () => {
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
  const dbMock = mockClient(db);
  beforeEach(() => dbMock.reset());

  const inserted = (seq: number, fields: Record<string, unknown>): DynamoDBRecord => {
    const keys = { pk: `SENT#7#e${seq}`, sk: `LOG#${AT}#l${seq}` };
    const item = { ...keys, entity: 'sent_email_log', ...click({ id: `l${seq}`, ...fields }) };
    return {
      eventName: 'INSERT',
      dynamodb: {
        SequenceNumber: String(1000 + seq),
        Keys: marshall(keys) as never,
        NewImage: marshall(item) as never,
      },
    };
  };

  it('adds a batch’s clicks of one link in one update of its row, the URL set only while absent', async () => {
    dbMock.on(GetCommand).resolves({});
    dbMock.on(TransactWriteCommand).resolves({});

    await new DynamoDayCountersProjection(db, 'tbl', 400, () => 0).apply('shard-1', [
      inserted(1, { first_click: true }),
      inserted(2, {}),
      inserted(3, { is_bot: true }),
    ]);

    const items = dbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    const hash = linkOf(PRICING)!.hash;
    const link = items.map((i) => i.Update).find((u) => u?.Key?.['sk'] === `B00000031#L${hash}`);
    expect(link).toEqual({
      TableName: 'tbl',
      Key: { pk: 'STATS#7#0', sk: `B00000031#L${hash}` },
      UpdateExpression:
        'ADD #a0 :a0, #a1 :a1 SET broadcast_id = :id, #url = if_not_exists(#url, :url), expires_at = :expires',
      ExpressionAttributeNames: { '#url': 'url', '#a0': 'h', '#a1': 'm' },
      ExpressionAttributeValues: {
        ':id': 31,
        ':url': PRICING,
        ':expires': Math.floor(Date.parse(`${DAY}T00:00:00.000Z`) / 1000) + 400 * 86_400,
        ':a0': 2,
        ':a1': 1,
      },
    });
  });
});
