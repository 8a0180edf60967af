import { afterEach, describe, expect, it } from 'vitest';
import { keys } from '../../../../shared/adapters/dynamo/keys.js';
import { bulkHarness, CLIENT } from './bulk-support.js';

describe('DynamoContactStore.customFieldIds', () => {
  let harness: ReturnType<typeof bulkHarness>;
  afterEach(() => harness.table.restore());

  it('reserves ids only for new names, even when the read comes back half unprocessed', async () => {
    // Prepare
    harness = bulkHarness();
    for (const [i, name] of ['a', 'b', 'c', 'd'].entries()) {
      harness.table.put({ ...keys.customField(CLIENT, name), name, field_id: i + 1 });
    }
    harness.table.put({ ...keys.counter('custom_field'), value: 4 });
    let reads = 0;
    harness.table.injections.before = (command) =>
      command === 'BatchGetItem' && ++reads === 1 ? 'unprocess-half' : undefined;
    // Act
    const ids = await harness.contacts.customFieldIds(CLIENT, ['a', 'b', 'c', 'd', 'e', 'a']);
    // Assess
    expect(Object.fromEntries(ids)).toEqual({ a: 1, b: 2, c: 3, d: 4, e: 5 });
    expect(harness.table.get(keys.counter('custom_field'))?.['value']).toBe(5); // one id reserved, none burnt
    expect(harness.table.calls('BatchGetItem')).toBe(2);
    expect(harness.table.calls('PutItem')).toBe(1);
    expect(harness.table.get(keys.customField(CLIENT, 'e'))).toMatchObject({ name: 'e', field_id: 5 });
  });

  it('keeps the id stored by a concurrent definition of the same name', async () => {
    harness = bulkHarness();
    harness.table.injections.before = (command, input) => {
      if (command === 'PutItem' && input.Item.name === 'plan')
        harness.table.put({ ...keys.customField(CLIENT, 'plan'), name: 'plan', field_id: 99 });
    };

    expect(Object.fromEntries(await harness.contacts.customFieldIds(CLIENT, ['plan']))).toEqual({ plan: 99 });
    expect(harness.table.get(keys.customField(CLIENT, 'plan'))?.['field_id']).toBe(99);
  });

  it.each(['constructor', 'toString', 'valueOf', 'hasOwnProperty'])('defines %s like any other name', async (name) => {
    harness = bulkHarness();

    const ids = await harness.contacts.customFieldIds(CLIENT, [name]);

    expect(ids.get(name)).toBe(1);
    expect(harness.table.get(keys.customField(CLIENT, name))).toMatchObject({ name, field_id: 1 });
  });
});
