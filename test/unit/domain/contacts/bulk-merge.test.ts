import { describe, expect, it } from 'vitest';
import { applyContactPatch, sameContact, type MergeContext } from '../../../../shared/domain/contacts/bulk-merge.js';
import { parseContactRow, type ContactPatch } from '../../../../shared/domain/contacts/bulk-row.js';
import { contactRecord } from '../../support/contact-fixtures.js';

const NOW = '2026-03-01T12:00:00.000Z';
const ctx = (overrides: Partial<MergeContext> = {}): MergeContext => ({
  overwriteBlankFields: false,
  now: NOW,
  clientId: 7,
  createdBy: 1,
  customFieldIds: new Map([
    ['plan', 11],
    ['seats', 12],
  ]),
  defaultSource: 1,
  ...overrides,
});
const patch = (raw: Record<string, unknown>): ContactPatch => {
  const parsed = parseContactRow({ email: 'ann@example.com', ...raw }, 'contacts.0');
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.patch;
};
const stored = contactRecord({
  id: 5,
  last_name: 'Lee',
  company: 'Acme',
  timezone: 'Europe/Paris',
  client_contact_id: 'u-5',
  custom_fields: { plan: { id: 11, value: 'free' }, seats: { id: 12, value: 3 } },
  total_emails_sent: 4,
});

describe('applyContactPatch on a stored contact', () => {
  it('keeps stored values for empty and missing fields when overwrite_blank_fields is false', () => {
    const next = applyContactPatch(
      stored,
      patch({ first_name: 'Anna', last_name: '', company: null, custom_fields: { seats: '' } }),
      5,
      ctx(),
    );
    expect(next).toMatchObject({
      first_name: 'Anna',
      last_name: 'Lee',
      company: 'Acme',
      timezone: 'Europe/Paris',
      updated_at: NOW,
    });
    expect(next.custom_fields).toEqual(stored.custom_fields);
    expect(next.total_emails_sent).toBe(4);
  });

  it('clears fields given empty when overwrite_blank_fields is true, and still keeps the missing ones', () => {
    const next = applyContactPatch(
      stored,
      patch({ last_name: '', client_contact_id: '', custom_fields: { seats: null } }),
      5,
      ctx({ overwriteBlankFields: true }),
    );
    expect(next.last_name).toBeUndefined();
    expect(next.client_contact_id).toBeUndefined();
    expect(next.custom_fields).toEqual({ plan: { id: 11, value: 'free' } });
    expect(next).toMatchObject({ first_name: 'Ann', company: 'Acme', timezone: 'Europe/Paris' });
  });

  it('leaves updated_at alone when the row says what is stored already', () => {
    const next = applyContactPatch(
      stored,
      patch({ first_name: 'Ann', timezone: 'CET', custom_fields: { plan: 'free' } }),
      5,
      ctx(),
    );
    expect(sameContact(stored, next)).toBe(true);
    expect(next.updated_at).toBe(stored.updated_at);
  });

  it('unsubscribes with a reason, then keeps the first unsubscription time unless the row gives one', () => {
    const off = applyContactPatch(stored, patch({ is_subscribed: false, unsubscribe_reason: 'too many' }), 5, ctx());
    expect(off).toMatchObject({ is_subscribed: false, unsubscribed_at: NOW, unsubscribe_reason: 'too many' });
    const again = applyContactPatch(off, patch({ is_subscribed: false }), 5, ctx({ now: '2026-04-01T00:00:00.000Z' }));
    expect(again.unsubscribed_at).toBe(NOW);
  });

  it('never resubscribes an unsubscribed contact: is_subscribed true from an import is ignored', () => {
    const off = applyContactPatch(stored, patch({ is_subscribed: false, unsubscribe_reason: 'too many' }), 5, ctx());
    const back = applyContactPatch(off, patch({ is_subscribed: true, first_name: 'Annie' }), 5, ctx());
    expect(back).toMatchObject({
      is_subscribed: false,
      unsubscribed_at: NOW,
      unsubscribe_reason: 'too many',
      first_name: 'Annie',
    });
  });

  it("never renames a suppression: a row's reason (or a blank one) leaves hard_bounce as it is", () => {
    const bounced = { ...stored, is_subscribed: false, unsubscribed_at: NOW, unsubscribe_reason: 'hard_bounce' };
    const renamed = applyContactPatch(
      bounced,
      patch({ is_subscribed: false, unsubscribe_reason: 'crm export' }),
      5,
      ctx(),
    );
    const blanked = applyContactPatch(
      bounced,
      patch({ unsubscribe_reason: '' }),
      5,
      ctx({ overwriteBlankFields: true }),
    );
    expect(renamed.unsubscribe_reason).toBe('hard_bounce');
    expect(blanked.unsubscribe_reason).toBe('hard_bounce');
  });

  it('fills default_timezone only where the contact would have no time zone', () => {
    expect(applyContactPatch(stored, patch({}), 5, ctx({ defaultTimezone: 'Asia/Tokyo' })).timezone).toBe(
      'Europe/Paris',
    );
    const { timezone: _tz, ...withoutZone } = stored;
    expect(applyContactPatch(withoutZone, patch({}), 5, ctx({ defaultTimezone: 'Asia/Tokyo' })).timezone).toBe(
      'Asia/Tokyo',
    );
  });
});

describe('applyContactPatch for a new contact', () => {
  it('builds the contact with the default source and time zone', () => {
    const created = applyContactPatch(
      undefined,
      patch({ first_name: 'Ann', custom_fields: { plan: 'pro' } }),
      9,
      ctx({ defaultSource: 2, defaultTimezone: 'America/New_York' }),
    );
    expect(created).toMatchObject({
      id: 9,
      client_id: 7,
      email: 'ann@example.com',
      first_name: 'Ann',
      source: 2,
      timezone: 'America/New_York',
      is_subscribed: true,
      custom_fields: { plan: { id: 11, value: 'pro' } },
      created_at: NOW,
      updated_at: NOW,
    });
  });
});
