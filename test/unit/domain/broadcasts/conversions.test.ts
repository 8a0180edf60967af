import { describe, expect, it } from 'vitest';
import {
  conversionEntryOf,
  conversionsOpenTo,
  convertedRecipientOf,
  recordConversions,
  type ConversionStore,
} from '../../../../shared/domain/broadcasts/conversions.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../../../shared/domain/executions/execution-record.js';

const START = '2026-03-01T09:00:00.000Z';
const entry = conversionEntryOf(5, { event: 'purchase', window_days: 2 }, START);
const recipient = (id: number, processedAt: string, fields: Partial<ExecutionRecord> = {}) =>
  ({
    id,
    client_id: 7,
    contact_id: 40,
    broadcast_id: 5,
    status: EXECUTION_STATUS.completed,
    is_test: false,
    processed_at: processedAt,
    updated_at: processedAt,
    ...fields,
  }) as ExecutionRecord;

describe('broadcast conversions', () => {
  it('lists a broadcast from its start to start + window + the days it may still send', () => {
    expect(entry).toEqual({
      broadcast_id: 5,
      event: 'purchase',
      window_days: 2,
      from: START,
      until: '2026-03-10T09:00:00.000Z',
    });
    expect(conversionsOpenTo([entry], 'purchase', '2026-03-02T00:00:00.000Z')).toEqual([entry]);
    expect(conversionsOpenTo([entry], 'signup', '2026-03-02T00:00:00.000Z')).toEqual([]);
    expect(conversionsOpenTo([entry], 'purchase', '2026-02-28T00:00:00.000Z')).toEqual([]);
    expect(conversionsOpenTo([entry], 'purchase', '2026-03-11T00:00:00.000Z')).toEqual([]);
    expect(conversionsOpenTo(undefined, 'purchase', START)).toEqual([]);
  });

  it('converts the latest attempt sent before the event and within the window, once', () => {
    const sent = recipient(11, '2026-03-01T10:00:00.000Z');
    expect(convertedRecipientOf([sent], entry, '2026-03-02T10:00:00.000Z')).toBe(sent);
    // Before its e-mail, or after the window: no conversion.
    expect(convertedRecipientOf([sent], entry, '2026-03-01T09:59:59.000Z')).toBeUndefined();
    expect(convertedRecipientOf([sent], entry, '2026-03-03T10:00:01.000Z')).toBeUndefined();
    // Already converted, never sent (skipped), or a retried attempt's newer one.
    expect(convertedRecipientOf([{ ...sent, converted_at: START }], entry, '2026-03-02T10:00:00.000Z')).toBeUndefined();
    expect(
      convertedRecipientOf([{ ...sent, status: EXECUTION_STATUS.skipped }], entry, '2026-03-02T10:00:00.000Z'),
    ).toBeUndefined();
    const retried = recipient(12, '2026-03-01T11:00:00.000Z');
    expect(
      convertedRecipientOf([{ ...sent, status: EXECUTION_STATUS.retried }, retried], entry, '2026-03-02T10:00:00.000Z'),
    ).toBe(retried);
  });

  it('asks nothing for an event of another type, and marks the recipient of each open broadcast', async () => {
    const calls: string[] = [];
    const store: ConversionStore = {
      broadcastRecipients: async (_c, b) => {
        calls.push(`query ${b}`);
        return [recipient(11, '2026-03-01T10:00:00.000Z')];
      },
      markConverted: async (_c, id) => {
        calls.push(`mark ${id}`);
        return true;
      },
    };
    expect(
      await recordConversions(store, 7, 40, { id: 1, type: 'signup', ts: '2026-03-02T00:00:00.000Z' }, [entry]),
    ).toEqual([]);
    expect(calls).toEqual([]);
    expect(
      await recordConversions(store, 7, 40, { id: 2, type: 'purchase', ts: '2026-03-02T00:00:00.000Z' }, [entry]),
    ).toEqual([5]);
    expect(calls).toEqual(['query 5', 'mark 11']);
  });
});
