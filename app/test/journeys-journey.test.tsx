import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/client.js';
import { JourneyPage } from '../src/pages/journeys/journey-page.js';
import { jsonOf } from '../src/pages/journeys/journey-text.js';
import { as } from './contacts-fixtures.js';
import { failure, type FakeAnswer, type FakeCall, fakeApi, ok } from './fake-api.js';
import { AT, CART, created, journeyOf, SYSTEM_WELCOME } from './journeys-fixtures.js';

const BASE = '/api/v1/client/journeys/1000';
/** The calls that change something (the flow's read of the templates to offer, a POST, aside). */
const changes = (calls: FakeCall[]) =>
  calls
    .filter((call) => call.method !== 'GET' && call.path !== '/api/v1/client/email-templates/list')
    .map((call) => [call.method, call.path, call.body]);

function answers(
  journey: Record<string, unknown> = journeyOf(),
  extra: Record<string, FakeAnswer | ((call: FakeCall) => FakeAnswer)> = {},
) {
  return { [`GET ${BASE}`]: ok(journey), ...extra };
}

const openJourney = async (role: 'owner' | 'member' | 'viewer' = 'owner', id = '1000') => {
  render(<JourneyPage api={createApi()} params={{ id }} signedIn={as(role)} />);
  // The page opens on the drawn flow; these tests work in the JSON view.
  fireEvent.click(await screen.findByRole('tab', { name: 'JSON' }));
  return (await screen.findByLabelText(/as JSON/)) as HTMLTextAreaElement;
};

/** The outline's steps as their text, in order. */
const outline = () =>
  within(screen.getByRole('region', { name: /^Steps/ }))
    .getAllByRole('listitem')
    .filter((item) => item.parentElement?.classList.contains('step-outline'));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

