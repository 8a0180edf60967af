import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { streamFunctions, type StreamFunctionDefinition } from '../../functions/streams.js';
import { createDataTable } from '../../infra/data-table.js';
import { addNagChecks } from '../../infra/nag.js';
import { SharedResources } from '../../infra/shared-resources.js';
import { StreamFunction } from '../../infra/stream-function.js';
import { ENTITY, ENTITY_PK_PREFIX } from '../../shared/adapters/dynamo/keys.js';
import { appWith, logicalIdOf, synthesize, type Resource } from './support/synthesized-stack.js';

const { resources } = synthesize();

/** The event source mapping feeding a stream function, found by the description infra gives the function. */
function mappingOf(handler: string): Resource {
  const fn = Object.entries(resources).filter(
    ([, r]) => r.Type === 'AWS::Lambda::Function' && r.Properties.Description === `table stream -> ${handler}`,
  );
  expect(fn).toHaveLength(1);
  const [[functionId]] = fn as [[string, Resource]];
  const mappings = Object.values(resources).filter(
    (r) => r.Type === 'AWS::Lambda::EventSourceMapping' && logicalIdOf(r.Properties.FunctionName) === functionId,
  );
  expect(mappings).toHaveLength(1);
  return mappings[0] as Resource;
}

describe('stream functions: the event source filter', () => {
  it.each(streamFunctions.map((f) => [f.handler, f] as const))(
    '%s passes its entities, and older items without one by key prefix only',
    (handler, definition) => {
      const filters = (mappingOf(handler).Properties.FilterCriteria as { Filters: { Pattern: string }[] }).Filters.map(
        (f) => JSON.parse(f.Pattern),
      );
      const legacy = definition.entities.flatMap((entity) => {
        const prefix = ENTITY_PK_PREFIX[entity];
        return prefix === undefined ? [] : [{ prefix }];
      });
      expect(filters).toEqual([
        { dynamodb: { NewImage: { entity: { S: [...definition.entities] } } } },
        ...(legacy.length === 0
          ? []
          : [{ dynamodb: { Keys: { pk: { S: legacy } }, NewImage: { entity: { S: [{ exists: false }] } } } }]),
        ...(definition.removedEntities
          ? [{ eventName: ['REMOVE'], dynamodb: { OldImage: { entity: { S: [...definition.removedEntities] } } } }]
          : []),
      ]);
      // Lambda allows five filters per mapping.
      expect(filters.length).toBeLessThanOrEqual(5);
    },
  );
});

describe('stream functions: the mapping of each entry of the real app', () => {
  it.each(streamFunctions.map((f) => [f.handler, f] as const))(
    '%s has a tumbling window, one batch of a shard at a time and no bisecting exactly when its entry has a window',
    (handler, definition) => {
      const mapping = mappingOf(handler).Properties;
      if (definition.tumblingWindowSeconds === undefined) {
        expect(mapping).toMatchObject({ BisectBatchOnFunctionError: true });
        expect(mapping).not.toHaveProperty('TumblingWindowInSeconds');
      } else
        expect(mapping).toMatchObject({
          TumblingWindowInSeconds: definition.tumblingWindowSeconds,
          ParallelizationFactor: 1,
          BisectBatchOnFunctionError: false,
        });
    },
  );

  it('the day counters take over at the latest change; the webhook facts start at the trim horizon', () => {
    expect(mappingOf('day-counters').Properties).toMatchObject({ StartingPosition: 'LATEST' });
    expect(mappingOf('webhook-facts').Properties).toMatchObject({ StartingPosition: 'TRIM_HORIZON' });
  });
});

/** A stack holding only the table, the shared resources and the stream functions of `table`. */
function synthesizeStreamFunctions(table: readonly StreamFunctionDefinition[]) {
  const app = appWith();
  const stack = new Stack(app, 'StreamFunctions');
  const dataTable = createDataTable(stack, { deletionProtection: false });
  const shared = new SharedResources(stack, 'Shared', {
    queueFunctions: [],
    deletionProtection: false,
    senderEnvironment: {},
  });
  const built = table.map(
    (definition, i) =>
      new StreamFunction(stack, `Stream${i}`, {
        definition,
        shared,
        table: dataTable,
        environment: { TABLE_NAME: dataTable.tableName },
        deletionProtection: false,
      }),
  );
  addNagChecks(app);
  const template = Template.fromStack(stack);
  const resources = template.toJSON().Resources as Record<string, Resource>;
  const mappingOfFunction = (fn: StreamFunction): Record<string, unknown> => {
    const functionId = stack.getLogicalId(fn.function.node.defaultChild as never);
    const mappings = Object.values(resources).filter(
      (r) => r.Type === 'AWS::Lambda::EventSourceMapping' && logicalIdOf(r.Properties.FunctionName) === functionId,
    );
    expect(mappings).toHaveLength(1);
    return (mappings[0] as Resource).Properties;
  };
  return { app, mappings: built.map(mappingOfFunction) };
}

describe('stream functions: a tumbling window', () => {
  // The handler module only has to exist: bundling is skipped.
  const plain: StreamFunctionDefinition = { handler: 'webhook-facts', entities: [ENTITY.contact], tableAccess: 'read' };
  const { app, mappings } = synthesizeStreamFunctions([plain, { ...plain, tumblingWindowSeconds: 30 }]);
  const [plainMapping, windowedMapping] = mappings as [Record<string, unknown>, Record<string, unknown>];

  it('a windowed entry reads each shard one batch at a time, in windows, and retries a failed batch whole', () => {
    expect(windowedMapping).toMatchObject({
      TumblingWindowInSeconds: 30,
      ParallelizationFactor: 1,
      BisectBatchOnFunctionError: false,
      StartingPosition: 'TRIM_HORIZON',
      MaximumRetryAttempts: 10_000,
      MaximumRecordAgeInSeconds: 86_400,
      DestinationConfig: { OnFailure: { Destination: expect.anything() } },
    });
  });

  it('an entry without one keeps bisecting, with no window and the default parallelization', () => {
    expect(plainMapping).toMatchObject({ BisectBatchOnFunctionError: true, MaximumRetryAttempts: 10_000 });
    expect(plainMapping).not.toHaveProperty('TumblingWindowInSeconds');
    expect(plainMapping).not.toHaveProperty('ParallelizationFactor');
    // Apart from those three (and the function and on-failure queue each has), the two mappings are the same.
    const rest = (mapping: Record<string, unknown>) => {
      const {
        TumblingWindowInSeconds,
        ParallelizationFactor,
        BisectBatchOnFunctionError,
        FunctionName,
        DestinationConfig,
        ...r
      } = mapping;
      return r;
    };
    expect(rest(windowedMapping)).toEqual(rest(plainMapping));
  });

  it('starts a mapping at the trim horizon unless its entry says latest (a projection taking over from old writers)', () => {
    const { mappings: started } = synthesizeStreamFunctions([plain, { ...plain, startAt: 'latest' }]);
    expect(started.map((m) => (m as Record<string, unknown>)['StartingPosition'])).toEqual(['TRIM_HORIZON', 'LATEST']);
  });

  it('leaves no cdk-nag AwsSolutions finding unacknowledged', () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    expect(report.violations.map((v) => `${v.ruleName} at ${v.violatingResources[0]?.constructPath}`)).toEqual([]);
  });
});
