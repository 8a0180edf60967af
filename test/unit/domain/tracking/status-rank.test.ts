import { describe, expect, it } from 'vitest';
import { SENT_STATUS } from '../../../../shared/domain/sent-emails/sent-email-record.js';
import { nextEmailStatus, STATUS_RANK } from '../../../../shared/domain/tracking/status-rank.js';

const S = SENT_STATUS;

describe('nextEmailStatus: the e-mail status never moves backwards', () => {
  it.each([
    ['a Delivery after a Click stays clicked', S.clicked, S.delivered, S.clicked],
    ['a Send after the Delivery stays delivered', S.delivered, S.sent, S.delivered],
    ['an Open after the Delivery becomes opened', S.delivered, S.opened, S.opened],
    ['a delay after the Delivery stays delivered', S.delivered, S.delivery_delayed, S.delivered],
    ['a Delivery after a delay becomes delivered', S.delivery_delayed, S.delivered, S.delivered],
    ['a bounce after an Open becomes bounced', S.opened, S.bounced, S.bounced],
    ['a complaint after a bounce becomes complained', S.bounced, S.complained, S.complained],
    ['a Click after a complaint stays complained', S.complained, S.clicked, S.complained],
    ['an unsubscribe after a Click becomes unsubscribed', S.clicked, S.unsubscribed, S.unsubscribed],
    ['a rejection of a queued e-mail becomes rejected', S.queued, S.rejected, S.rejected],
    ['the same status stays', S.opened, S.opened, S.opened],
  ])('%s', (_case, current, incoming, expected) => {
    expect(nextEmailStatus(current, incoming)).toBe(expected);
  });

  it('ranks every status exactly once', () => {
    expect([...STATUS_RANK].sort((a, b) => a - b)).toEqual(Object.values(S).sort((a, b) => a - b));
  });
});
