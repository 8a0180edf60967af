import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { JourneyPage } from '../src/pages/journeys/journey-page.js';
import { jsonOf } from '../src/pages/journeys/journey-text.js';
import { as } from './contacts-fixtures.js';
import { type FakeCall, fakeApi, ok } from './fake-api.js';
import { CART, journeyOf } from './journeys-fixtures.js';

const BASE = '/api/v1/client/journeys/1000';
const SEGMENTS = [
  { id: 7, name: 'Pro plan' },
  { id: 8, name: 'On a trial' },
];

/** Pro members get template 1, the others template 2: on signup, a branch by tag first. */
const BY_PLAN = {
  trigger: { event: 'signup', reentry: { mode: 'once' } },
  entry: 'plan',
  steps: [
    {
      id: 'plan',
      type: 'branch',
      branches: [{ name: 'Pro', conditions: [{ on: 'tag', op: 'has', tag: 'vip' }], next: 'pro' }],
      otherwise: 'other',
    },
    { id: 'pro', type: 'send', template_id: 1, send_time: { mode: 0 }, next: null },
    { id: 'other', type: 'send', template_id: 2, send_time: { mode: 0 }, next: null },
  ],
  settings: CART.settings,
};

function answers(draft: Record<string, unknown>) {
  return {
    [`GET ${BASE}`]: ok(journeyOf({ draft })),
    'POST /api/v1/client/email-templates/list': ok({ templates: [{ id: 1, name: 'Pro mail' }] }, { total_pages: 1 }),
    'GET /api/v1/client/topics': ok({ topics: [] }),
    'GET /api/v1/client/segments': ok({ segments: SEGMENTS }),
    [`PUT ${BASE}/draft`]: ok({ draft_version: 4, issues: [] }),
  };
}

const openFlow = async () => {
  render(<JourneyPage api={createApi()} params={{ id: '1000' }} signedIn={as('owner')} />);
  return screen.findByRole('tree', { name: 'The journey’s flow' });
};
const items = (tree: HTMLElement) => within(tree).getAllByRole('treeitem');
const optionsOf = (select: HTMLElement) =>
  [...(select as HTMLSelectElement).options].map((option) => [option.value, option.text]);
/** The segments offered (without "Choose a segment", shown while the id is none: picked before the list came). */
const segmentsOffered = (select: HTMLElement) => optionsOf(select).filter(([value]) => value !== '0');
const choose = (select: HTMLElement, value: string) => fireEvent.change(select, { target: { value } });

