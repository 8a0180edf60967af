import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { builderCanShow, listOf } from '../src/pages/segments/conditions-builder.js';
import { SegmentsPage } from '../src/pages/segments/segments-page.js';
import { as } from './contacts-fixtures.js';
import { type FakeCall, fakeApi, ok } from './fake-api.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

const json = () => JSON.parse((screen.getByLabelText('Conditions as JSON') as HTMLTextAreaElement).value);
const previews = (calls: FakeCall[]) =>
  calls.filter((call) => call.path.endsWith('/segments/preview')).map((call) => call.body);

async function setUp() {
  const calls = fakeApi({
    'GET /api/v1/client/segments': ok({ segments: [] }, { total: 0, max_segments: 50 }),
    'GET /api/v1/client/topics': ok({ topics: [{ id: 4, name: 'Product news' }] }),
    'POST /api/v1/client/segments/preview': (call) => {
      const text = JSON.stringify(call.body);
      return ok({ count: text.includes('"any"') ? 5 : 3, exact: true, sampled: 9, share: 1 });
    },
  });
  render(<SegmentsPage api={createApi()} params={{}} signedIn={as('member')} />);
  await screen.findByLabelText('Conditions as JSON');
  return calls;
}

describe('the condition builder', () => {
  it('shows the starter conditions and writes each change to the JSON, which the live count follows', async () => {
    const calls = await setUp();
    const count = () => document.getElementById('sg-new-definition-count')!;
    await waitFor(() => expect(count().textContent).toBe('3 contacts match now.'));

    // The starter's condition is shown by kind with its inputs.
    const first = within(screen.getByRole('group', { name: 'Condition 1 of group 1' }));
    expect((first.getByLabelText('Kind') as HTMLSelectElement).value).toBe('custom_field');
    expect((first.getByLabelText('Custom field name') as HTMLInputElement).value).toBe('plan');
    expect((first.getByLabelText('Operator') as HTMLSelectElement).value).toBe('eq');
    expect((first.getByLabelText('Value') as HTMLInputElement).value).toBe('pro');

    // Act: any of the groups; a second condition, a tag; a second group, a topic by its name; a number value.
    fireEvent.change(screen.getByLabelText('Contacts match'), { target: { value: 'any' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add a condition to group 1' }));
    const second = within(screen.getByRole('group', { name: 'Condition 2 of group 1' }));
    fireEvent.change(second.getByLabelText('Kind'), { target: { value: 'tag' } });
    fireEvent.input(second.getByLabelText('Tag'), { target: { value: 'vip' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add a group' }));
    const other = within(screen.getByRole('group', { name: 'Condition 1 of group 2' }));
    fireEvent.change(other.getByLabelText('Kind'), { target: { value: 'topic' } });
    await waitFor(() => expect(other.getByRole('option', { name: 'Product news' })).toBeTruthy());
    fireEvent.change(other.getByLabelText('Topic'), { target: { value: '4' } });
    fireEvent.change(other.getByLabelText('Operator'), { target: { value: 'unsubscribed' } });
    fireEvent.change(first.getByLabelText('Value is'), { target: { value: 'number' } });
    fireEvent.input(first.getByLabelText('Value'), { target: { value: '12' } });
    fireEvent.change(first.getByLabelText('Operator'), { target: { value: 'in' } });
    fireEvent.input(first.getByLabelText('Values'), { target: { value: '12, 14' } });

    // Assess: the JSON holds exactly what was built, and the count was asked about it once typing paused.
    const built = {
      match: 'any',
      groups: [
        {
          match: 'all',
          conditions: [
            { on: 'custom_field', name: 'plan', op: 'in', value: [12, 14] },
            { on: 'tag', op: 'has', tag: 'vip' },
          ],
        },
        { match: 'all', conditions: [{ on: 'topic', topic_id: 4, op: 'unsubscribed' }] },
      ],
    };
    expect(json()).toEqual(built);
    await waitFor(() => expect(count().textContent).toBe('5 contacts match now.'));
    expect(previews(calls).at(-1)).toEqual({ definition: built });
  });

  it('shows what the JSON view typed, and each kind takes its own inputs', async () => {
    await setUp();
    const typed = {
      match: 'all',
      groups: [
        {
          match: 'any',
          conditions: [
            { on: 'date', field: 'last_purchase_at', op: 'within_days', value: 14 },
            { on: 'event_count', event: 'login', op: 'at_most', count: 2, within_days: 7 },
            { on: 'engagement', op: 'human_clicked', within_days: 30 },
            { on: 'subscription', op: 'suppressed' },
            { on: 'contact', field: 'is_subscribed', op: 'eq', value: false },
          ],
        },
      ],
    };
    fireEvent.input(screen.getByLabelText('Conditions as JSON'), { target: { value: JSON.stringify(typed) } });

    const group = (n: number) => within(screen.getByRole('group', { name: `Condition ${n} of group 1` }));
    expect((screen.getByLabelText('Group 1 holds for') as HTMLSelectElement).value).toBe('any');
    expect((group(1).getByLabelText('Days') as HTMLInputElement).value).toBe('14');
    expect((group(2).getByLabelText('Event type') as HTMLInputElement).value).toBe('login');
    expect((group(2).getByLabelText('Times') as HTMLInputElement).value).toBe('2');
    expect((group(3).getByLabelText('Within the last … days') as HTMLInputElement).value).toBe('30');
    expect((group(4).getByLabelText('The contact is') as HTMLSelectElement).value).toBe('suppressed');
    expect((group(5).getByLabelText('Value') as HTMLSelectElement).value).toBe('false');

    // Changes keep the rest: the date's operator to "is set" drops its value; the count's window emptied is "ever";
    // never opened takes no window.
    fireEvent.change(group(1).getByLabelText('Operator'), { target: { value: 'exists' } });
    fireEvent.input(group(2).getByLabelText('Within the last … days'), { target: { value: '' } });
    fireEvent.change(group(3).getByLabelText('The contact'), { target: { value: 'never_opened' } });
    fireEvent.change(group(5).getByLabelText('Value'), { target: { value: 'true' } });
    expect(json().groups[0].conditions).toEqual([
      { on: 'date', field: 'last_purchase_at', op: 'exists' },
      { on: 'event_count', event: 'login', op: 'at_most', count: 2 },
      { on: 'engagement', op: 'never_opened' },
      { on: 'subscription', op: 'suppressed' },
      { on: 'contact', field: 'is_subscribed', op: 'eq', value: true },
    ]);
    expect(group(3).queryByLabelText('Within the last … days')).toBeNull();

    // Removing a condition leaves the others in order.
    fireEvent.click(screen.getByRole('button', { name: 'Remove condition 4 of group 1' }));
    expect(json().groups[0].conditions.map((c: { on: string }) => c.on)).toEqual([
      'date',
      'event_count',
      'engagement',
      'contact',
    ]);
  });

  it('reads engagement with one journey or broadcast, chosen by name, its operators fitting the choice', async () => {
    fakeApi({
      'GET /api/v1/client/segments': ok({ segments: [] }, { total: 0, max_segments: 50 }),
      'GET /api/v1/client/topics': ok({ topics: [] }),
      'GET /api/v1/client/journeys': ok({ journeys: [{ id: 1000, name: 'Onboarding', status: 'live' }] }),
      'GET /api/v1/client/broadcasts': ok({ broadcasts: [{ id: 7, name: 'November news', status: 'sent' }] }),
      'POST /api/v1/client/segments/preview': () => ok({ count: 1, exact: true, sampled: 1, share: 1 }),
    });
    render(<SegmentsPage api={createApi()} params={{}} signedIn={as('member')} />);
    const typed = { match: 'all', groups: [{ match: 'all', conditions: [{ on: 'engagement', op: 'never_opened' }] }] };
    fireEvent.input(await screen.findByLabelText('Conditions as JSON'), { target: { value: JSON.stringify(typed) } });
    const condition = within(screen.getByRole('group', { name: 'Condition 1 of group 1' }));
    await waitFor(() => expect(condition.getByRole('option', { name: 'November news' })).toBeTruthy());
    const ops = () => [...(condition.getByLabelText('The contact') as HTMLSelectElement).options].map((o) => o.value);
    expect(ops()).toEqual(['human_opened', 'human_clicked', 'never_opened']);

    // A broadcast chosen: "never opened" (every e-mail) becomes "was sent one and opened none" of that broadcast.
    fireEvent.change(condition.getByLabelText('Of'), { target: { value: 'broadcast:7' } });
    expect(json().groups[0].conditions).toEqual([{ on: 'engagement', op: 'not_opened', source: { broadcast_id: 7 } }]);
    expect(ops()).toEqual(['human_opened', 'human_clicked', 'not_opened']);

    // A journey, opened within 14 days; then back to any e-mail, which keeps the operator and the window.
    fireEvent.change(condition.getByLabelText('Of'), { target: { value: 'journey:1000' } });
    fireEvent.change(condition.getByLabelText('The contact'), { target: { value: 'human_opened' } });
    fireEvent.input(condition.getByLabelText('Within the last … days'), { target: { value: '14' } });
    expect(json().groups[0].conditions).toEqual([
      { on: 'engagement', op: 'human_opened', within_days: 14, source: { journey_id: 1000 } },
    ]);
    fireEvent.change(condition.getByLabelText('Of'), { target: { value: 'any' } });
    expect(json().groups[0].conditions).toEqual([{ on: 'engagement', op: 'human_opened', within_days: 14 }]);
  });

  it('leaves to the JSON view what it cannot show, and says so', async () => {
    await setUp();
    fireEvent.input(screen.getByLabelText('Conditions as JSON'), {
      target: { value: JSON.stringify({ match: 'all', groups: [{ match: 'all', conditions: [{ on: 'segment' }] }] }) },
    });
    expect(screen.queryByRole('group', { name: 'Conditions' })).toBeNull();
    expect(screen.getByText(/The builder shows conditions once the JSON below/)).toBeTruthy();
    expect((document.querySelector('details.advanced-json') as HTMLDetailsElement).open).toBe(true);
  });

  it('reads a list of values by its commas, each as its type', () => {
    expect(listOf(' a, b ,, c', 'text')).toEqual(['a', 'b', 'c']);
    expect(listOf('1, 2.5, x', 'number')).toEqual([1, 2.5, 'x']);
    expect(builderCanShow({ match: 'all', groups: [] })).toBe(true);
    expect(builderCanShow({ match: 'some', groups: [] })).toBe(false);
    expect(builderCanShow([])).toBe(false);
  });
});
