import { afterEach, describe, expect, it } from 'vitest';
import { isRetryable } from '../../../../shared/adapters/dynamo/backoff.js';
import { bulkHarness, expectLocksConsistent, row } from './bulk-support.js';

/**
 * A row the store refuses (or the schema refuses first) is invalid, never "send this row again", and its
 * neighbours in the same transaction are written.
 */
const validationException = () =>
  Object.assign(new Error('One or more parameter values were invalid: Number overflow'), {
    name: 'ValidationException',
    $metadata: { httpStatusCode: 400 },
  });

describe('bulk upsert with rows the store cannot hold', () => {
  let harness: ReturnType<typeof bulkHarness>;
  afterEach(() => harness.table.restore());

  it('reports a number beyond 2^53 as an invalid row and writes its valid neighbours', async () => {
    // Prepare
    harness = bulkHarness();

    // Act
    const result = await harness.run([
      { email: 'ok1@example.com' },
      { email: 'bad1@example.com', custom_fields: { x: 1e300 } },
    ]);

    // Assess
    expect(result).toMatchObject({ created: 1, failed: 1 });
    expect(result.results[1]).toEqual({
      index: 1,
      email: 'bad1@example.com',
      status: 'failed',
      contact_id: null,
      errors: [
        { condition: 'max', key: 'contacts.1.custom_fields.x', error: 'Must be at most 9007199254740991 (2^53 − 1)' },
      ],
    });
    expect(expectLocksConsistent(harness.table).map((c) => c.email)).toEqual(['ok1@example.com']);
  });

  it('fails only the write the store refuses, as invalid, and writes the rest of its transaction', async () => {
    // Prepare
    harness = bulkHarness();
    let transactions = 0;
    harness.table.injections.before = (command, input) => {
      if (command !== 'TransactWriteItems') return;
      transactions += 1;
      if (JSON.stringify(input.TransactItems).includes('user2@example.com')) throw validationException();
    };

    // Act
    const result = await harness.run([row(1), row(2), row(3)]);

    // Assess
    expect(result).toMatchObject({ created: 2, failed: 1 });
    expect(result.results[1]).toEqual({
      index: 1,
      email: 'user2@example.com',
      status: 'failed',
      contact_id: null,
      errors: [
        {
          condition: 'format',
          key: 'contacts.1',
          error:
            'The store cannot hold this contact as given; it was not written (sending it unchanged will fail again)',
        },
      ],
    });
    expect(result.results.map((r) => r.status)).toEqual(['created', 'failed', 'created']);
    // The refused transaction of three, then each write alone.
    expect(transactions).toBe(4);
    expect(
      expectLocksConsistent(harness.table)
        .map((c) => c.email)
        .sort(),
    ).toEqual(['user1@example.com', 'user3@example.com']);
  });

  it('still says "send this row again" when the store stays busy past every retry', async () => {
    // Prepare
    harness = bulkHarness();
    harness.table.injections.before = (command) => {
      if (command === 'TransactWriteItems')
        throw Object.assign(new Error('busy'), { name: 'InternalServerError', $metadata: { httpStatusCode: 500 } });
    };

    // Act
    const result = await harness.run([row(1), row(2)]);

    // Assess
    expect(result).toMatchObject({ created: 0, failed: 2 });
    expect(result.results.map((r) => r.errors)).toEqual([
      [
        {
          condition: 'internal',
          key: 'contacts.0.email',
          error: 'The contact could not be written; send this row again',
        },
      ],
      [
        {
          condition: 'internal',
          key: 'contacts.1.email',
          error: 'The contact could not be written; send this row again',
        },
      ],
    ]);
    expect(expectLocksConsistent(harness.table)).toEqual([]);
  });
});

describe('isRetryable', () => {
  const named = (name: string, extra: Record<string, unknown> = {}) =>
    Object.assign(new Error(name), { name, ...extra });

  it.each([
    ['throttling', named('ProvisionedThroughputExceededException'), true],
    ['a transient service error', named('InternalServerError'), true],
    ['a timeout', named('TimeoutError'), true],
    ['a dropped connection', named('Error', { code: 'ECONNRESET' }), true],
    ['an error the SDK calls retryable', named('SomethingElse', { $retryable: {} }), true],
    ['a 503', named('Unknown', { $metadata: { httpStatusCode: 503 } }), true],
    ['a validation error', validationException(), false],
    [
      'a number the document client cannot marshal',
      new Error('Number 1e+300 is greater than Number.MAX_SAFE_INTEGER.'),
      false,
    ],
    ['a non-error', 'boom', false],
  ])('is %s retryable: %s', (_what, error, expected) => {
    expect(isRetryable(error)).toBe(expected);
  });
});
