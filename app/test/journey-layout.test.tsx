import { describe, expect, it } from 'vitest';
import { type FlowNode, layoutOf } from '../src/pages/journeys/journey-layout.js';
import { CART } from './journeys-fixtures.js';

/** A box's place as `row:lane+span`, by its step id (or its key for the trigger and end boxes). */
function places(definition: unknown): Record<string, string> {
  const layout = layoutOf(definition);
  return Object.fromEntries(
    layout.nodes.map((node: FlowNode) => [
      node.kind === 'step' ? node.id : node.key,
      `${node.row}:${node.lane}+${node.span}`,
    ]),
  );
}

const TRIGGER = { event: 'signup', reentry: { mode: 'once' } };
const send = (id: string, next: string | null) => ({ id, type: 'send', template_id: 1, send_time: { mode: 0 }, next });
const wait = (id: string, next: string | null) => ({ id, type: 'wait', minutes: 60, next });

describe('the layout of a journey’s drawing', () => {
  it('puts the cart journey’s two ways side by side under its wait, the trigger spanning both', () => {
    // Act
    const layout = layoutOf(CART);

    // Assess: the trigger on row 0 over both lanes, the wait on row 1 spanning them, the event's end and the
    // timeout's reminder side by side on row 2 (in the order the step takes them), the reminder's end below it.
    expect(layout.lanes).toBe(2);
    expect(layout.rows).toBe(4);
    expect(places(CART)).toEqual({
      trigger: '0:0+2',
      wait_checkout: '1:0+2',
      'step-0-end-0': '2:0+1',
      remind: '2:1+1',
      'step-1-end-0': '3:1+1',
    });
    expect(layout.edges.map((edge) => [edge.from, edge.to, edge.label, edge.labelled])).toEqual([
      ['trigger', 'step-0', 'entry', false],
      ['step-0', 'step-0-end-0', 'on checkout_completed', true],
      ['step-0', 'step-1', 'on timeout', true],
      ['step-1', 'step-1-end-0', 'then', false],
    ]);
    expect(layout.unreachable).toEqual([]);
    // Reading order: the trigger, the wait, then each way in order.
    expect(layout.nodes.map((node) => node.key)).toEqual([
      'trigger',
      'step-0',
      'step-0-end-0',
      'step-1',
      'step-1-end-0',
    ]);
    expect(layout.nodes.map((node) => node.level)).toEqual([1, 1, 2, 2, 2]);
  });

  it('lays a branch’s cases side by side and the step where they join below the longest, across both', () => {
    // Prepare: a branch whose "pro" case waits first; both ways meet at `thanks`.
    const definition = {
      trigger: TRIGGER,
      entry: 'plan',
      steps: [
        {
          id: 'plan',
          type: 'branch',
          branches: [{ name: 'Pro', conditions: [{ on: 'event', path: 'plan', op: 'eq', value: 'pro' }], next: 'pro' }],
          otherwise: 'basic',
        },
        wait('pro', 'pro_mail'),
        send('pro_mail', 'thanks'),
        send('basic', 'thanks'),
        send('thanks', null),
      ],
      settings: {},
    };

    // Act
    const layout = layoutOf(definition);

    // Assess: `thanks` below the longer way (row 4), spanning the lanes of both; `basic` beside `pro`.
    expect(places(definition)).toMatchObject({
      plan: '1:0+2',
      pro: '2:0+1',
      pro_mail: '3:0+1',
      basic: '2:1+1',
      thanks: '4:0+2',
    });
    const labels = layout.edges.filter((edge) => edge.from === 'step-0').map((edge) => edge.label);
    expect(labels).toEqual(['if “Pro” when event plan = "pro"', 'otherwise']);
    expect(layout.edges.filter((edge) => edge.to === 'step-4').map((edge) => edge.from)).toEqual(['step-2', 'step-3']);
  });

  it('gives a split’s arms and a nested branch their lanes, wider arms taking more', () => {
    const definition = {
      trigger: TRIGGER,
      entry: 'ab',
      steps: [
        {
          id: 'ab',
          type: 'split',
          arms: [
            { name: 'A', percent: 50, next: 'a' },
            { name: 'B', percent: 50, next: 'b' },
          ],
        },
        {
          id: 'a',
          type: 'wait_for_event',
          event: 'paid',
          match_key: false,
          timeout_minutes: 60,
          on_event: 'a_paid',
          on_timeout: 'a_late',
        },
        send('a_paid', null),
        send('a_late', null),
        send('b', null),
      ],
    };

    expect(places(definition)).toMatchObject({ ab: '1:0+3', a: '2:0+2', a_paid: '3:0+1', a_late: '3:1+1', b: '2:2+1' });
    expect(layoutOf(definition).lanes).toBe(3);
  });

  it('draws a cycle of a broken draft once, its closing edge marked back, without hanging', () => {
    const definition = { trigger: TRIGGER, entry: 'one', steps: [wait('one', 'two'), wait('two', 'one')] };

    const layout = layoutOf(definition);

    expect(places(definition)).toMatchObject({ one: '1:0+1', two: '2:0+1' });
    expect(layout.edges.map((edge) => [edge.from, edge.to, edge.back])).toEqual([
      ['trigger', 'step-0', false],
      ['step-0', 'step-1', false],
      ['step-1', 'step-0', true],
    ]);
  });

  it('lists apart the steps the entry does not reach and a second step with a taken id', () => {
    const definition = {
      trigger: TRIGGER,
      entry: 'first',
      steps: [send('first', null), send('orphan', 'first'), send('first', null)],
    };

    const layout = layoutOf(definition);

    expect(layout.unreachable).toEqual([1, 2]);
    expect(layout.nodes.filter((node) => node.kind === 'step').map((node) => node.key)).toEqual(['step-0']);
  });

  it('draws an edge to no such step as a box of its own, and a half-typed draft without failing', () => {
    const definition = { trigger: TRIGGER, entry: 'nope', steps: [send('a', 'gone'), { id: 'b', type: 'branch' }, 7] };

    const layout = layoutOf(definition);

    expect(layout.nodes.map((node) => [node.kind, node.kind === 'missing' ? node.to : null])).toEqual([
      ['trigger', null],
      ['missing', 'nope'],
    ]);
    expect(layout.unreachable).toEqual([0, 1, 2]);
    expect(layoutOf({ ...definition, entry: 'a' }).nodes.map((node) => node.kind)).toEqual([
      'trigger',
      'step',
      'missing',
    ]);
    expect(layoutOf({ ...definition, entry: 'b' }).nodes.map((node) => node.kind)).toEqual(['trigger', 'step']);
    expect(layoutOf(null).nodes.map((node) => node.kind)).toEqual(['trigger']);
  });

  it('has only the trigger for a journey without steps', () => {
    const layout = layoutOf({ trigger: TRIGGER, entry: '', steps: [] });

    expect(layout.nodes.map((node) => node.kind)).toEqual(['trigger']);
    expect(layout.edges).toEqual([]);
  });

  it('lays a long chain out without exhausting the stack', () => {
    const steps = Array.from({ length: 2000 }, (_, at) => wait(`w${at}`, at < 1999 ? `w${at + 1}` : null));

    const layout = layoutOf({ trigger: TRIGGER, entry: 'w0', steps });

    expect(layout.rows).toBe(2002);
  });
});