describe('a journey’s page', () => {
  it('shows the live counts on each step of a published journey, from its stats', async () => {
    // Prepare
    const calls = fakeApi(
      answers(journeyOf({ status: 'live', live_version: 1 }), {
        [`GET ${BASE}/stats`]: ok({
          journey_id: 1000,
          from: '2026-10-30',
          to: '2026-11-28',
          counted_at: AT,
          steps: [
            {
              step_id: 'wait_checkout',
              entered: 12,
              waiting: 3,
              left: 9,
              sent: 0,
              completed: 4,
              exited: 0,
              ended: 0,
              ways: {},
            },
            {
              step_id: 'remind',
              entered: 5,
              waiting: 0,
              left: 5,
              sent: 5,
              completed: 5,
              exited: 0,
              ended: 0,
              ways: {},
            },
          ],
        }),
      }),
    );

    // Act
    await openJourney();

    // Assess
    await waitFor(() =>
      expect(outline()[0]?.querySelector('.step-counts')?.textContent).toBe('3 here now · 12 entered in 30 days'),
    );
    expect(outline()[1]?.querySelector('.step-counts')?.textContent).toBe('0 here now · 5 entered, 5 sent in 30 days');
    expect(calls.filter((call) => call.path === `${BASE}/stats`)).toHaveLength(1);
  });

  it('reads no counts for a draft never published', async () => {
    // Prepare
    const calls = fakeApi(answers(journeyOf()));

    // Act
    await openJourney();

    // Assess
    expect(outline()[0]?.querySelector('.step-counts')).toBeNull();
    expect(calls.filter((call) => call.path === `${BASE}/stats`)).toEqual([]);
  });

  it('shows its head and its steps in order, each edge a link that moves the focus to its step', async () => {
    // Prepare
    fakeApi(answers(journeyOf({ status: 'live', live_version: 2 })));

    // Act
    const editor = await openJourney();

    // Assess
    expect(screen.getByRole('heading', { level: 1, name: 'Cart reminder' })).toBeTruthy();
    const head = within(screen.getByRole('region', { name: 'About this journey' }));
    expect(head.getByText('Live version').nextElementSibling?.textContent).toBe('2');
    expect(editor.value).toBe(jsonOf(CART));
    const steps = outline();
    expect(steps.map((step) => step.querySelector('.step-head')?.textContent)).toEqual([
      'wait_checkout wait_for_evententry',
      'remind send',
    ]);
    expect(steps[0]?.querySelector('.step-summary')?.textContent).toBe(
      'Wait up to 4 hours for checkout_completed with the same key',
    );
    const edges = within(within(steps[0] as HTMLElement).getByRole('list', { name: 'Where wait_checkout leads' }));
    expect(edges.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'on checkout_completed → the run ends',
      'on timeout → remind',
    ]);
    fireEvent.click(edges.getByRole('link', { name: 'remind' }));
    expect(document.activeElement).toBe(steps[1]);
    expect(screen.getByText(/^On cart_abandoned, one run per cart_id; every time/)).toBeTruthy();
  });

  it('writes the draft’s members in reading order, whatever order the API keeps them in', async () => {
    // Prepare: every object's members reversed, as a store that keeps no member order may answer
    const reversed = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reversed)
        : value && typeof value === 'object'
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([key, item]) => [key, reversed(item)]),
            )
          : value;
    fakeApi(answers(journeyOf({ draft: reversed(CART) })));

    // Act
    const editor = await openJourney();

    // Assess
    expect(editor.value).toBe(`${JSON.stringify(CART, null, 2)}\n`);
  });

  it('saves the draft with the version it read, lists the issues, and each selects its place in the JSON', async () => {
    // Prepare
    const issue = { path: 'steps.1.template_id', condition: 'reference', error: 'No template #99 for this client' };
    const calls = fakeApi(answers(journeyOf(), { [`PUT ${BASE}/draft`]: ok({ draft_version: 4, issues: [issue] }) }));
    const editor = await openJourney('member');
    const changed = jsonOf({ ...CART, steps: [CART.steps[0], { ...CART.steps[1], template_id: 99 }] });

    // Act
    fireEvent.input(editor, { target: { value: changed } });
    expect(screen.getByText('Unsaved changes.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));

    // Assess
    expect(await screen.findByText('Draft saved with one issue: see below.')).toBeTruthy();
    expect(changes(calls)).toEqual([['PUT', `${BASE}/draft`, { definition: JSON.parse(changed), draft_version: 3 }]]);
    const list = within(screen.getByRole('region', { name: 'Issues (1)' }));
    fireEvent.click(list.getByRole('button', { name: 'Show steps.1.template_id in the JSON' }));
    expect(document.activeElement).toBe(editor);
    expect(editor.value.slice(editor.selectionStart, editor.selectionEnd)).toBe('"template_id": 99');
    // …and at its step in the outline
    expect(within(outline()[1] as HTMLElement).getByText(/No template #99/)).toBeTruthy();
    fireEvent.click(list.getByRole('link', { name: 'step 2 in the outline' }));
    expect(document.activeElement).toBe(outline()[1]);
    // The next save sends the new version.
    fireEvent.input(editor, { target: { value: jsonOf(CART) } });
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(2));
    expect(calls.at(-1)?.body).toEqual({ definition: CART, draft_version: 4 });
  });

  it('names each place the text is not JSON, selects it on demand, and sends nothing', async () => {
    // Prepare
    const calls = fakeApi(answers());
    const editor = await openJourney();

    // Act
    fireEvent.input(editor, { target: { value: '{\n  "entry": "a",\n  "steps": [,]\n}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));

    // Assess
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^The text is not JSON \(.*the first at line 3, column 13\): nothing was saved\.$/,
    );
    const places = within(screen.getByRole('region', { name: /^Not JSON/ }));
    fireEvent.click(places.getAllByRole('button')[0] as HTMLElement);
    expect(document.activeElement).toBe(editor);
    expect(editor.selectionStart).toBe(editor.value.lastIndexOf(','));
    expect(changes(calls)).toEqual([]);
  });

  it('says when the draft changed meanwhile (409) and loads the saved one on request', async () => {
    // Prepare
    let reads = 0;
    const newer = { ...CART, entry: 'remind' };
    fakeApi({
      [`GET ${BASE}`]: () => {
        reads += 1;
        return ok(reads === 1 ? journeyOf() : journeyOf({ draft: newer, draft_version: 5 }));
      },
      [`PUT ${BASE}/draft`]: failure(409, 'The draft was changed meanwhile; read it again and retry', [
        { condition: 'state', error: 'draft_version 3 is not the current 5', key: 'draft_version' },
      ]),
    });
    const editor = await openJourney();

    // Act
    fireEvent.input(editor, { target: { value: jsonOf({ ...CART, entry: 'x' }) } });
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));

    // Assess
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The draft was changed meanwhile; read it again and retry',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Load the saved draft' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, load the saved draft' }));
    expect(await screen.findByText('The saved draft is loaded: make your change again and save.')).toBeTruthy();
    expect(editor.value).toBe(jsonOf(newer));
    expect(screen.queryByText('Unsaved changes.')).toBeNull();
  });

  it('imports a JSON file into the text, exports the text as a file, and offers a copy', async () => {
    // Prepare
    fakeApi(answers());
    const editor = await openJourney();
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:x';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      expect(this.download).toBe('journey-1000.json');
    });
    const other = { ...CART, entry: 'remind' };

    // Act
    fireEvent.change(screen.getByLabelText('Import a JSON file'), {
      target: { files: [new File([JSON.stringify(other)], 'cart.json', { type: 'application/json' })] },
    });

    // Assess
    expect(await screen.findByText(/cart\.json imported into the text: nothing is saved/)).toBeTruthy();
    expect(editor.value).toBe(jsonOf(other));
    fireEvent.click(screen.getByRole('button', { name: 'Export journey-1000.json' }));
    expect(clicked).toHaveBeenCalledTimes(1);
    expect(await blobs[0]?.text()).toBe(jsonOf(other));
    expect(screen.getByRole('button', { name: 'Copy JSON' })).toBeTruthy();
  });

  it('validates (saving first), shows the impact, and publishes with a choice for each removed step', async () => {
    // Prepare
    const validation = {
      valid: true,
      issues: [],
      impact: [
        { step_id: 'wait_checkout', change: 'changed', waiting: null },
        { step_id: 'old_wait', change: 'removed', waiting: null },
        { step_id: 'remind', change: 'unchanged', waiting: null },
      ],
      counted_at: AT,
    };
    let published = false;
    const calls = fakeApi({
      [`GET ${BASE}`]: () =>
        ok(journeyOf(published ? { status: 'live', live_version: 3 } : { status: 'live', live_version: 2 })),
      [`PUT ${BASE}/draft`]: ok({ draft_version: 4, issues: [] }),
      [`POST ${BASE}/validate`]: ok(validation),
      [`POST ${BASE}/publish`]: (call) => {
        const moves = (call.body as { moves: Record<string, unknown> }).moves;
        if (!moves['old_wait'])
          return failure(422, 'The request is invalid', [
            { condition: 'required', error: 'Choose what happens to the runs at old_wait', key: 'moves.old_wait' },
          ]);
        published = true;
        return created({ version: 3 });
      },
      [`GET ${BASE}/versions`]: ok({ versions: [] }),
    });
    const editor = await openJourney();

    // Act: an edit, then Save and validate
    fireEvent.input(editor, { target: { value: jsonOf({ ...CART, entry: 'wait_checkout' }).replace('240', '120') } });
    fireEvent.click(screen.getByRole('button', { name: 'Save and validate' }));

    // Assess
    expect(await screen.findByText(/The draft is valid/)).toBeTruthy();
    const impact = within(screen.getByRole('region', { name: 'Impact table' }));
    expect(impact.getAllByRole('row').map((row) => row.textContent)).toEqual([
      'StepChangeContacts there',
      'wait_checkoutChangedNot counted yet',
      'old_waitRemovedNot counted yet',
      'remindUnchangedNot counted yet',
    ]);
    // Publishing without a choice: the API's 422 at the removed step's field.
    fireEvent.click(screen.getByRole('button', { name: 'Publish as version 3' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, publish' }));
    const choice = screen.getByLabelText('Runs at old_wait');
    await waitFor(() => expect(choice.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById('jy-move-old_wait-error')?.textContent).toBe(
      'Choose what happens to the runs at old_wait',
    );
    // Moved to a step of the new version.
    fireEvent.change(choice, { target: { value: 'move_to' } });
    fireEvent.change(screen.getByLabelText('Move runs at old_wait to'), { target: { value: 'remind' } });
    fireEvent.click(screen.getByRole('button', { name: 'Publish as version 3' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, publish' }));
    expect(await screen.findByText(/^Version 3 is live/)).toBeTruthy();
    expect(changes(calls)).toEqual([
      ['PUT', `${BASE}/draft`, expect.objectContaining({ draft_version: 3 })],
      ['POST', `${BASE}/validate`, undefined],
      ['POST', `${BASE}/publish`, { draft_version: 4, moves: {} }],
      ['POST', `${BASE}/publish`, { draft_version: 4, moves: { old_wait: { action: 'move_to', step_id: 'remind' } } }],
    ]);
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'About this journey' }).textContent).toContain('Live version3'),
    );
  });

  it('publishes a copy of a system journey disabling its workflow in the same change, when asked', async () => {
    // Prepare
    const calls = fakeApi(
      answers(journeyOf({ copied_from: 2 }), {
        [`POST ${BASE}/validate`]: ok({ valid: true, issues: [], impact: [], counted_at: null }),
        [`POST ${BASE}/publish`]: (call) =>
          (call.body as { disable_source_workflow: boolean }).disable_source_workflow
            ? created({ version: 1 })
            : failure(409, 'Workflow #2 is enabled: publishing this copy would send both', [
                { condition: 'state', error: 'Workflow #2 is enabled', key: 'disable_source_workflow' },
              ]),
      }),
    );
    await openJourney();
    fireEvent.click(screen.getByRole('button', { name: 'Validate' }));
    await screen.findByRole('button', { name: 'Publish as version 1' });

    // Act: refused while the workflow stays enabled, then published with it disabled
    fireEvent.click(screen.getByRole('button', { name: 'Publish as version 1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, publish' }));
    const box = screen.getByLabelText(/^Disable workflow #2 in the same change/);
    await waitFor(() => expect(box.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByRole('alert').textContent).toBe('Workflow #2 is enabled: publishing this copy would send both');
    fireEvent.click(box);
    fireEvent.click(screen.getByRole('button', { name: 'Publish as version 1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, publish' }));

    // Assess
    expect(await screen.findByText(/^Version 1 is live/)).toBeTruthy();
    expect(changes(calls).filter(([, path]) => path === `${BASE}/publish`)).toEqual([
      ['POST', `${BASE}/publish`, { draft_version: 3, disable_source_workflow: false }],
      ['POST', `${BASE}/publish`, { draft_version: 3, disable_source_workflow: true }],
    ]);
  });

  it('offers publishing only to a manager, and only for the text it validated', async () => {
    // Prepare
    fakeApi(
      answers(journeyOf(), {
        [`POST ${BASE}/validate`]: ok({ valid: true, issues: [], impact: [], counted_at: AT }),
      }),
    );
    const editor = await openJourney('member');

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Validate' }));

    // Assess
    expect(await screen.findByText(/The draft is valid/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Publish/ })).toBeNull();
    expect(screen.getByText(/An owner or an admin publishes/)).toBeTruthy();
    cleanup();
    await openJourney('owner');
    fireEvent.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByRole('button', { name: 'Publish as version 1' })).toBeTruthy();
    fireEvent.input(await screen.findByLabelText(/as JSON/), {
      target: { value: jsonOf({ ...CART, entry: 'remind' }) },
    });
    expect(screen.queryByRole('button', { name: 'Publish as version 1' })).toBeNull();
    expect(screen.getByText('The text changed since: validate again to publish it.')).toBeTruthy();
    expect(editor).toBeTruthy();
  });

  it.each([
    ['live', 'Pause', 'pause', 'paused', /^Paused: no new run starts/],
    ['paused', 'Resume', 'resume', 'live', /^Resumed: new runs start again/],
  ])('a %s journey: %s in the danger zone', async (status, button, route, after, said) => {
    // Prepare
    const calls = fakeApi(
      answers(journeyOf({ status, live_version: 1 }), {
        [`POST ${BASE}/${route}`]: ok(journeyOf({ status: after, live_version: 1 })),
        [`GET ${BASE}/versions`]: ok({ versions: [{ version: 1, published_at: AT, published_by: 1 }] }),
      }),
    );
    await openJourney();
    const zone = within(screen.getByRole('region', { name: 'Stop or remove' }));

    // Act
    fireEvent.click(zone.getByRole('button', { name: button }));

    // Assess
    expect(await zone.findByText(said)).toBeTruthy();
    expect(changes(calls)).toEqual([['POST', `${BASE}/${route}`, undefined]]);
    expect(screen.getByRole('heading', { level: 1 }).nextElementSibling?.textContent).toBe(
      after === 'live' ? 'Live' : 'Paused',
    );
  });

  it('archives after asking, and deletes a journey never published', async () => {
    // Prepare
    const calls = fakeApi({
      [`GET ${BASE}`]: ok(journeyOf({ status: 'live', live_version: 1 })),
      [`POST ${BASE}/archive`]: ok(journeyOf({ status: 'archived', live_version: 1 })),
      [`GET ${BASE}/versions`]: ok({ versions: [] }),
      'GET /api/v1/client/journeys/1001': ok(journeyOf({ id: 1001 })),
      'DELETE /api/v1/client/journeys/1001': ok({}),
    });
    await openJourney();

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Archive Cart reminder' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, archive' }));

    // Assess
    expect(await screen.findByText(/the runs that were inside have ended/)).toBeTruthy();
    expect((screen.getByLabelText(/as JSON/) as HTMLTextAreaElement).readOnly).toBe(true);
    cleanup();
    await openJourney('member', '1001');
    fireEvent.click(screen.getByRole('button', { name: 'Delete Cart reminder' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, delete' }));
    await waitFor(() => expect(window.location.pathname).toBe('/app/journeys'));
    expect(changes(calls)).toEqual([
      ['POST', `${BASE}/archive`, undefined],
      ['DELETE', '/api/v1/client/journeys/1001', undefined],
    ]);
  });

  it('lists the versions, shows one, and compares two (or one and the draft)', async () => {
    // Prepare
    const calls = fakeApi(
      answers(journeyOf({ status: 'live', live_version: 2 }), {
        [`GET ${BASE}/versions`]: ok({
          versions: [
            { version: 2, published_at: AT, published_by: 1 },
            { version: 1, published_at: AT, published_by: null },
          ],
        }),
        [`GET ${BASE}/versions/1`]: ok({ version: 1, definition: CART, moves: {}, published_at: AT }),
        [`GET ${BASE}/diff`]: ok({
          trigger_changed: false,
          settings_changed: true,
          added: ['thanks'],
          removed: [],
          changed: [{ step_id: 'remind', fields: ['template_id', 'send_time'] }],
        }),
      }),
    );
    await openJourney('viewer');
    const versions = within(await screen.findByRole('region', { name: 'Versions table' }));

    // Act
    fireEvent.click(versions.getByRole('button', { name: 'Show version 1' }));
    expect(((await screen.findByLabelText('Version 1 as JSON (read-only)')) as HTMLTextAreaElement).value).toBe(
      jsonOf(CART),
    );
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '1' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Compare' }));

    // Assess
    expect(await screen.findByText('From version 1 to version 2: the settings changed')).toBeTruthy();
    const diff = document.querySelector('.diff') as HTMLElement;
    expect(diff.textContent).toBe('AddedthanksRemovedNoneChangedremind: template_id, send_time');
    const asked = calls.find((call) => call.path === `${BASE}/diff`);
    expect(Object.fromEntries(asked?.query ?? [])).toEqual({ from: '1', to: '2' });
    expect(versions.getAllByRole('row').map((row) => row.firstElementChild?.textContent)).toEqual([
      'Version',
      'Version 2 (live)',
      'Version 1',
    ]);
  });

  it('renames the journey, sending only what changed', async () => {
    // Prepare
    const calls = fakeApi(
      answers(journeyOf(), {
        [`PATCH ${BASE}`]: ok(journeyOf({ name: 'Abandoned carts' })),
      }),
    );
    await openJourney('member');

    // Act
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Abandoned carts' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save name' }));

    // Assess
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(changes(calls)).toEqual([['PATCH', BASE, { name: 'Abandoned carts' }]]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Abandoned carts');
  });

  it('a viewer reads the draft and its steps, and changes nothing', async () => {
    // Prepare
    fakeApi(answers());

    // Act
    const editor = await openJourney('viewer');

    // Assess
    expect(editor.readOnly).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save draft' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Validate' })).toBeNull();
    expect(screen.queryByLabelText('Import a JSON file')).toBeNull();
    expect(screen.queryByRole('region', { name: 'Stop or remove' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save name' })).toBeNull();
    expect(outline()).toHaveLength(2);
  });
});

