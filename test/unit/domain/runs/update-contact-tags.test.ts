import { beforeEach, describe, expect, it } from 'vitest';
import type { JourneyStep } from '../../../../shared/domain/journeys/definition/types.js';
import { RUN_CLIENT, T0 } from './run-fixtures.js';
import { runWorld, type RunWorld, startJourney } from './run-world.js';

let world: RunWorld;

const first = { client_id: RUN_CLIENT, run_id: 4242, seq: 1, contact_id: 100 };

const journeyWith = (steps: JourneyStep[]) => startJourney(world, steps);

/** A branch that ends the run by `has` when the contact has `tag`, else by `lacks` (a later step's read). */
const branchOnTag = (tag: string): JourneyStep => ({
  id: 'check',
  type: 'branch',
  branches: [{ name: 'has', conditions: [{ on: 'tag', op: 'has', tag }], next: null }],
  otherwise: null,
});

beforeEach(async () => {
  world = await runWorld();
  await world.contact({ timezone: 'Europe/Paris', tags: ['vip', 'cart', 'newsletter'] });
});

describe('advanceRun: an update_contact step’s tags', () => {
  it('removes the tags remove_tags names and keeps the others, in the run’s one write', async () => {
    // Prepare
    journeyWith([{ id: 'untag', type: 'update_contact', remove_tags: ['cart'], next: 'check' }, branchOnTag('cart')]);

    // Act
    const outcome = await world.advance(first);

    // Assess
    expect(outcome.kind).toBe('moved');
    expect(world.stored(100)).toMatchObject({ tags: ['vip', 'newsletter'], updated_at: T0 });
    // The branch after it reads the contact without the tag.
    expect(world.run(4242)).toMatchObject({ status: 'completed', branches: { check: 'otherwise' } });
    expect(world.runs.transitions).toBe(1);
  });

  it('adds and removes in one step: the added tags join, the removed ones go', async () => {
    // Prepare
    journeyWith([
      {
        id: 'retag',
        type: 'update_contact',
        add_tags: ['buyer', 'vip'],
        remove_tags: ['cart', 'newsletter'],
        next: 'check',
      },
      branchOnTag('buyer'),
    ]);

    // Act
    await world.advance(first);

    // Assess: `vip`, already there, is not doubled.
    expect(world.stored(100)!.tags).toEqual(['vip', 'buyer']);
    expect(world.run(4242)).toMatchObject({ status: 'completed', branches: { check: 'has' } });
  });

  it('lets the removal win for a tag named in both lists', async () => {
    // Prepare
    journeyWith([{ id: 'retag', type: 'update_contact', add_tags: ['cart'], remove_tags: ['cart'], next: null }]);

    // Act
    await world.advance(first);

    // Assess
    expect(world.stored(100)!.tags).toEqual(['vip', 'newsletter']);
  });

  it('leaves the tags as they were when it removes a tag the contact lacks', async () => {
    // Prepare
    journeyWith([{ id: 'untag', type: 'update_contact', remove_tags: ['never-had'], next: null }]);

    // Act
    await world.advance(first);

    // Assess
    expect(world.stored(100)!.tags).toEqual(['vip', 'cart', 'newsletter']);
    expect(world.run(4242)).toMatchObject({ status: 'completed' });
  });
});
