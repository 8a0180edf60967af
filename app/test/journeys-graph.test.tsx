import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { COUNTS_REREAD_MS } from '../src/pages/journeys/journey-counts.js';
import { JourneyPage } from '../src/pages/journeys/journey-page.js';
import { as } from './contacts-fixtures.js';
import { type FakeAnswer, type FakeCall, failure, fakeApi, ok } from './fake-api.js';
import { AT, CART, journeyOf, SYSTEM_WELCOME } from './journeys-fixtures.js';

const BASE = '/api/v1/client/journeys/1000';

const stepStats = (step_id: string, entered: number, waiting: number, sent = 0) => ({
  step_id,
  entered,
  waiting,
  left: entered - waiting,
  sent,
  completed: 0,
  exited: 0,
  ended: 0,
  ways: {},
});

function answers(
  journey: Record<string, unknown> = journeyOf(),
  extra: Record<string, FakeAnswer | ((call: FakeCall) => FakeAnswer)> = {},
) {
  return {
    [`GET ${BASE}`]: ok(journey),
    'POST /api/v1/client/email-templates/list': ok(
      { templates: [{ id: 1, name: 'Cart reminder mail' }] },
      { total_pages: 1 },
    ),
    'GET /api/v1/client/topics': ok({ topics: [] }),
    ...extra,
  };
}

const openFlow = async (role: 'owner' | 'viewer' = 'owner', id = '1000') => {
  render(<JourneyPage api={createApi()} params={{ id }} signedIn={as(role)} />);
  return screen.findByRole('tree', { name: 'The journey’s flow' });
};

/** The tree's items in reading order, each as its text. */
const items = (tree: HTMLElement) => within(tree).getAllByRole('treeitem');
const place = (item: HTMLElement) => {
  const box = item.parentElement as HTMLElement;
  return { row: box.style.getPropertyValue('--row'), lane: box.style.getPropertyValue('--lane') };
};

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

