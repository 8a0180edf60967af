import { describe, expect, it } from 'vitest';
import { EXECUTION_STATUS } from '../../../../shared/domain/executions/execution-record.js';
import { SENT_STATUS } from '../../../../shared/domain/sent-emails/sent-email-record.js';
import {
  type CountedChange,
  deltasOfChange,
  reasonCode,
  sumDeltas,
} from '../../../../shared/domain/stats/counter-facts.js';

const C = 7;
const DAY = '2026-01-15';
const AT = `${DAY}T10:00:00.000Z`;
const NEXT_DAY_AT = '2026-01-16T00:05:00.000Z';

const event = (fields: Record<string, unknown>) => ({ id: 1, client_id: C, type: 'signup', created_at: AT, ...fields });
const execution = (fields: Record<string, unknown>) => ({
  id: 9,
  client_id: C,
  workflow_id: 3,
  status: EXECUTION_STATUS.queued,
  created_at: AT,
  updated_at: AT,
  ...fields,
});
const claim = (logId: string, quotaDay = DAY) => ({ log_id: logId, quota_day: quotaDay, sent_email_id: 'e' });
const log = (fields: Record<string, unknown>) => ({ id: 'l1', created_at: AT, workflow_id: 3, ...fields });

const change = (entity: CountedChange['entity'], old: object | undefined, next: object | undefined): CountedChange => ({
  entity,
  clientId: C,
  ...(old ? { old } : {}),
  ...(next ? { new: next } : {}),
});

describe('deltasOfChange: events', () => {
  it('counts an event once, when processing writes it: by type, each workflow it started and each it converted', () => {
    const deltas = deltasOfChange(
      change(
        'event',
        event({ queue_status: 'queued' }),
        event({ queue_status: 'processed', execution_workflow_ids: [1, 3], converted_workflow_ids: [2] }),
      ),
    );
    expect(deltas).toEqual([
      { clientId: C, day: DAY, row: { eventType: 'signup' }, received: 1 },
      { clientId: C, day: DAY, row: { workflowId: 1 }, counts: { executions: 1 } },
      { clientId: C, day: DAY, row: { workflowId: 3 }, counts: { executions: 1 } },
      { clientId: C, day: DAY, row: { workflowId: 2 }, counts: { converted: 1 } },
    ]);
  });

  it('counts a failed event by its type too, on the day it was received, not the day it was processed', () => {
    const deltas = deltasOfChange(
      change('event', event({ queue_status: 'queued' }), event({ queue_status: 'failed', processed_at: NEXT_DAY_AT })),
    );
    expect(deltas).toEqual([{ clientId: C, day: DAY, row: { eventType: 'signup' }, received: 1 }]);
  });

  it('counts nothing for the insert, a rewrite of a processed event (erasure), or a removal', () => {
    expect(deltasOfChange(change('event', undefined, event({ queue_status: 'queued' })))).toEqual([]);
    expect(
      deltasOfChange(
        change('event', event({ queue_status: 'processed' }), event({ queue_status: 'processed', email: null })),
      ),
    ).toEqual([]);
    expect(deltasOfChange(change('event', event({ queue_status: 'queued' }), undefined))).toEqual([]);
  });
});

