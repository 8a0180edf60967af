import { readFileSync } from 'node:fs';
import { NormalizedSchema } from '@smithy/core/schema';
import { describe, expect, it } from 'vitest';
import { AWS_SDK_RUNTIME_MODULES } from '../../infra/bundling.js';

/**
 * infra/bundling.ts leaves `@smithy/core/event-streams` out of every bundle: the SDK's protocols import it only to
 * (de)serialise an operation's event-stream member, the same check this test makes with the SDK's own NormalizedSchema.
 * Adding a client with an event-stream operation makes this fail, and the module must then be bundled again.
 */
type OperationSchema = [9, string, string, unknown, unknown, unknown];

const isOperation = (name: string, value: unknown): value is OperationSchema =>
  name.endsWith('$') && Array.isArray(value) && value[0] === 9;

/** The names of `operations` whose input or output has an event-stream member. */
const withEventStreams = (operations: [string, OperationSchema][]) =>
  operations
    .filter(([, [, , , , input, output]]) =>
      [input, output].some((schema) => NormalizedSchema.of(schema as never).getEventStreamMember() !== ''),
    )
    .map(([name]) => name);

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
};
const clients = Object.keys(packageJson.dependencies).filter((name) => name.startsWith('@aws-sdk/client-'));

describe('AWS SDK clients the project uses', () => {
  it('are bundled without the event-stream codec', () => {
    expect(AWS_SDK_RUNTIME_MODULES).toContain('@smithy/core/event-streams');
    expect(clients.length).toBeGreaterThanOrEqual(4);
  });

  it.each(clients)('%s has no operation with an event-stream member', async (client) => {
    // Prepare
    const exported = Object.entries((await import(client)) as Record<string, unknown>);

    // Act
    const operations = exported.filter((entry): entry is [string, OperationSchema] => isOperation(entry[0], entry[1]));

    // Assess
    expect(operations.length).toBeGreaterThan(0);
    expect(withEventStreams(operations)).toEqual([]);
  });

  it('the check finds an event-stream member when an operation has one', () => {
    // Prepare: an operation whose input carries a streaming union, as the SDK's schemas declare one
    const events = () => [4, 'example', 'Events', 0, ['Message'], [0]];
    const subscribe: OperationSchema = [
      9,
      'example',
      'Subscribe',
      0,
      () => [3, 'example', 'SubscribeInput', 0, ['Stream'], [[events, { streaming: 1 }]]],
      () => [3, 'example', 'SubscribeOutput', 0, [], []],
    ];

    // Act / Assess
    expect(withEventStreams([['Subscribe$', subscribe]])).toEqual(['Subscribe$']);
  });
});