describe('a system journey’s page', () => {
  it('shows its steps and JSON read-only, and copies it as the client’s own journey', async () => {
    // Prepare
    const calls = fakeApi({
      'GET /api/v1/client/journeys/1': ok(SYSTEM_WELCOME),
      'POST /api/v1/client/journeys': created(journeyOf({ id: 1007, copied_from: 1 })),
    });

    // Act
    const json = await openJourney('member', '1');

    // Assess
    expect(json.readOnly).toBe(true);
    const head = within(screen.getByRole('region', { name: 'About this journey' }));
    expect(head.getByText('Live version').nextElementSibling?.textContent).toBe('Always the workflow’s customization');
    expect(json.value).toBe(jsonOf(SYSTEM_WELCOME.live));
    expect(outline().map((step) => step.querySelector('.step-summary')?.textContent)).toEqual([
      'Wait 1 hour',
      'Send template #1 at once',
    ]);
    expect(screen.queryByRole('button', { name: 'Save draft' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Validate/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'workflow “Welcome”' }).getAttribute('href')).toBe('/app/workflow/1');
    fireEvent.input(screen.getByLabelText('Name of the copy'), { target: { value: 'My welcome' } });
    fireEvent.click(screen.getByRole('button', { name: 'Copy as my journey' }));
    await waitFor(() => expect(window.location.pathname).toBe('/app/journey/1007'));
    expect(changes(calls)).toEqual([['POST', '/api/v1/client/journeys', { copy_of: 1, name: 'My welcome' }]]);
  });

  it('names no journey for an address that is not one', async () => {
    // Prepare
    const calls = fakeApi({});

    // Act
    render(<JourneyPage api={createApi()} params={{ id: 'cart' }} signedIn={as('owner')} />);

    // Assess
    expect(screen.getByRole('heading', { level: 1, name: 'No such journey' })).toBeTruthy();
    expect(calls).toEqual([]);
  });
});