describe('deltasOfChange: executions', () => {
  it('counts a claim as one sent on its quota day, and not again when the claim is only rewritten', () => {
    const claimed = execution({ status: EXECUTION_STATUS.executing, claim: claim('q1') });
    expect(deltasOfChange(change('execution', execution({}), claimed))).toEqual([
      { clientId: C, day: DAY, row: { workflowId: 3 }, counts: { sent: 1 } },
    ]);
    expect(deltasOfChange(change('execution', claimed, { ...claimed, outcome_unknown: true }))).toEqual([]);
  });

  it('keeps the sent of a claim that ended in the send (completed), and takes back one that ended without it', () => {
    const claimed = execution({ status: EXECUTION_STATUS.executing, claim: claim('q1', '2026-01-14') });
    expect(
      deltasOfChange(change('execution', claimed, execution({ status: EXECUTION_STATUS.completed, processed_at: AT }))),
    ).toEqual([]);
    // Released for a retry (still executing, no claim): given back on the claim's own day.
    expect(
      deltasOfChange(
        change('execution', claimed, execution({ status: EXECUTION_STATUS.executing, retry_pending: true })),
      ),
    ).toEqual([{ clientId: C, day: '2026-01-14', row: { workflowId: 3 }, counts: { sent: -1 } }]);
  });

  it('counts a deferred claim as sent given back and one deferral (its day: the deferral’s)', () => {
    const claimed = execution({ status: EXECUTION_STATUS.executing, claim: claim('q1'), deferrals: 1 });
    const deferred = execution({ status: EXECUTION_STATUS.queued, deferrals: 2, updated_at: NEXT_DAY_AT });
    expect(deltasOfChange(change('execution', claimed, deferred))).toEqual([
      { clientId: C, day: DAY, row: { workflowId: 3 }, counts: { sent: -1 } },
      { clientId: C, day: '2026-01-16', row: { workflowId: 3 }, counts: { deferred: 1 } },
    ]);
  });

  it('counts a rejected send as failed with its reason code on the claim’s day, with the sent given back', () => {
    const claimed = execution({ status: EXECUTION_STATUS.executing, claim: claim('q1') });
    const failed = execution({
      status: EXECUTION_STATUS.failed,
      reason: 'send_rejected: MessageRejected Email address is not verified',
      processed_at: NEXT_DAY_AT,
    });
    expect(deltasOfChange(change('execution', claimed, failed))).toEqual([
      { clientId: C, day: DAY, row: { workflowId: 3 }, counts: { sent: -1 } },
      { clientId: C, day: DAY, row: { workflowId: 3 }, counts: { failed: 1 }, failedReasons: { send_rejected: 1 } },
    ]);
  });

  it('counts a skip by reason and a goal’s exit on the day the execution ended; never a retried insert', () => {
    expect(
      deltasOfChange(
        change(
          'execution',
          execution({}),
          execution({ status: EXECUTION_STATUS.skipped, reason: 'frequency_cap', processed_at: NEXT_DAY_AT }),
        ),
      ),
    ).toEqual([
      {
        clientId: C,
        day: '2026-01-16',
        row: { workflowId: 3 },
        counts: { skipped: 1 },
        skippedReasons: { frequency_cap: 1 },
      },
    ]);
    expect(
      deltasOfChange(
        change(
          'execution',
          execution({}),
          execution({ status: EXECUTION_STATUS.cancelled, reason: 'goal_reached', processed_at: AT }),
        ),
      ),
    ).toEqual([{ clientId: C, day: DAY, row: { workflowId: 3 }, counts: { exited: 1 } }]);
    expect(
      deltasOfChange(
        change('execution', execution({}), execution({ status: EXECUTION_STATUS.cancelled, reason: 'manual' })),
      ),
    ).toEqual([]);
    // An execution created skipped (at planning) is counted by its event, not as a skip; a retry's insert not at all.
    expect(deltasOfChange(change('execution', undefined, execution({ status: EXECUTION_STATUS.skipped })))).toEqual([]);
  });
});

