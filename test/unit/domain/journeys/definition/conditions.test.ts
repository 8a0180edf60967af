import { describe, expect, it } from 'vitest';
import type { ContactRecord } from '../../../../../shared/domain/contacts/contact-store.js';
import {
  conditionsHold,
  eventMatchesTrigger,
  readEventPath,
  type ConditionEvent,
  type ConditionInput,
} from '../../../../../shared/domain/journeys/definition/conditions.js';
import type { Condition, JourneyTrigger } from '../../../../../shared/domain/journeys/definition/types.js';
import type { TopicSet } from '../../../../../shared/domain/topics/topic-store.js';

const event: ConditionEvent = {
  type: 'order_placed',
  ts: '2026-11-28T10:00:00.000Z',
  plan: 'pro',
  amount: 120,
  upgrade: false,
  metadata: { cart: { items: 3, coupon: 'XMAS' }, tags: ['gift', 'rush'] },
  payload: { type: 'order_placed', total: '99.5', sku: 'A-1', nested: { deep: { er: { most: 1 } } } },
};

const contact: ContactRecord = {
  id: 7,
  client_id: 1,
  email: 'ada@example.com',
  first_name: 'Ada',
  is_subscribed: true,
  source: 1,
  custom_fields: { seats: { id: 1, value: 12 }, tier: { id: 2, value: 'Gold' }, beta: { id: 3, value: true } },
  tags: ['vip'],
  active_states: 0,
  active_workflow_count: 0,
  health_score: 80,
  total_emails_sent: 10,
  total_emails_opened: 4,
  total_emails_clicked: 1,
  last_purchase_at: '2026-11-01T08:00:00.000Z',
  created_by: 1,
  created_at: '2026-01-15T12:00:00.000Z',
  updated_at: '2026-11-01T08:00:00.000Z',
};

const topics: TopicSet = {
  topics: [
    { id: 1, name: 'News', description: '', default_subscribed: true, created_at: '', updated_at: '' },
    { id: 2, name: 'Deals', description: '', default_subscribed: false, created_at: '', updated_at: '' },
  ],
  next_id: 3,
  version: 2,
};

const input: ConditionInput = { event, contact, topics, engagement: { welcome: { opened: true, clicked: false } } };

describe('readEventPath', () => {
  it.each([
    ['type', 'order_placed'],
    ['ts', '2026-11-28T10:00:00.000Z'],
    ['amount', 120],
    ['upgrade', false],
    ['metadata.cart.items', 3],
    ['metadata.tags', ['gift', 'rush']],
    ['payload.total', '99.5'],
    ['sku', 'A-1'],
    ['payload.nested.deep.er.most', 1],
    ['feature', undefined],
    ['metadata.cart.missing', undefined],
    ['metadata.cart.items.deeper', undefined],
    ['payload.__proto__', undefined],
    ['constructor', undefined],
  ])('reads %s as %j', (path, expected) => {
    // Act
    const value = readEventPath(event, path);

    // Assess
    expect(value).toEqual(expected);
  });

  it('reads nothing from no event', () => {
    expect(readEventPath(undefined, 'type')).toBeUndefined();
  });
});

