import { describe, expect, it } from 'vitest';
import {
  SENT_STATUS,
  SENT_STATUS_TEXT,
  type SentStatus,
} from '../../../../shared/domain/sent-emails/sent-email-record.js';
import { nextEmailStatus, STATUS_LADDER, STATUS_RANK } from '../../../../shared/domain/tracking/status-rank.js';

const S = SENT_STATUS;
const ALL = Object.values(S) as SentStatus[];
const name = (status: SentStatus) => SENT_STATUS_TEXT[status];

describe('nextEmailStatus: the e-mail status never moves backwards', () => {
  it.each([
    ['a Delivery after a Click stays clicked', S.clicked, S.delivered, S.clicked],
    ['an Open after a Click stays clicked', S.clicked, S.opened, S.clicked],
    ['a Send after the Delivery stays delivered', S.delivered, S.sent, S.delivered],
    ['an Open after the Delivery becomes opened', S.delivered, S.opened, S.opened],
    ['a delay reported after the Delivery stays delivered', S.delivered, S.delivery_delayed, S.delivered],
    ['a Delivery after a delay becomes delivered', S.delivery_delayed, S.delivered, S.delivered],
    ['a delay after the Send becomes delivery_delayed', S.sent, S.delivery_delayed, S.delivery_delayed],
    ['a bounce after an Open becomes bounced', S.opened, S.bounced, S.bounced],
    ['a bounce after a Click becomes bounced', S.clicked, S.bounced, S.bounced],
    ['a Delivery after a bounce stays bounced', S.bounced, S.delivered, S.bounced],
    ['a complaint after a bounce becomes complained', S.bounced, S.complained, S.complained],
    ['a bounce after a complaint stays complained', S.complained, S.bounced, S.complained],
    ['a Click after a complaint stays complained', S.complained, S.clicked, S.complained],
    ['an unsubscribe after a Click becomes unsubscribed', S.clicked, S.unsubscribed, S.unsubscribed],
    ['an Open after an unsubscribe stays unsubscribed', S.unsubscribed, S.opened, S.unsubscribed],
    ['a complaint after an unsubscribe becomes complained', S.unsubscribed, S.complained, S.complained],
    ['a rendering failure of a queued e-mail becomes failed', S.queued, S.failed, S.failed],
    ['a rejection after the Send becomes rejected', S.sent, S.rejected, S.rejected],
    ['a Send after a rejection stays rejected', S.rejected, S.sent, S.rejected],
    ['the same status twice stays', S.opened, S.opened, S.opened],
  ])('%s', (_case, current, incoming, expected) => {
    expect(nextEmailStatus(current, incoming)).toBe(expected);
  });
});

describe('STATUS_RANK', () => {
  it('ranks every status exactly once, low to high as documented', () => {
    expect(STATUS_LADDER.map(name)).toEqual([
      'queued',
      'sent',
      'delivery_delayed',
      'delivered',
      'opened',
      'clicked',
      'unsubscribed',
      'failed',
      'rejected',
      'bounced',
      'complained',
    ]);
    expect(new Set(Object.values(STATUS_RANK)).size).toBe(ALL.length);
  });

  it('gives the same status whatever order two notifications arrive in, and never one below either', () => {
    // Prepare
    const pairs = ALL.flatMap((a) => ALL.map((b) => [a, b] as const));

    // Act
    const results = pairs.map(([a, b]) => ({ a, b, ab: nextEmailStatus(a, b), ba: nextEmailStatus(b, a) }));

    // Assess
    for (const { a, b, ab, ba } of results) {
      expect(ab, `${name(a)} then ${name(b)}`).toBe(ba);
      expect(STATUS_RANK[ab]).toBeGreaterThanOrEqual(Math.max(STATUS_RANK[a], STATUS_RANK[b]));
      expect([a, b]).toContain(ab);
    }
  });

  it('ends on the same status for every arrival order of an e-mail’s notifications', () => {
    // Prepare
    const notifications: SentStatus[] = [S.sent, S.delivered, S.opened, S.clicked, S.delivery_delayed];
    const orders = [
      notifications,
      [...notifications].reverse(),
      [S.clicked, S.sent, S.opened, S.delivery_delayed, S.delivered] as SentStatus[],
    ];

    // Act
    const finals = orders.map((order) => order.reduce(nextEmailStatus, S.queued as SentStatus));

    // Assess
    expect(finals).toEqual([S.clicked, S.clicked, S.clicked]);
  });
});