describe('deltasOfChange: status logs', () => {
  it.each([
    [{ status: SENT_STATUS.delivered }, { delivered: 1 }],
    [{ status: SENT_STATUS.opened, is_bot: true }, { bot_opened: 1 }],
    [{ status: SENT_STATUS.clicked, is_bot: true }, { bot_clicked: 1 }],
    [{ status: SENT_STATUS.opened, first_open: true }, { opened: 1 }],
    [
      { status: SENT_STATUS.clicked, first_open: true, first_click: true },
      { opened: 1, clicked: 1 },
    ],
    [{ status: SENT_STATUS.opened }, undefined],
    [
      { status: SENT_STATUS.bounced, bounce_type: 'hard', suppression: 'hard_bounce' },
      { bounced_hard: 1, unsubscribed_suppression: 1 },
    ],
    [{ status: SENT_STATUS.bounced, bounce_type: 'soft' }, { bounced_soft: 1 }],
    [
      { status: SENT_STATUS.complained, suppression: 'complaint' },
      { complained: 1, unsubscribed_suppression: 1 },
    ],
    [{ status: SENT_STATUS.unsubscribed, suppression: 'ses_unsubscribe' }, { unsubscribed_ses: 1 }],
    [{ status: SENT_STATUS.unsubscribed, unsubscribed_by: 'link' }, { unsubscribed_link: 1 }],
    [{ status: SENT_STATUS.unsubscribed }, undefined],
    [{ status: SENT_STATUS.sent }, undefined],
    [{ status: SENT_STATUS.queued }, undefined],
  ])('counts the insert of %o as %o on its workflow and UTC day', (fields, counts) => {
    expect(deltasOfChange(change('sent_email_log', undefined, log(fields)))).toEqual(
      counts ? [{ clientId: C, day: DAY, row: { workflowId: 3 }, counts }] : [],
    );
  });

  it('counts nothing when a log is rewritten (erasure), except a link unsubscribe written over a log without it', () => {
    const delivered = log({ status: SENT_STATUS.delivered });
    expect(deltasOfChange(change('sent_email_log', delivered, { ...delivered, ip_address: null }))).toEqual([]);
    const link = log({ status: SENT_STATUS.unsubscribed, unsubscribed_by: 'link' });
    expect(deltasOfChange(change('sent_email_log', link, link))).toEqual([]);
    expect(deltasOfChange(change('sent_email_log', log({ status: SENT_STATUS.unsubscribed }), link))).toEqual([
      { clientId: C, day: DAY, row: { workflowId: 3 }, counts: { unsubscribed_link: 1 } },
    ]);
  });

  it('counts a log of an e-mail that names no workflow on row 0', () => {
    expect(
      deltasOfChange(change('sent_email_log', undefined, { id: 'l', created_at: AT, status: SENT_STATUS.delivered })),
    ).toEqual([{ clientId: C, day: DAY, row: { workflowId: 0 }, counts: { delivered: 1 } }]);
  });
});

describe('sumDeltas and reasonCode', () => {
  it('sums a batch per day row: counts, reasons and events received', () => {
    const summed = sumDeltas([
      { clientId: C, day: DAY, row: { workflowId: 3 }, counts: { sent: 1 } },
      { clientId: C, day: DAY, row: { workflowId: 3 }, counts: { sent: 1, failed: 1 }, failedReasons: { x: 1 } },
      { clientId: C, day: DAY, row: { workflowId: 3 }, counts: { failed: 1 }, failedReasons: { x: 1 } },
      { clientId: C, day: DAY, row: { eventType: 'signup' }, received: 1 },
      { clientId: C, day: DAY, row: { eventType: 'signup' }, received: 1 },
      { clientId: 8, day: DAY, row: { workflowId: 3 }, counts: { sent: 1 } },
    ]);
    expect(summed).toEqual([
      { clientId: C, day: DAY, row: { workflowId: 3 }, counts: { sent: 2, failed: 2 }, failedReasons: { x: 2 } },
      { clientId: C, day: DAY, row: { eventType: 'signup' }, received: 2 },
      { clientId: 8, day: DAY, row: { workflowId: 3 }, counts: { sent: 1 } },
    ]);
  });

  it('keeps a reason’s code before any detail, at most 64 characters', () => {
    expect(reasonCode('send_rejected: MessageRejected')).toBe('send_rejected');
    expect(reasonCode(undefined)).toBe('unknown');
    expect(reasonCode('x'.repeat(80))).toHaveLength(64);
  });
});
