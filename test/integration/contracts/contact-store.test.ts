import { contactRecord } from '../../unit/support/contact-fixtures.js';
import { describe, expect, it } from 'vitest';
import { UniqueViolation, type ContactRecord } from '../../../shared/domain/contacts/contact-store.js';
import { AT, freshClientId, LATER, STORE_ADAPTERS } from './support.js';

let nextId = 1;
function contact(clientId: number, fields: Partial<ContactRecord> = {}): ContactRecord {
  const id = nextId++;
  return contactRecord({
    id,
    client_id: clientId,
    email: `c${id}@example.com`,
    client_contact_id: undefined,
    created_at: AT,
    updated_at: AT,
    ...fields,
  });
}

describe.each(STORE_ADAPTERS)('ContactStore contract (%s)', (_name, makeStores) => {
  it("lists a client's contacts by ascending id in pages, filtered, and never another client's", async () => {
    // Prepare
    const { contacts } = makeStores();
    const clientId = freshClientId();
    const mine = Array.from({ length: 19 }, (_, i) =>
      contact(clientId, { is_subscribed: i % 4 !== 0, updated_at: i < 10 ? AT : LATER }),
    );
    for (const c of mine) await contacts.create(c);
    await contacts.create(contact(freshClientId()));
    const pages = async (filter: Parameters<typeof contacts.list>[1]['filter']) => {
      const seen: number[] = [];
      let afterId: number | undefined;
      for (let n = 0; n < 40; n += 1) {
        const page = await contacts.list(clientId, { afterId, limit: 4, filter });
        expect(page.contacts.length).toBeLessThanOrEqual(4);
        seen.push(...page.contacts.map((c) => c.id));
        if (page.nextAfterId === undefined) return seen;
        afterId = page.nextAfterId;
      }
      throw new Error('the list did not end');
    };

    // Act
    const all = await pages({});
    const unsubscribed = await pages({ is_subscribed: false });
    const recent = await pages({ updated_since: LATER });
    const first = await contacts.list(clientId, { limit: 4, filter: {} });

    // Assess
    expect(all).toEqual(mine.map((c) => c.id));
    expect(unsubscribed).toEqual(mine.filter((c) => !c.is_subscribed).map((c) => c.id));
    expect(recent).toEqual(mine.slice(10).map((c) => c.id));
    expect(first.contacts).toEqual(mine.slice(0, 4));
  });

  it('stores a contact, found by id and by e-mail, and by no other client', async () => {
    // Prepare
    const { contacts } = makeStores();
    const clientId = freshClientId();
    const ann = contact(clientId, { client_contact_id: `crm-${nextId}` });

    // Act
    await contacts.create(ann);

    // Assess
    expect(await contacts.get(clientId, ann.id)).toEqual(ann);
    expect(await contacts.getByEmail(clientId, ann.email)).toEqual(ann);
    expect(await contacts.get(freshClientId(), ann.id)).toBeUndefined();
    expect(await contacts.getByEmail(freshClientId(), ann.email)).toBeUndefined();
  });

  it.each([
    ['email', (taken: ContactRecord) => ({ email: taken.email })],
    ['client_contact_id', (taken: ContactRecord) => ({ client_contact_id: taken.client_contact_id })],
  ] as const)(
    'refuses a second contact with the same %s (UniqueViolation) and writes nothing',
    async (field, clash) => {
      // Prepare
      const { contacts } = makeStores();
      const clientId = freshClientId();
      const first = contact(clientId, { client_contact_id: `uid-${nextId}` });
      await contacts.create(first);
      const second = contact(clientId, clash(first));

      // Act
      const error = await contacts.create(second).catch((e: unknown) => e);

      // Assess
      expect(error).toBeInstanceOf(UniqueViolation);
      expect((error as UniqueViolation).field).toBe(field);
      expect(await contacts.get(clientId, second.id)).toBeUndefined();
    },
  );

  it('lets another client use the same e-mail', async () => {
    const { contacts } = makeStores();
    const ann = contact(freshClientId());
    await contacts.create(ann);

    await expect(contacts.create({ ...contact(freshClientId()), email: ann.email })).resolves.toBeUndefined();
  });

  it('unsubscribes keeping the first time and the reason, and resubscribes clearing both', async () => {
    // Prepare
    const { contacts } = makeStores();
    const clientId = freshClientId();
    const ann = contact(clientId);
    await contacts.create(ann);

    // Act
    const unsubscribed = await contacts.updateSubscription(clientId, ann.id, {
      is_subscribed: false,
      unsubscribe_reason: 'too many',
      at: AT,
    });
    const again = await contacts.updateSubscription(clientId, ann.id, { is_subscribed: false, at: LATER });
    const resubscribed = await contacts.updateSubscription(clientId, ann.id, { is_subscribed: true, at: LATER });

    // Assess
    expect(unsubscribed).toMatchObject({
      is_subscribed: false,
      unsubscribed_at: AT,
      unsubscribe_reason: 'too many',
      updated_at: AT,
    });
    expect(again).toMatchObject({ unsubscribed_at: AT, unsubscribe_reason: 'too many', updated_at: LATER });
    expect(resubscribed).toMatchObject({ is_subscribed: true, updated_at: LATER });
    expect(resubscribed).not.toHaveProperty('unsubscribed_at');
    expect(resubscribed).not.toHaveProperty('unsubscribe_reason');
    expect(await contacts.get(clientId, ann.id)).toEqual(resubscribed);
  });

  it('answers undefined when the contact to (un)subscribe does not exist, creating nothing', async () => {
    const { contacts } = makeStores();
    const clientId = freshClientId();

    expect(await contacts.updateSubscription(clientId, 999_999, { is_subscribed: false, at: AT })).toBeUndefined();
    expect(await contacts.get(clientId, 999_999)).toBeUndefined();
  });

  it('gives each custom field name one stable id per client', async () => {
    const { contacts } = makeStores();
    const clientId = freshClientId();

    const first = await contacts.customFieldIds(clientId, ['plan', 'plan', 'constructor']);
    const second = await contacts.customFieldIds(clientId, ['constructor', 'score']);

    expect([...first.keys()].sort()).toEqual(['constructor', 'plan']);
    expect(first.get('plan')).not.toBe(first.get('constructor'));
    expect(second.get('constructor')).toBe(first.get('constructor'));
    expect(new Set([first.get('plan'), first.get('constructor'), second.get('score')]).size).toBe(3);
  });

  it('finds contacts in bulk by e-mail, by uid and by id, leaving out the missing and other clients', async () => {
    // Prepare
    const { contacts } = makeStores();
    const clientId = freshClientId();
    const ann = contact(clientId, { client_contact_id: `uid-${nextId}` });
    const bob = contact(clientId);
    const stranger = contact(freshClientId());
    await Promise.all([contacts.create(ann), contacts.create(bob), contacts.create(stranger)]);

    // Act
    const byEmail = await contacts.findIdsByEmail(clientId, [
      ann.email,
      bob.email,
      stranger.email,
      'nobody@example.com',
    ]);
    const byUid = await contacts.findIdsByUid(clientId, [ann.client_contact_id!, 'missing']);
    const byId = await contacts.getMany(clientId, [ann.id, bob.id, stranger.id]);

    // Assess
    expect(byEmail).toEqual(
      new Map([
        [ann.email, ann.id],
        [bob.email, bob.id],
      ]),
    );
    expect(byUid).toEqual(new Map([[ann.client_contact_id!, ann.id]]));
    expect(byId).toEqual(
      new Map([
        [ann.id, ann],
        [bob.id, bob],
      ]),
    );
  });

  it('writes a bulk of creates and updates, moving a uid from one value to another', async () => {
    // Prepare
    const { contacts, contactWrites } = makeStores();
    const clientId = freshClientId();
    const ann = contact(clientId, { client_contact_id: `old-${nextId}` });
    await contacts.create(ann);
    const updated = { ...ann, first_name: 'Anna', client_contact_id: `new-${nextId}`, updated_at: LATER };
    const bob = contact(clientId);

    // Act
    const outcomes = await contactWrites.writeMany([
      { kind: 'update', before: ann, after: updated },
      { kind: 'create', contact: bob },
    ]);

    // Assess
    expect(outcomes).toEqual([{ status: 'written' }, { status: 'written' }]);
    expect(await contacts.get(clientId, ann.id)).toEqual(updated);
    expect(await contacts.get(clientId, bob.id)).toEqual(bob);
    expect(await contacts.findIdsByUid(clientId, [ann.client_contact_id!, updated.client_contact_id])).toEqual(
      new Map([[updated.client_contact_id, ann.id]]),
    );
  });

  it('answers conflict for a bulk write whose e-mail or uid is taken, or whose contact changed since it was read', async () => {
    // Prepare
    const { contacts, contactWrites } = makeStores();
    const clientId = freshClientId();
    const ann = contact(clientId, { client_contact_id: `ann-${nextId}` });
    const bob = contact(clientId);
    await Promise.all([contacts.create(ann), contacts.create(bob)]);
    const stale = { ...bob, client_contact_id: 'was-never-bob' };

    // Act: isolated, so one write's conflict does not hold back another
    const outcomes = await contactWrites.writeMany(
      [
        { kind: 'create', contact: { ...contact(clientId), email: ann.email } },
        { kind: 'update', before: bob, after: { ...bob, client_contact_id: ann.client_contact_id, updated_at: LATER } },
        { kind: 'update', before: stale, after: { ...stale, client_contact_id: 'another', updated_at: LATER } },
        { kind: 'create', contact: contact(clientId) },
      ],
      { isolated: true },
    );

    // Assess
    expect(outcomes).toEqual([
      { status: 'conflict' },
      { status: 'conflict' },
      { status: 'conflict' },
      { status: 'written' },
    ]);
    expect(await contacts.get(clientId, bob.id)).toEqual(bob);
    expect(await contacts.findIdsByUid(clientId, [ann.client_contact_id!])).toEqual(
      new Map([[ann.client_contact_id!, ann.id]]),
    );
  });
});

