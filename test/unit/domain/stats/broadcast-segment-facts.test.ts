import { describe, expect, it } from 'vitest';
import { EXECUTION_STATUS } from '../../../../shared/domain/executions/execution-record.js';
import { SENT_STATUS } from '../../../../shared/domain/sent-emails/sent-email-record.js';
import {
  type CountedChange,
  counterRowKey,
  deltasOfChange,
  sumDeltas,
} from '../../../../shared/domain/stats/counter-facts.js';

const C = 7;
const DAY = '2026-01-15';
const AT = `${DAY}T10:00:00.000Z`;

const change = (entity: CountedChange['entity'], old: object | undefined, next: object | undefined): CountedChange => ({
  entity,
  clientId: C,
  ...(old ? { old } : {}),
  ...(next ? { new: next } : {}),
});
const member = { client_id: C, segment_id: 12, contact_id: 40, at: AT, z: 'Europe/Paris' };
const recipient = (fields: Record<string, unknown>) => ({
  id: 9,
  client_id: C,
  workflow_id: 0,
  broadcast_id: 31,
  variant: 0,
  status: EXECUTION_STATUS.queued,
  created_at: AT,
  updated_at: AT,
  ...fields,
});

describe('deltasOfChange: segment members', () => {
  it('counts an entry written as +1 and an entry removed as −1 on the segment gauge', () => {
    // Prepare / Act
    const entered = deltasOfChange(change('segment_member', undefined, member));
    const left = deltasOfChange(change('segment_member', member, undefined));
    // Assess
    expect(entered).toEqual([{ clientId: C, day: DAY, row: { segmentGauge: 12 }, adds: { n: 1 } }]);
    expect(left).toEqual([{ clientId: C, day: DAY, row: { segmentGauge: 12 }, adds: { n: -1 } }]);
  });

  it('counts nothing for a kept member rewritten (its zone moved), or an entry naming no segment', () => {
    expect(deltasOfChange(change('segment_member', member, { ...member, z: 'Asia/Tokyo' }))).toEqual([]);
    expect(deltasOfChange(change('segment_member', undefined, { contact_id: 40, at: AT }))).toEqual([]);
  });

  it('sums a batch of entries and removals of one segment into one gauge write', () => {
    const deltas = [
      change('segment_member', undefined, member),
      change('segment_member', undefined, { ...member, contact_id: 41 }),
      change('segment_member', { ...member, contact_id: 42 }, undefined),
      change('segment_member', undefined, { ...member, segment_id: 13 }),
    ].flatMap(deltasOfChange);
    const summed = sumDeltas(deltas);
    expect(summed.map((d) => [counterRowKey(d), d.adds])).toEqual([
      [`${C}#NOW#S12`, { n: 1 }],
      [`${C}#NOW#S13`, { n: 1 }],
    ]);
  });
});

describe('deltasOfChange: a broadcast recipient counts on its broadcast too', () => {
  it('counts a claim as sent on workflow row 0 and on the broadcast, and a skip with its reason on both', () => {
    // Prepare
    const claim = { log_id: 'c1', quota_day: DAY, sent_email_id: 'e' };
    // Act
    const sent = deltasOfChange(change('execution', recipient({}), recipient({ status: 2, claim })));
    const skipped = deltasOfChange(
      change(
        'execution',
        recipient({}),
        recipient({ status: EXECUTION_STATUS.skipped, reason: 'unsubscribed', processed_at: AT }),
      ),
    );
    // Assess
    expect(sent).toEqual([
      { clientId: C, day: DAY, row: { workflowId: 0 }, counts: { sent: 1 } },
      { clientId: C, day: DAY, row: { broadcast: 31 }, counts: { sent: 1 } },
    ]);
    expect(skipped.map((d) => d.row)).toEqual([{ workflowId: 0 }, { broadcast: 31 }]);
    expect(skipped[1]).toMatchObject({ counts: { skipped: 1 }, skippedReasons: { unsubscribed: 1 } });
  });

  it('counts its e-mail’s delivery, human open and link unsubscribe on the broadcast, a machine open as machine', () => {
    const log = (fields: Record<string, unknown>) => ({
      id: 'l',
      created_at: AT,
      workflow_id: 0,
      broadcast_id: 31,
      ...fields,
    });
    const rows = [
      deltasOfChange(change('sent_email_log', undefined, log({ status: SENT_STATUS.delivered }))),
      deltasOfChange(change('sent_email_log', undefined, log({ status: SENT_STATUS.opened, first_open: true }))),
      deltasOfChange(change('sent_email_log', undefined, log({ status: SENT_STATUS.opened, is_bot: true }))),
      deltasOfChange(
        change('sent_email_log', undefined, log({ status: SENT_STATUS.unsubscribed, unsubscribed_by: 'link' })),
      ),
    ].map((deltas) => deltas.find((d) => 'broadcast' in d.row)?.counts);
    expect(rows).toEqual([{ delivered: 1 }, { opened: 1 }, { bot_opened: 1 }, { unsubscribed_link: 1 }]);
  });

  it('leaves a test send of a broadcast (no broadcast_id) and a workflow e-mail off every broadcast row', () => {
    const test = { ...recipient({}), broadcast_id: undefined, broadcast_test_of: 31, is_test: true };
    const deltas = deltasOfChange(
      change('execution', test, { ...test, status: 2, claim: { log_id: 'c', quota_day: DAY } }),
    );
    expect(deltas.some((d) => 'broadcast' in d.row)).toBe(false);
  });
  it("counts an A/B test's share on its variant's row too, a holdout and an untested broadcast on the totals only", () => {
    const claim = { log_id: 'c1', quota_day: DAY, sent_email_id: 'e' };
    const tested = recipient({ variant: 1, ab_test: true });
    const held = { ...recipient({ holdout: true }), variant: undefined };
    const rowsOf = (old: object, next: object) => deltasOfChange(change('execution', old, next)).map((d) => d.row);
    expect(rowsOf(tested, { ...tested, status: 2, claim })).toEqual([
      { workflowId: 0 },
      { broadcast: 31 },
      { broadcast: 31, variant: 1 },
    ]);
    expect(rowsOf(held, { ...held, status: 2, claim })).toEqual([{ workflowId: 0 }, { broadcast: 31 }]);
    const open = { id: 'l', created_at: AT, workflow_id: 0, broadcast_id: 31, variant: 1, ab_test: true };
    const deltas = deltasOfChange(
      change('sent_email_log', undefined, { ...open, status: SENT_STATUS.opened, first_open: true }),
    );
    expect(deltas.filter((d) => 'broadcast' in d.row)).toEqual([
      { clientId: C, day: DAY, row: { broadcast: 31 }, counts: { opened: 1 } },
      { clientId: C, day: DAY, row: { broadcast: 31, variant: 1 }, counts: { opened: 1 } },
    ]);
    expect(counterRowKey(deltas.at(-1)!)).toBe(`${C}#B31#V1`);
  });
});