describe('conditionsHold', () => {
  it.each<[string, Condition, boolean]>([
    ['eq on a string, exactly', { on: 'event', path: 'plan', op: 'eq', value: 'pro' }, true],
    ['eq is case-sensitive', { on: 'event', path: 'plan', op: 'eq', value: 'Pro' }, false],
    ['neq', { on: 'event', path: 'plan', op: 'neq', value: 'free' }, true],
    ['neq holds on an absent value', { on: 'event', path: 'feature', op: 'neq', value: 'x' }, true],
    ['eq needs a value', { on: 'event', path: 'feature', op: 'eq', value: 'x' }, false],
    ['numbers as numbers (gt)', { on: 'event', path: 'amount', op: 'gt', value: 100 }, true],
    ['numbers as numbers (not text: 120 < 99 as text)', { on: 'event', path: 'amount', op: 'lt', value: 99 }, false],
    ['a numeric string against a number', { on: 'event', path: 'payload.total', op: 'gte', value: 99.5 }, true],
    ['a numeric string eq a number', { on: 'event', path: 'total', op: 'eq', value: 99.5 }, true],
    ['text cannot be ordered against a number', { on: 'event', path: 'plan', op: 'gt', value: 1 }, false],
    ['in a list', { on: 'event', path: 'plan', op: 'in', value: ['basic', 'pro'] }, true],
    ['not_in a list', { on: 'event', path: 'plan', op: 'not_in', value: ['basic', 'pro'] }, false],
    ['not_in holds on an absent value', { on: 'event', path: 'feature', op: 'not_in', value: ['a'] }, true],
    ['contains on a string', { on: 'event', path: 'metadata.cart.coupon', op: 'contains', value: 'MA' }, true],
    ['contains on a list', { on: 'event', path: 'metadata.tags', op: 'contains', value: 'rush' }, true],
    ['contains on a list, not there', { on: 'event', path: 'metadata.tags', op: 'contains', value: 'r' }, false],
    ['exists', { on: 'event', path: 'metadata.cart', op: 'exists' }, true],
    ['not_exists', { on: 'event', path: 'feature', op: 'not_exists' }, true],
    ['a boolean eq', { on: 'event', path: 'upgrade', op: 'eq', value: false }, true],
    ['ts as an instant', { on: 'event', path: 'ts', op: 'gt', value: '2026-11-28T09:00:00+00:00' }, true],
    [
      'ts eq another spelling of the instant',
      { on: 'event', path: 'ts', op: 'eq', value: '2026-11-28T11:00:00+01:00' },
      true,
    ],
    ['contact field', { on: 'contact', field: 'first_name', op: 'eq', value: 'Ada' }, true],
    ['contact number', { on: 'contact', field: 'health_score', op: 'gte', value: 80 }, true],
    [
      'contact date as a date',
      { on: 'contact', field: 'created_at', op: 'lt', value: '2026-01-15T13:00:00+00:00' },
      true,
    ],
    [
      'contact date later than',
      { on: 'contact', field: 'last_purchase_at', op: 'gt', value: '2026-12-01T00:00:00Z' },
      false,
    ],
    ['contact absent field', { on: 'contact', field: 'company', op: 'not_exists' }, true],
    ['contact boolean', { on: 'contact', field: 'is_subscribed', op: 'eq', value: true }, true],
    ['custom field number', { on: 'custom_field', name: 'seats', op: 'gt', value: 10 }, true],
    ['custom field string, case-sensitive', { on: 'custom_field', name: 'tier', op: 'eq', value: 'gold' }, false],
    ['custom field missing', { on: 'custom_field', name: 'nope', op: 'exists' }, false],
    ['custom field inherited name', { on: 'custom_field', name: 'constructor', op: 'exists' }, false],
    ['tag has', { on: 'tag', op: 'has', tag: 'vip' }, true],
    ['tag has_not', { on: 'tag', op: 'has_not', tag: 'vip' }, false],
    ['topic by default', { on: 'topic', topic_id: 1, op: 'subscribed' }, true],
    ['topic off by default', { on: 'topic', topic_id: 2, op: 'unsubscribed' }, true],
    ['a topic that is gone', { on: 'topic', topic_id: 9, op: 'unsubscribed' }, false],
    ['engagement opened', { on: 'engagement', send_step: 'welcome', op: 'human_opened' }, true],
    ['engagement clicked', { on: 'engagement', send_step: 'welcome', op: 'human_clicked' }, false],
    ['engagement neither', { on: 'engagement', send_step: 'welcome', op: 'neither' }, false],
    ['engagement of an unrecorded send: opened', { on: 'engagement', send_step: 'other', op: 'human_opened' }, false],
    ['engagement of an unrecorded send: neither', { on: 'engagement', send_step: 'other', op: 'neither' }, true],
  ])('%s', (_name, condition, expected) => {
    // Act
    const held = conditionsHold([condition], input);

    // Assess
    expect(held).toBe(expected);
  });

  it.each<[string, Condition]>([
    ['contact field', { on: 'contact', field: 'company', op: 'not_exists' }],
    ['custom field', { on: 'custom_field', name: 'x', op: 'neq', value: 1 }],
    ['tag', { on: 'tag', op: 'has_not', tag: 'vip' }],
    ['topic', { on: 'topic', topic_id: 1, op: 'unsubscribed' }],
  ])('a %s condition without a contact does not hold, whatever its op', (_name, condition) => {
    expect(conditionsHold([condition], { event, topics })).toBe(false);
  });

  it('an event condition without an event does not hold', () => {
    expect(conditionsHold([{ on: 'event', path: 'feature', op: 'not_exists' }], { contact })).toBe(false);
  });

  it('reads a topic the contact left, and one it left by leaving all marketing mail', () => {
    // Prepare
    const left = { ...contact, topic_1: false } as ContactRecord;
    const unsubscribed = { ...contact, is_subscribed: false };

    // Act / Assess
    expect(conditionsHold([{ on: 'topic', topic_id: 1, op: 'unsubscribed' }], { contact: left, topics })).toBe(true);
    expect(conditionsHold([{ on: 'topic', topic_id: 1, op: 'subscribed' }], { contact: unsubscribed, topics })).toBe(
      false,
    );
  });

  it('needs every condition; an empty or absent list holds', () => {
    // Prepare
    const yes: Condition = { on: 'event', path: 'plan', op: 'eq', value: 'pro' };
    const no: Condition = { on: 'tag', op: 'has', tag: 'nope' };

    // Act / Assess
    expect(conditionsHold([yes, no], input)).toBe(false);
    expect(conditionsHold([yes, yes], input)).toBe(true);
    expect(conditionsHold([], {})).toBe(true);
    expect(conditionsHold(undefined, {})).toBe(true);
  });
});

