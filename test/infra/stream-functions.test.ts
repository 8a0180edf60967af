import { describe, expect, it } from 'vitest';
import { streamFunctions } from '../../functions/streams.js';
import { ENTITY_PK_PREFIX } from '../../shared/adapters/dynamo/keys.js';
import { logicalIdOf, synthesize, type Resource } from './support/synthesized-stack.js';

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
      expect(filters).toEqual([
        { dynamodb: { NewImage: { entity: { S: [...definition.entities] } } } },
        {
          dynamodb: {
            Keys: { pk: { S: definition.entities.map((entity) => ({ prefix: ENTITY_PK_PREFIX[entity] })) } },
            NewImage: { entity: { S: [{ exists: false }] } },
          },
        },
      ]);
      // Lambda allows five filters per mapping.
      expect(filters.length).toBeLessThanOrEqual(5);
    },
  );
});
