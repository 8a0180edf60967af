import { describe, expect, it } from 'vitest';
import type { ContactRecord, ContactStore } from '../../../../shared/domain/contacts/contact-store.js';
import {
  eraseContact,
  type ContactHistory,
  type ErasureStore,
  type HistoryScrub,
} from '../../../../shared/domain/contacts/erase-contact.js';
import { AppError } from '../../../../shared/errors.js';
import { contactRecord } from '../../support/contact-fixtures.js';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const HISTORY: ContactHistory = {
  events: [1, 2],
  executions: [10, 11],
  sentEmails: ['e-1'],
  webhookMessages: ['msg_1'],
};
const NO_SCRUB: HistoryScrub = {
  events: 0,
  executions: 0,
  executionsCancelled: 0,
  sentEmails: 0,
  logs: 0,
  webhookMessages: 0,
  webhookAttempts: 0,
};
const SCRUB: HistoryScrub = {
  events: 2,
  executions: 2,
  executionsCancelled: 1,
  sentEmails: 1,
  logs: 3,
  webhookMessages: 1,
  webhookAttempts: 2,
};

/** A fake erasure store that records its calls; `changedTimes` tombstone attempts answer `changed` first. */
function fakes(contact: ContactRecord | undefined, options: { erased?: boolean; changedTimes?: number } = {}) {
  const calls: string[] = [];
  const tombstones: Array<{ contact: ContactRecord; markerReason: string | undefined }> = [];
  let changed = options.changedTimes ?? 0;
  const contacts = {
    get: async (_c: number, id: number) => (contact && contact.id === id ? contact : undefined),
    getByEmail: async (_c: number, email: string) => (contact && contact.email === email ? contact : undefined),
  } as unknown as ContactStore;
  const erasure: ErasureStore = {
    wasErased: async () => {
      calls.push('wasErased');
      return options.erased === true;
    },
    history: async () => {
      calls.push('history');
      return HISTORY;
    },
    scrubHistory: async (_c, email, history) => {
      calls.push(`scrub:${email}:${history.events.length}:${history.webhookMessages.length}`);
      // The pass over the outbox after the tombstone finds one attempt a delivery in flight recorded meanwhile.
      return history.events.length > 0 ? SCRUB : { ...NO_SCRUB, webhookAttempts: 1 };
    },
    replaceByTombstone: async (record, markerReason) => {
      calls.push('tombstone');
      tombstones.push({ contact: record, markerReason });
      if (changed > 0) {
        changed -= 1;
        return 'changed';
      }
      return 'erased';
    },
    dropSegmentData: async () => {
      calls.push('segments');
      return 2;
    },
  };
  return { deps: { clock: { now: () => NOW }, contacts, erasure }, calls, tombstones };
}

describe('eraseContact', () => {
  it('scrubs the history before replacing the contact, and reports what it erased', async () => {
    // Prepare
    const { deps, calls, tombstones } = fakes(contactRecord());

    // Act
    const result = await eraseContact(deps, 7, { id: 42 });

    // Assess
    // The outbox is passed over once more after the tombstone: what a fact or delivery in flight stored meanwhile.
    expect(calls).toEqual([
      'history',
      'scrub:ann@example.com:2:1',
      'tombstone',
      'history',
      'segments',
      'scrub:ann@example.com:0:1',
    ]);
    expect(tombstones).toEqual([{ contact: contactRecord(), markerReason: undefined }]);
    expect(result).toEqual({
      id: 42,
      erased: true,
      already_erased: false,
      contact: 1,
      locks: 2,
      suppression_marker: false,
      events: 2,
      executions: 2,
      executions_cancelled: 1,
      sent_emails: 1,
      logs: 3,
      webhook_messages: 1,
      webhook_attempts: 3,
      erased_at: NOW.toISOString(),
    });
  });

  it.each([
    ['hard_bounce', true],
    ['transient_bounces', true],
    ['complaint', true],
    ['ses_unsubscribe', false],
    ['user', false],
  ])('leaves a suppression marker for unsubscribe reason %s: %s', async (reason, marker) => {
    // Prepare
    const { deps, tombstones } = fakes(
      contactRecord({ is_subscribed: false, unsubscribe_reason: reason, client_contact_id: undefined }),
    );

    // Act
    const result = await eraseContact(deps, 7, { email: 'ann@example.com' });

    // Assess
    expect(tombstones[0]!.markerReason).toBe(marker ? reason : undefined);
    expect(result).toMatchObject({ suppression_marker: marker, locks: marker ? 0 : 1 });
  });

  it('decides again when the contact changed meanwhile, and answers 409 state after three attempts', async () => {
    // Prepare
    const twice = fakes(contactRecord(), { changedTimes: 2 });
    const always = fakes(contactRecord(), { changedTimes: 3 });

    // Act
    const result = await eraseContact(twice.deps, 7, { id: 42 });
    const error = await eraseContact(always.deps, 7, { id: 42 }).catch((e: unknown) => e);

    // Assess
    expect(result.already_erased).toBe(false);
    expect(twice.tombstones).toHaveLength(3);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(409);
    expect((error as AppError).items).toEqual([
      { condition: 'state', key: 'id', error: 'The contact was changed concurrently; retry the request' },
    ]);
  });

  it('answers a repeat by id with zero counts and touches nothing; an unknown id or e-mail is 404', async () => {
    // Prepare
    const repeat = fakes(undefined, { erased: true });
    const unknown = fakes(undefined);

    // Act
    const result = await eraseContact(repeat.deps, 7, { id: 42 });
    const byId = await eraseContact(unknown.deps, 7, { id: 42 }).catch((e: unknown) => e);
    const byEmail = await eraseContact(repeat.deps, 7, { email: 'ann@example.com' }).catch((e: unknown) => e);

    // Assess
    expect(result).toMatchObject({ id: 42, already_erased: true, contact: 0, events: 0, erased_at: null });
    expect(repeat.calls).toEqual(['wasErased']);
    for (const error of [byId, byEmail]) expect((error as AppError).status).toBe(404);
  });
});
