import { describe, expect, it } from 'vitest';
import { attemptCase, commandsDelta, commandsText, meanCommands } from '../../../../scripts/bench/webhook-cost.js';

const steady = { GetItemCommand: 2, PutItemCommand: 1 };

describe('webhooks bench: naming a measured delivery attempt', () => {
  it('tells a move, a delivery, a recovery, a first failure and a failure on an already failing endpoint apart', () => {
    expect(attemptCase({ queue: 'webhooks', posts: [], byCommand: { GetItemCommand: 2 }, toFailingLane: 1 })).toBe(
      'healthy lane: endpoint failing → moved to the failing lane, no POST',
    );
    expect(attemptCase({ queue: 'webhooks', posts: [204], byCommand: steady, toFailingLane: 0 })).toBe(
      'healthy lane: 204, no health change',
    );
    expect(
      attemptCase({
        queue: 'webhooks-failing',
        posts: [200],
        byCommand: { ...steady, UpdateItemCommand: 1 },
        toFailingLane: 0,
      }),
    ).toBe('failing lane: 200, endpoint recovered (failing_since cleared)');
    expect(
      attemptCase({
        queue: 'webhooks',
        posts: [503],
        byCommand: { ...steady, UpdateItemCommand: 1 },
        toFailingLane: 1,
      }),
    ).toBe('healthy lane: 503, first failure (failing_since set), retry queued');
    expect(attemptCase({ queue: 'webhooks-failing', posts: [null], byCommand: steady, toFailingLane: 1 })).toBe(
      'failing lane: no answer, endpoint already failing, retry queued',
    );
  });
});

describe('webhooks bench: request counts by command', () => {
  it('writes counts without the Command suffix, by name, leaving zeros out', () => {
    expect(commandsText({ PutItemCommand: 1, GetItemCommand: 2, QueryCommand: 0 })).toBe('GetItem 2, PutItem 1');
    expect(commandsText({ UpdateItemCommand: 0.5, GetItemCommand: -2 })).toBe('GetItem -2, UpdateItem 0.50');
    expect(commandsText({})).toBe('—');
  });

  it('averages each command over runs, a missing command counting 0', () => {
    expect(meanCommands([steady, { ...steady, UpdateItemCommand: 1 }])).toEqual({
      GetItemCommand: 2,
      PutItemCommand: 1,
      UpdateItemCommand: 0.5,
    });
    expect(meanCommands([])).toEqual({});
  });

  it('gives what the second sent beyond the first, zeros left out', () => {
    expect(commandsDelta(steady, steady)).toEqual({});
    expect(
      commandsDelta(
        { GetItemCommand: 4, UpdateItemCommand: 3 },
        { GetItemCommand: 2, UpdateItemCommand: 3, QueryCommand: 1 },
      ),
    ).toEqual({
      GetItemCommand: -2,
      QueryCommand: 1,
    });
  });
});