describe('a journey drawn as a flow', () => {
  it('draws the cart journey top-down, its two ways side by side, with the live counts and issues on its steps', async () => {
    // Prepare: published, with counts, and an issue at the reminder's template.
    fakeApi(
      answers(
        journeyOf({
          status: 'live',
          live_version: 1,
          issues: [{ path: 'steps.1.template_id', condition: 'missing', error: 'No template 1.' }],
        }),
        {
          [`GET ${BASE}/stats`]: ok({
            journey_id: 1000,
            from: '2026-10-30',
            to: '2026-11-28',
            counted_at: AT,
            steps: [stepStats('wait_checkout', 12, 3), stepStats('remind', 5, 0, 5)],
          }),
        },
      ),
    );

    // Act
    const tree = await openFlow();

    // Assess: the trigger, the wait, its event's end beside its timeout's reminder, and the reminder's end.
    await waitFor(() => expect(within(tree).getByText('3 here now · 12 entered')).toBeTruthy());
    const [trigger, wait, ended, remind, last] = items(tree) as HTMLElement[];
    expect(items(tree)).toHaveLength(5);
    expect(trigger?.textContent).toContain('On cart_abandoned, one run per cart_id; every time');
    expect(wait?.textContent).toContain('Wait for an event wait_checkout');
    expect(wait?.textContent).toContain('Wait up to 4 hours for checkout_completed with the same key');
    expect(ended?.textContent).toBe('on checkout_completed: The run ends');
    expect(remind?.textContent).toContain('on timeout: Send remind');
    expect(remind?.textContent).toContain('0 here now · 5 entered · 5 sent');
    expect(remind?.textContent).toContain('1 issue');
    expect(last?.textContent).toBe('The run ends');
    expect(place(ended as HTMLElement).row).toBe(place(remind as HTMLElement).row);
    expect([place(ended as HTMLElement).lane, place(remind as HTMLElement).lane]).toEqual(['1', '2']);
    expect(Number(place(wait as HTMLElement).row)).toBeLessThan(Number(place(remind as HTMLElement).row));
    // Levels: the ways of the wait one deeper.
    expect(items(tree).map((item) => item.getAttribute('aria-level'))).toEqual(['1', '1', '2', '2', '2']);
    // The lines are drawing only.
    expect(document.querySelector('.flow-lines')?.getAttribute('aria-hidden')).toBe('true');
  });

  it('reads the counts of a published journey again while the page is shown, keeping what is typed', async () => {
    // Prepare: each read of the stats a run more on the wait; the third read fails.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let reads = 0;
    let hidden = false;
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => (hidden ? 'hidden' : 'visible'));
    const calls = fakeApi(
      answers(journeyOf({ status: 'live', live_version: 1 }), {
        [`GET ${BASE}/stats`]: () => {
          reads += 1;
          if (reads === 3) return failure(503, 'Try again');
          return ok({
            journey_id: 1000,
            from: '2026-10-30',
            to: '2026-11-28',
            counted_at: AT,
            steps: [stepStats('wait_checkout', 11 + reads, 2 + reads), stepStats('remind', 5, 0, 5)],
          });
        },
      }),
    );
    const tree = await openFlow();
    await waitFor(() => expect(within(tree).getByText('3 here now · 12 entered')).toBeTruthy());
    expect(reads).toBe(1);
    const said = () => screen.getByText(/^Counts on the steps read at/).textContent;
    expect(said()).toMatch(/read again every 10 s while this page is shown\.$/);
    // An edit under way in the panel, not saved.
    fireEvent.click(items(tree)[3] as HTMLElement);
    const label = (await screen.findByLabelText(/Label/)) as HTMLInputElement;
    fireEvent.input(label, { target: { value: 'The reminder' } });
    label.focus();

    // Act
    await vi.advanceTimersByTimeAsync(COUNTS_REREAD_MS + 100);

    // Assess: a second read, its number on the flow; the edit and the focus where they were; nothing announced.
    await waitFor(() => expect(within(tree).getByText('4 here now · 13 entered')).toBeTruthy());
    expect(reads).toBe(2);
    expect(label.value).toBe('The reminder');
    expect(document.activeElement).toBe(label);
    expect(screen.getByText('Unsaved changes.')).toBeTruthy();
    expect(calls.filter((call) => call.path === BASE)).toHaveLength(1);
    expect(screen.getByText(/^Counts on the steps read at/).closest('[role=status], [aria-live]')).toBeNull();

    // Act and assess: a failed read keeps the counts and says so; the next answer replaces them.
    await vi.advanceTimersByTimeAsync(COUNTS_REREAD_MS + 100);
    await waitFor(() => expect(said()).toMatch(/reading them again failed at/));
    expect(within(tree).getByText('4 here now · 13 entered')).toBeTruthy();
    await vi.advanceTimersByTimeAsync(COUNTS_REREAD_MS + 100);
    await waitFor(() => expect(within(tree).getByText('6 here now · 15 entered')).toBeTruthy());
    expect(said()).toMatch(/read again every 10 s/);

    // Act and assess: hidden, no read; shown again, they go on.
    hidden = true;
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(3 * COUNTS_REREAD_MS);
    expect(reads).toBe(4);
    hidden = false;
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(COUNTS_REREAD_MS + 100);
    await waitFor(() => expect(reads).toBe(5));

    // Act and assess: the page left, no read.
    cleanup();
    await vi.advanceTimersByTimeAsync(3 * COUNTS_REREAD_MS);
    expect(reads).toBe(5);
  });

  it('moves between the steps with the arrow keys, one of them in the tab order', async () => {
    // Prepare
    fakeApi(answers());
    const tree = await openFlow();
    const [trigger, wait, ended, remind, last] = items(tree) as HTMLElement[];
    expect(items(tree).filter((item) => item.tabIndex === 0)).toEqual([trigger]);

    // Act and assess: down in reading order, right and left along a row, Home and End.
    trigger?.focus();
    fireEvent.keyDown(trigger as HTMLElement, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(wait);
    fireEvent.keyDown(wait as HTMLElement, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(ended);
    fireEvent.keyDown(ended as HTMLElement, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(remind);
    fireEvent.keyDown(remind as HTMLElement, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(remind);
    fireEvent.keyDown(remind as HTMLElement, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(ended);
    fireEvent.keyDown(ended as HTMLElement, { key: 'End' });
    expect(document.activeElement).toBe(last);
    fireEvent.keyDown(last as HTMLElement, { key: 'Home' });
    expect(document.activeElement).toBe(trigger);
    fireEvent.keyDown(trigger as HTMLElement, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(trigger);
    fireEvent.keyDown(trigger as HTMLElement, { key: 'ArrowDown' });
    fireEvent.keyDown(wait as HTMLElement, { key: 'ArrowDown' });
    fireEvent.keyDown(ended as HTMLElement, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(remind);
    // The tab stop follows the focus.
    expect(items(tree).filter((item) => item.tabIndex === 0)).toEqual([remind]);
  });

  it('opens a step’s panel on selection, the focus on its heading, and Escape gives the focus back', async () => {
    // Prepare
    fakeApi(answers());
    const tree = await openFlow();
    const remind = items(tree)[3] as HTMLElement;

    // Act: Enter on a button is its click.
    remind.focus();
    fireEvent.click(remind);

    // Assess
    const heading = await screen.findByRole('heading', { name: /^Step “remind”/ });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(remind.getAttribute('aria-selected')).toBe('true');
    expect(items(tree).filter((item) => item.getAttribute('aria-selected') === 'true')).toEqual([remind]);

    // Act: Escape in the panel.
    fireEvent.keyDown(heading, { key: 'Escape' });

    // Assess
    await waitFor(() => expect(screen.queryByRole('heading', { name: /^Step “remind”/ })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(items(tree)[3]));
  });

  it('gives the focus to the trigger when the step whose panel was open is deleted', async () => {
    // Prepare
    fakeApi(answers());
    const tree = await openFlow();
    fireEvent.click(items(tree)[3] as HTMLElement);
    await screen.findByRole('heading', { name: /^Step “remind”/ });

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Delete step remind' }));
    fireEvent.click(await screen.findByRole('button', { name: /^Yes, delete/ }));

    // Assess: the drawing without the step, the focus on the trigger's box.
    await waitFor(() => expect(items(tree).map((item) => item.id)).not.toContain('jy-flow-step-1'));
    await waitFor(() => expect(document.activeElement?.id).toBe('jy-flow-trigger'));
  });

  it('writes a change made in the panel into the draft’s text, the drawing following', async () => {
    // Prepare
    fakeApi(answers());
    const tree = await openFlow();
    fireEvent.click(items(tree)[3] as HTMLElement);
    const label = await screen.findByLabelText(/Label/);

    // Act
    fireEvent.input(label, { target: { value: 'The reminder' } });

    // Assess: the step is renamed in the JSON view's text, and "Unsaved changes." shows.
    expect(screen.getByText('Unsaved changes.')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'JSON' }));
    const text = (screen.getByLabelText(/as JSON/) as HTMLTextAreaElement).value;
    expect(JSON.parse(text).steps[1]).toMatchObject({ id: 'remind', name: 'The reminder' });
  });

  it('shows the JSON view and says the flow needs valid JSON while the text is not JSON', async () => {
    // Prepare
    fakeApi(answers());
    await openFlow();
    fireEvent.click(screen.getByRole('tab', { name: 'JSON' }));
    const json = screen.getByLabelText(/as JSON/) as HTMLTextAreaElement;

    // Act
    fireEvent.input(json, { target: { value: '{ "trigger": ' } });
    fireEvent.click(screen.getByRole('tab', { name: 'Flow' }));

    // Assess
    expect(screen.getByText(/The flow needs valid JSON/)).toBeTruthy();
    expect(screen.queryByRole('tree')).toBeNull();
    expect(screen.getByRole('tab', { name: 'JSON' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('heading', { name: /Not JSON/ })).toBeTruthy();

    // Act: fixed, the flow shows again.
    fireEvent.input(json, { target: { value: JSON.stringify(CART) } });
    fireEvent.click(screen.getByRole('tab', { name: 'Flow' }));
    expect(await screen.findByRole('tree')).toBeTruthy();
  });

  it('offers the first step of a journey without steps, and opens it', async () => {
    // Prepare
    fakeApi(answers(journeyOf({ draft: { ...CART, entry: '', steps: [] } })));
    const tree = await openFlow();
    expect(items(tree)).toHaveLength(1);

    // Act
    fireEvent.change(screen.getByLabelText('Kind of the first step'), { target: { value: 'wait' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add the first step' }));

    // Assess
    await waitFor(() => expect(items(tree)).toHaveLength(3));
    expect(items(tree)[1]?.textContent).toContain('Wait wait_1');
    expect(await screen.findByRole('heading', { name: /^Step “wait_1”/ })).toBeTruthy();
  });

  it('draws a system journey read-only: its panel offers no change and the page no save', async () => {
    // Prepare
    fakeApi(answers(SYSTEM_WELCOME, { 'GET /api/v1/client/journeys/1': ok(SYSTEM_WELCOME) }));
    const tree = await openFlow('owner', '1');

    // Act
    fireEvent.click(items(tree)[1] as HTMLElement);

    // Assess
    expect(await screen.findByText(/Read-only/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save draft' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Add a step/ })).toBeNull();
  });
});
