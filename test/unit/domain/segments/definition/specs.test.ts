import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ConditionEvent } from '../../../../../shared/domain/journeys/definition/conditions.js';
import { canonicalJson } from '../../../../../shared/domain/segments/definition/canonical.js';
import { compileIndex, counterUpdateOf, specIdOf } from '../../../../../shared/domain/segments/definition/specs.js';
import type {
  ContactCounters,
  SegmentCondition,
  SegmentEventCondition,
  SegmentIndexBody,
} from '../../../../../shared/domain/segments/definition/types.js';
import { allOf } from './segment-fixtures.js';

const pro: SegmentEventCondition = { on: 'event', path: 'plan', op: 'eq', value: 'pro' };
const big: SegmentEventCondition = { on: 'event', path: 'amount', op: 'gte', value: 100 };
const counted = (
  event: string,
  op: 'at_least' | 'at_most' | 'exactly',
  count: number,
  within_days?: number,
  conditions?: SegmentEventCondition[],
): SegmentCondition => ({
  on: 'event_count',
  event,
  op,
  count,
  ...(within_days !== undefined ? { within_days } : {}),
  ...(conditions ? { conditions } : {}),
});

describe('canonicalJson', () => {
  it('writes members in one order at every depth and drops absent ones', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: undefined, x: 0 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"x":0,"z":1}]},"b":1}',
    );
  });
});

describe('specIdOf', () => {
  it.each([
    [
      'members in another order',
      { type: 'buy', conditions: [pro] },
      { type: 'buy', conditions: [{ value: 'pro', op: 'eq', path: 'plan', on: 'event' } as const] },
    ],
    ['conditions in another order', { type: 'buy', conditions: [pro, big] }, { type: 'buy', conditions: [big, pro] }],
    ['a repeated condition', { type: 'buy', conditions: [pro] }, { type: 'buy', conditions: [pro, pro] }],
    ['no conditions and an empty list', { type: 'buy' }, { type: 'buy', conditions: [] }],
  ])('is the same for %s', (_name, a, b) => {
    expect(specIdOf(a)).toBe(specIdOf(b));
  });

  it.each([
    ['another type', { type: 'buy' }, { type: 'sell' }],
    ['another value', { type: 'buy', conditions: [pro] }, { type: 'buy', conditions: [{ ...pro, value: 'Pro' }] }],
    [
      'a number against its text',
      { type: 'buy', conditions: [big] },
      { type: 'buy', conditions: [{ ...big, value: '100' }] },
    ],
  ])('differs for %s', (_name, a, b) => {
    expect(specIdOf(a)).not.toBe(specIdOf(b));
  });

  it('is the first 8 hex digits of the canonical text’s sha256', () => {
    // Prepare
    const text = '{"conditions":[{"on":"event","op":"eq","path":"plan","value":"pro"}],"type":"buy"}';

    // Act / Assess
    expect(specIdOf({ type: 'buy', conditions: [pro] })).toBe(
      createHash('sha256').update(text).digest('hex').slice(0, 8),
    );
  });
});

