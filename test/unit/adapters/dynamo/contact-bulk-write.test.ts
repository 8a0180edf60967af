import { describe, expect, it } from 'vitest';
import { contactWriteActions, packTransactions } from '../../../../shared/adapters/dynamo/contact-bulk-write.js';
import { keys } from '../../../../shared/adapters/dynamo/keys.js';
import { WaveTracker } from '../../../../shared/adapters/dynamo/wave-tracker.js';
import { contactRecord } from '../../support/contact-fixtures.js';

describe('contactWriteActions', () => {
  it('creates the contact with its e-mail and uid locks, each only if absent', () => {
    const actions = contactWriteActions('t', { kind: 'create', contact: contactRecord() });
    expect(actions.map((a) => [a.Put?.Item?.['pk'], a.Put?.ConditionExpression])).toEqual([
      ['CONTACT#7#42', 'attribute_not_exists(pk)'],
      [keys.emailLock(7, 'ann@example.com').pk, 'attribute_not_exists(pk)'],
      ['UID#7#crm-1', 'attribute_not_exists(pk)'],
    ]);
    expect(actions[0]!.Put!.Item).toMatchObject({
      sk: 'CONTACT',
      gsi1pk: 'CLIENT#7#CONTACTS#2',
      gsi1sk: '000000000042',
    });
    expect(actions[1]!.Put!.Item).toEqual({ ...keys.emailLock(7, 'ann@example.com'), contact_id: 42, kind: 'email' });
  });

  it('updates only what changed, guarded by the e-mail and the old uid, and moves the uid lock', () => {
    const before = contactRecord({ company: 'Old' });
    const after = contactRecord({
      first_name: 'Anna',
      client_contact_id: 'crm-2',
      updated_at: '2026-03-01T00:00:00.000Z',
    });
    const [update, removeOld, putNew, ...rest] = contactWriteActions('t', { kind: 'update', before, after });
    expect(rest).toEqual([]);
    expect(update!.Update).toEqual({
      TableName: 't',
      Key: { pk: 'CONTACT#7#42', sk: 'CONTACT' },
      UpdateExpression: 'SET #a0 = :a0, #a2 = :a2, #a3 = :a3 REMOVE #a1',
      ConditionExpression: 'attribute_exists(pk) AND #email = :email AND #uid = :old_uid',
      ExpressionAttributeNames: {
        '#email': 'email',
        '#uid': 'client_contact_id',
        '#a0': 'client_contact_id',
        '#a1': 'company',
        '#a2': 'first_name',
        '#a3': 'updated_at',
      },
      ExpressionAttributeValues: {
        ':email': 'ann@example.com',
        ':old_uid': 'crm-1',
        ':a0': 'crm-2',
        ':a2': 'Anna',
        ':a3': '2026-03-01T00:00:00.000Z',
      },
    });
    expect(removeOld!.Delete).toEqual({
      TableName: 't',
      Key: { pk: 'UID#7#crm-1', sk: 'UID' },
      ConditionExpression: 'contact_id = :id',
      ExpressionAttributeValues: { ':id': 42 },
    });
    expect(putNew!.Put).toMatchObject({
      Item: { pk: 'UID#7#crm-2', sk: 'UID', contact_id: 42 },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  });

  it('touches no lock when the uid stays', () => {
    const actions = contactWriteActions('t', {
      kind: 'update',
      before: contactRecord(),
      after: contactRecord({ first_name: 'Anna', updated_at: 'x' }),
    });
    expect(actions).toHaveLength(1);
    expect(actions[0]!.Update!.ConditionExpression).toBe('attribute_exists(pk) AND #email = :email');
  });
});

describe('packTransactions', () => {
  it('keeps each write whole and fills transactions up to 100 actions', () => {
    const creates = Array.from({ length: 70 }, (_, i) => ({
      kind: 'create' as const,
      contact: contactRecord({ id: i, email: `u${i}@x.co`, client_contact_id: `c${i}` }),
    }));
    const batches = packTransactions('t', creates);
    expect(batches.map((b) => b.actions.length)).toEqual([99, 99, 12]);
    expect(batches.map((b) => b.writes.length)).toEqual([33, 33, 4]);
    expect(packTransactions('t', creates.slice(0, 3), true).map((b) => b.writes)).toEqual([[0], [1], [2]]);
  });
});

describe('WaveTracker', () => {
  it('counts overlapping requests as one wave and dependent ones as the next', () => {
    const waves = new WaveTracker();
    const a = waves.begin();
    const b = waves.begin();
    waves.end(a);
    const c = waves.begin(); // started after a finished
    waves.end(b);
    waves.end(c);
    const d = waves.begin();
    waves.end(d);
    expect([a, b, c, d]).toEqual([1, 1, 2, 3]);
    expect(waves.waves).toBe(3);
  });
});