/** The draft the Save draft button sent. */
async function saved(calls: FakeCall[]) {
  fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
  await waitFor(() => expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(1));
  return (calls.find((call) => call.method === 'PUT')!.body as { definition: typeof BY_PLAN }).definition;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

describe('a journey on a segment in the editor', () => {
  it('starts a run when a contact enters or leaves a segment, picked from GET /client/segments', async () => {
    // Prepare
    const calls = fakeApi(answers({ ...CART, trigger: { ...CART.trigger, or_when: [] } }));
    const tree = await openFlow();
    fireEvent.click(items(tree)[0] as HTMLElement);
    const starts = await screen.findByLabelText('Starts a run');

    // Act
    choose(starts, 'leave');
    const segment = await screen.findByLabelText('Segment');
    await waitFor(() =>
      expect(segmentsOffered(segment)).toEqual([
        ['7', 'Pro plan'],
        ['8', 'On a trial'],
      ]),
    );
    choose(segment, '8');

    // Assess: the event, its key and or_when go with the event; the segment trigger is what is saved.
    expect(screen.queryByLabelText('Event type')).toBeNull();
    expect(screen.queryByLabelText('Key (optional)')).toBeNull();
    expect(screen.queryByRole('group', { name: 'Or on any event when' })).toBeNull();
    expect((await saved(calls)).trigger).toEqual({
      segment: { segment_id: 8, on: 'leave' },
      reentry: { mode: 'always' },
    });
  });

  it('goes back to an event trigger: the segment goes, the event type is asked for', async () => {
    // Prepare
    const calls = fakeApi(
      answers({ ...CART, trigger: { segment: { segment_id: 7, on: 'enter' }, reentry: { mode: 'once' } } }),
    );
    const tree = await openFlow();
    expect(items(tree)[0]?.textContent).toContain('On entering segment #7');
    fireEvent.click(items(tree)[0] as HTMLElement);
    const starts = await screen.findByLabelText('Starts a run');
    expect((starts as HTMLSelectElement).value).toBe('enter');

    // Act
    choose(starts, 'event');
    fireEvent.input(screen.getByLabelText('Event type'), { target: { value: 'upgraded' } });

    // Assess
    expect((await saved(calls)).trigger).toEqual({ event: 'upgraded', reentry: { mode: 'once' } });
  });

  it('offers a branch case a segment condition, member or not', async () => {
    // Prepare
    const calls = fakeApi(answers(BY_PLAN));
    const tree = await openFlow();
    fireEvent.click(items(tree)[1] as HTMLElement);
    await screen.findByRole('heading', { name: /^Step “plan”/ });
    const cases = within(screen.getByRole('group', { name: 'Conditions of case 1' }));

    // Act
    fireEvent.click(cases.getByRole('button', { name: 'Add a condition to “Conditions of case 1”' }));
    const second = within(cases.getByRole('group', { name: 'Condition 2' }));
    choose(second.getByLabelText('Reads'), 'segment');
    await waitFor(() => expect(segmentsOffered(second.getByLabelText('Segment'))).toHaveLength(2));
    choose(second.getByLabelText('Segment'), '8');
    expect(optionsOf(second.getByLabelText('Test'))).toEqual([
      ['member', 'is a member of'],
      ['not_member', 'is not a member of'],
    ]);
    choose(second.getByLabelText('Test'), 'not_member');

    // Assess
    expect((await saved(calls)).steps[0]).toEqual({
      ...BY_PLAN.steps[0],
      branches: [
        {
          name: 'Pro',
          conditions: [
            { on: 'tag', op: 'has', tag: 'vip' },
            { on: 'segment', segment_id: 8, op: 'not_member' },
          ],
          next: 'pro',
        },
      ],
    });
  });

  it('offers no segment condition where an event is matched (a wait for an event), nor on the trigger', async () => {
    // Prepare
    fakeApi(answers(CART));
    const tree = await openFlow();

    // Act
    fireEvent.click(items(tree)[1] as HTMLElement);
    await screen.findByRole('heading', { name: /^Step “wait_checkout”/ });
    fireEvent.click(screen.getByRole('button', { name: 'Add a condition to “Conditions on the awaited event”' }));
    const waitKinds = optionsOf(screen.getByLabelText('Reads')).map(([value]) => value);
    fireEvent.click(items(tree)[0] as HTMLElement);
    await screen.findByRole('heading', { name: /^Trigger/ });
    fireEvent.click(screen.getByRole('button', { name: 'Add a condition to “Conditions to start”' }));
    const triggerKinds = optionsOf(screen.getByLabelText('Reads')).map(([value]) => value);

    // Assess
    expect(waitKinds).not.toContain('segment');
    expect(waitKinds).toContain('engagement');
    expect(triggerKinds).not.toContain('segment');
    expect(triggerKinds).toContain('tag');
  });

  it('writes a segment trigger’s and a segment condition’s members in reading order', () => {
    // Prepare: the members as an API could keep them.
    const definition = {
      ...BY_PLAN,
      trigger: { reentry: { mode: 'once' }, segment: { on: 'enter', segment_id: 7 } },
      steps: [
        {
          ...BY_PLAN.steps[0],
          branches: [{ name: 'Pro', conditions: [{ op: 'member', segment_id: 7, on: 'segment' }], next: 'pro' }],
        },
        ...BY_PLAN.steps.slice(1),
      ],
    };

    // Act
    const text = JSON.parse(jsonOf(definition));

    // Assess
    expect(Object.keys(text.trigger)).toEqual(['segment', 'reentry']);
    expect(Object.keys(text.trigger.segment)).toEqual(['segment_id', 'on']);
    expect(Object.keys(text.steps[0].branches[0].conditions[0])).toEqual(['on', 'segment_id', 'op']);
  });
});