describe('compileIndex', () => {
  it('compiles every spec once with the newest times its windows need and its longest window', () => {
    // Prepare
    const segments = [
      {
        id: 2,
        version: 3,
        definition: allOf(counted('buy', 'at_least', 3, 7, [pro]), counted('login', 'at_least', 5)),
      },
      { id: 1, version: 1, definition: allOf(counted('buy', 'exactly', 4, 30, [pro]), counted('buy', 'at_most', 9)) },
    ];

    // Act
    const index = compileIndex(segments);

    // Assess
    const buyPro = specIdOf({ type: 'buy', conditions: [pro] });
    const buy = specIdOf({ type: 'buy' });
    const login = specIdOf({ type: 'login' });
    expect(index.segments.map((s) => [s.id, s.version])).toEqual([
      [1, 1],
      [2, 3],
    ]);
    expect(index.specs).toEqual(
      [
        { id: buyPro, type: 'buy', conditions: [pro], k: 5, max_days: 30 },
        { id: buy, type: 'buy', conditions: [], k: 1 },
        { id: login, type: 'login', conditions: [], k: 1 },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
  });

  it.each<[string, SegmentCondition, string[]]>([
    ['a contact field', { on: 'contact', field: 'company', op: 'exists' }, ['company', 'timezone']],
    ['a custom field', { on: 'custom_field', name: 'plan', op: 'eq', value: 'pro' }, ['custom_fields', 'timezone']],
    ['a tag', { on: 'tag', op: 'has', tag: 'a' }, ['tags', 'timezone']],
    ['a topic', { on: 'topic', topic_id: 4, op: 'subscribed' }, ['is_subscribed', 'timezone', 'topic_4']],
    ['the subscription', { on: 'subscription', op: 'suppressed' }, ['is_subscribed', 'timezone', 'unsubscribe_reason']],
    ['a date', { on: 'date', field: 'last_purchase_at', op: 'exists' }, ['last_purchase_at', 'timezone']],
    ['an event count (its counters are watched, not the contact)', counted('buy', 'at_least', 1), ['timezone']],
    [
      'human clicks within days',
      { on: 'engagement', op: 'human_clicked', within_days: 3 },
      ['last_email_clicked_at', 'timezone'],
    ],
    ['human opens ever', { on: 'engagement', op: 'human_opened' }, ['timezone', 'total_emails_opened']],
    ['never opened', { on: 'engagement', op: 'never_opened' }, ['timezone', 'total_emails_opened']],
  ])('watches the contact attributes of %s', (_name, condition, watched) => {
    expect(compileIndex([{ id: 1, version: 1, definition: allOf(condition) }]).watched).toEqual(watched);
  });

  it('watches nothing without segments', () => {
    expect(compileIndex([])).toEqual({ segments: [], specs: [], watched: [] });
  });

  it('keeps spec ids across an edit that keeps the counter', () => {
    // Prepare
    const before = compileIndex([
      { id: 1, version: 1, definition: allOf(counted('buy', 'at_least', 2, 7, [pro, big])) },
    ]);

    // Act: another count, window and condition order, and a new condition elsewhere
    const after = compileIndex([
      {
        id: 1,
        version: 2,
        definition: allOf(counted('buy', 'at_most', 6, 90, [big, pro]), { on: 'tag', op: 'has', tag: 'x' }),
      },
    ]);

    // Assess
    expect(after.specs.map((s) => s.id)).toEqual(before.specs.map((s) => s.id));
  });
});

describe('counterUpdateOf', () => {
  const index: Pick<SegmentIndexBody, 'specs'> = compileIndex([
    { id: 1, version: 1, definition: allOf(counted('buy', 'at_least', 3, 7, [pro])) },
    { id: 2, version: 1, definition: allOf(counted('buy', 'at_least', 1)) },
  ]);
  const buyPro = specIdOf({ type: 'buy', conditions: [pro] });
  const buy = specIdOf({ type: 'buy' });
  const at = (iso: string) => Date.parse(iso) / 1000;
  const event = (plan: string, ts: string): ConditionEvent => ({ type: 'buy', ts, plan });

  it('starts the counters of every spec the event meets', () => {
    // Act
    const update = counterUpdateOf(index, event('pro', '2026-11-28T10:00:00.900Z'), undefined);

    // Assess: times in whole seconds
    expect(update).toEqual({
      ev_v: 1,
      recent: { [buyPro]: [at('2026-11-28T10:00:00Z')], [buy]: [at('2026-11-28T10:00:00Z')] },
      total: { [buyPro]: 1, [buy]: 1 },
    });
  });

  it('counts only the specs whose conditions the event meets', () => {
    // Act
    const update = counterUpdateOf(index, event('free', '2026-11-28T10:00:00Z'), undefined);

    // Assess
    expect(update).toEqual({ ev_v: 1, recent: { [buy]: [at('2026-11-28T10:00:00Z')] }, total: { [buy]: 1 } });
  });

  it('reads a condition on the body as sent (payload)', () => {
    // Prepare
    const onBody = compileIndex([
      {
        id: 1,
        version: 1,
        definition: allOf(counted('buy', 'at_least', 1, 7, [{ on: 'event', path: 'sku', op: 'eq', value: 'A' }])),
      },
    ]);

    // Act
    const update = counterUpdateOf(
      onBody,
      { type: 'buy', ts: '2026-11-28T10:00:00Z', payload: { sku: 'A' } },
      undefined,
    );

    // Assess
    expect(update?.total).toEqual({
      [specIdOf({ type: 'buy', conditions: [{ on: 'event', path: 'sku', op: 'eq', value: 'A' }] })]: 1,
    });
  });

  it.each([
    ['another type', { type: 'sell', ts: '2026-11-28T10:00:00Z', plan: 'pro' }],
    ['a type differing in case', { type: 'Buy', ts: '2026-11-28T10:00:00Z', plan: 'pro' }],
  ])('writes nothing for %s', (_name, e) => {
    expect(counterUpdateOf(index, e, { ev_v: 4, recent: {}, total: {} })).toBeUndefined();
  });

  it.each([
    ['newest', '2026-11-28T10:00:00Z', ['2026-11-28T10:00:00Z', '2026-11-27T00:00:00Z', '2026-11-26T00:00:00Z']],
    [
      'between the kept ones (late)',
      '2026-11-26T12:00:00Z',
      ['2026-11-27T00:00:00Z', '2026-11-26T12:00:00Z', '2026-11-26T00:00:00Z'],
    ],
    [
      'older than every kept one',
      '2026-11-01T00:00:00Z',
      ['2026-11-27T00:00:00Z', '2026-11-26T00:00:00Z', '2026-11-25T00:00:00Z'],
    ],
  ])('keeps the K newest times, newest first, with an event %s', (_name, ts, kept) => {
    // Prepare: K = 3 for buy+pro, full
    const read: ContactCounters = {
      ev_v: 7,
      recent: {
        [buyPro]: ['2026-11-27T00:00:00Z', '2026-11-26T00:00:00Z', '2026-11-25T00:00:00Z'].map(at),
        [buy]: [at('2026-11-27T00:00:00Z')],
      },
      total: { [buyPro]: 12, [buy]: 40 },
    };

    // Act
    const update = counterUpdateOf(index, event('pro', ts), read);

    // Assess
    expect(update?.ev_v).toBe(8);
    expect(update?.recent[buyPro]).toEqual(kept.map(at));
    expect(update?.total).toEqual({ [buyPro]: 13, [buy]: 41 });
  });

  it('drops the counters no segment reads any more, and times beyond a lowered K', () => {
    // Prepare
    const read: ContactCounters = {
      ev_v: 2,
      recent: { gone0000: [5, 4], [buy]: [30, 20, 10] },
      total: { gone0000: 2, [buy]: 3 },
    };

    // Act
    const update = counterUpdateOf(index, event('free', '1970-01-01T00:01:40Z'), read);

    // Assess
    expect(update).toEqual({ ev_v: 3, recent: { [buy]: [100] }, total: { [buy]: 4 } });
  });
});