describe('ContactStore on DynamoDB Local: a write the store refuses', () => {
  it('fails only that write, as not retryable, and writes the rest of its transaction', async () => {
    // Prepare: values the schemas refuse (they stop them at the request), handed to the store directly.
    const { contacts, contactWrites } = STORE_ADAPTERS.find(([name]) => name === 'dynamodb')![1]();
    const clientId = freshClientId();
    const good = [contact(clientId), contact(clientId)];
    const tiny = contact(clientId, { custom_fields: { x: { id: 1, value: 1e-200 } } });
    const huge = contact(clientId, { custom_fields: { x: { id: 1, value: 1e300 } } });

    // Act: one transaction would hold all four
    const outcomes = await contactWrites.writeMany(
      [good[0]!, tiny, huge, good[1]!].map((c) => ({ kind: 'create' as const, contact: c })),
    );

    // Assess
    expect(outcomes).toEqual([
      { status: 'written' },
      { status: 'error', message: expect.stringMatching(/^ValidationException: /), retryable: false },
      { status: 'error', message: expect.stringContaining('greater than Number.MAX_SAFE_INTEGER'), retryable: false },
      { status: 'written' },
    ]);
    expect(await contacts.get(clientId, good[0]!.id)).toEqual(good[0]);
    expect(await contacts.get(clientId, good[1]!.id)).toEqual(good[1]);
    expect(await contacts.get(clientId, tiny.id)).toBeUndefined();
    expect(await contacts.findIdsByEmail(clientId, [tiny.email, huge.email])).toEqual(new Map());
  });
});