describe('eventMatchesTrigger', () => {
  const trigger: JourneyTrigger = {
    event: 'order_placed',
    conditions: [{ on: 'event', path: 'amount', op: 'gte', value: 100 }],
    reentry: { mode: 'always' },
  };
  const withOrWhen: JourneyTrigger = {
    event: 'upgrade',
    or_when: [{ on: 'event', path: 'upgrade', op: 'eq', value: true }],
    reentry: { mode: 'always' },
  };

  it.each<[string, JourneyTrigger, ConditionEvent, boolean]>([
    ['its type with the conditions met', trigger, event, true],
    ['its type with the conditions unmet', trigger, { ...event, amount: 50 }, false],
    ['another type', trigger, { ...event, type: 'signup' }, false],
    ['or_when on any type', withOrWhen, { type: 'plan_changed', ts: event.ts, upgrade: true }, true],
    ['or_when unmet on another type', withOrWhen, { type: 'plan_changed', ts: event.ts, upgrade: false }, false],
    ['the type itself beside or_when', withOrWhen, { type: 'upgrade', ts: event.ts }, true],
  ])('%s → %s', (_name, t, e, expected) => {
    expect(eventMatchesTrigger(t, e, contact)).toBe(expected);
  });

  it('a contact condition on the trigger needs the contact', () => {
    // Prepare
    const t: JourneyTrigger = {
      event: 'order_placed',
      conditions: [{ on: 'tag', op: 'has', tag: 'vip' }],
      reentry: { mode: 'once' },
    };

    // Act / Assess
    expect(eventMatchesTrigger(t, event, contact)).toBe(true);
    expect(eventMatchesTrigger(t, event, undefined)).toBe(false);
  });
});
