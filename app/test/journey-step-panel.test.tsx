import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { useState } from 'preact/hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type {
  JourneyDefinition,
  JourneyIssue,
  SplitStep,
  WaitForEventStep,
} from '../../shared/domain/journeys/definition/types.js';
import {
  fieldPathsOf,
  issuesSummary,
  placeIssues,
  type Selection,
  StepPanel,
} from '../src/pages/journeys/step-panel.js';

const TEMPLATES = [
  { id: 1, name: 'Welcome' },
  { id: 12, name: 'Cart reminder' },
];
const TOPICS = [
  { id: 3, name: 'Product news' },
  { id: 4, name: 'Offers' },
];

/** One step of each kind, joined: wait_checkout → remind → check → (split_it | pause_a_day → …). */
const definition = (): JourneyDefinition => ({
  trigger: { event: 'cart_abandoned', key: 'cart_id', reentry: { mode: 'always' } },
  entry: 'wait_checkout',
  steps: [
    {
      id: 'wait_checkout',
      type: 'wait_for_event',
      event: 'checkout_completed',
      match_key: true,
      timeout_minutes: 240,
      on_event: null,
      on_timeout: 'remind',
    },
    { id: 'remind', type: 'send', template_id: 1, send_time: { mode: 0 }, next: 'check' },
    {
      id: 'check',
      type: 'branch',
      branches: [
        {
          name: 'Opened',
          conditions: [{ on: 'engagement', send_step: 'remind', op: 'human_opened' }],
          next: 'split_it',
        },
      ],
      otherwise: 'pause_a_day',
    },
    {
      id: 'split_it',
      type: 'split',
      arms: [
        { name: 'A', percent: 50, next: 'tag_it' },
        { name: 'B', percent: 50, next: 'done' },
      ],
    },
    { id: 'pause_a_day', type: 'wait', minutes: 1440, next: 'morning' },
    { id: 'morning', type: 'wait_until', time: '09:00', next: 'tag_it' },
    { id: 'tag_it', type: 'update_contact', add_tags: ['cart'], next: 'done' },
    { id: 'done', type: 'exit' },
  ],
  settings: { category: 'marketing', topic_id: null, critical: false, exit_events: [], conversion_window_days: 7 },
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** The panel as the page holds it: the definition and selection change with what it says. */
function open(
  selection: Selection,
  options: { issues?: JourneyIssue[]; readOnly?: boolean; start?: JourneyDefinition } = {},
) {
  const changes: JourneyDefinition[] = [];
  const selections: Selection[] = [];
  const onClose = vi.fn();
  /** The page's own change of the draft (its JSON typed, a save's answer). */
  const outside: { set?: (next: JourneyDefinition) => void; select?: (next: Selection) => void } = {};
  function Page() {
    const [current, setCurrent] = useState(options.start ?? definition());
    const [selected, setSelected] = useState(selection);
    outside.set = setCurrent;
    outside.select = setSelected;
    return (
      <StepPanel
        definition={current}
        selection={selected}
        issues={options.issues ?? []}
        templates={TEMPLATES}
        topics={TOPICS}
        segments={[]}
        readOnly={options.readOnly ?? false}
        onChange={(next) => {
          changes.push(next);
          setCurrent(next);
        }}
        onSelect={(next) => {
          selections.push(next);
          setSelected(next);
        }}
        onClose={onClose}
      />
    );
  }
  render(<Page />);
  const last = () => changes[changes.length - 1] as JourneyDefinition;
  const stepOf = (id: string) => last().steps.find((step) => step.id === id);
  return { changes, selections, onClose, last, stepOf, outside };
}

const typeIn = (label: string | RegExp, text: string) =>
  fireEvent.input(screen.getByLabelText(label), { target: { value: text } });
const choose = (label: string | RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('the step panel', () => {
  it('names the step and its kind in its heading', () => {
    open({ kind: 'step', id: 'wait_checkout' });
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Step “wait_checkout”: Wait for an event');
  });

  it('edits a wait_for_event: event, key match, timeout with units, both ways on, a condition', () => {
    // Prepare
    const panel = open({ kind: 'step', id: 'wait_checkout' });

    // Act
    typeIn('Event type awaited', 'order_paid');
    fireEvent.click(screen.getByLabelText('Only an event with the same cart_id as the trigger’s'));
    typeIn('Wait at most', '2');
    choose(/^Unit$/, '1440');
    choose('When the event comes', 'done');
    choose('On timeout', '');
    fireEvent.click(screen.getByRole('button', { name: /Add a condition to “Conditions on the awaited event”/ }));
    typeIn('Event property', 'amount');
    choose('Test', 'gte');
    choose('Compared with', 'number');
    typeIn('Value', '100');

    // Assert
    expect(panel.stepOf('wait_checkout')).toEqual({
      id: 'wait_checkout',
      type: 'wait_for_event',
      event: 'order_paid',
      match_key: false,
      timeout_minutes: 2 * 1440,
      on_event: 'done',
      on_timeout: null,
      conditions: [{ on: 'event', path: 'amount', op: 'gte', value: 100 }],
    });
  });

  it('shows a wait’s minutes in their largest unit and keeps the unit chosen while typing', () => {
    // Prepare
    const panel = open({ kind: 'step', id: 'pause_a_day' });
    const amount = screen.getByLabelText('Wait for') as HTMLInputElement;
    expect(amount.value).toBe('1');
    expect((screen.getByLabelText(/^Unit$/) as HTMLSelectElement).value).toBe('1440');

    // Act
    choose(/^Unit$/, '60');
    typeIn('Wait for', '36');

    // Assert
    expect(panel.stepOf('pause_a_day')).toMatchObject({ minutes: 36 * 60 });
    expect((screen.getByLabelText(/^Unit$/) as HTMLSelectElement).value).toBe('60');
    expect(amount.value).toBe('36');
  });

  it('starts another step’s fields afresh: a unit chosen on one wait is not another’s', () => {
    // Prepare: two waits, one of 2 hours, one of a day.
    const start = definition();
    start.steps.push({ id: 'short', type: 'wait', minutes: 120, next: null });
    const panel = open({ kind: 'step', id: 'short' }, { start });
    expect((screen.getByLabelText(/^Unit$/) as HTMLSelectElement).value).toBe('60');

    // Act: the page selects the other wait
    act(() => panel.outside.select?.({ kind: 'step', id: 'pause_a_day' }));

    // Assert
    expect((screen.getByLabelText(/^Unit$/) as HTMLSelectElement).value).toBe('1440');
    expect((screen.getByLabelText('Wait for') as HTMLInputElement).value).toBe('1');
  });

  it('keeps an amount that is not a whole number as typed, for the API to refuse at its field', () => {
    const panel = open({ kind: 'step', id: 'pause_a_day' });
    typeIn('Wait for', '1.5');
    expect(panel.stepOf('pause_a_day')).toMatchObject({ minutes: '1.5' });
  });

  it('edits a send: template, send time (preferred hour, minute, slot), priority and next', () => {
    // Prepare
    const panel = open({ kind: 'step', id: 'remind' });

    // Act
    choose('Template', '12');
    choose('Send time', '1');
    choose('Slot', 'afternoon');
    const slotted = panel.stepOf('remind');
    typeIn('Preferred hour', '9');
    typeIn('Preferred minute', '30');
    typeIn('Priority', '80');
    choose('Then', '');

    // Assert
    expect(slotted).toMatchObject({ send_time: { mode: 1, slot: 'afternoon' } });
    expect(panel.stepOf('remind')).toEqual({
      id: 'remind',
      type: 'send',
      template_id: 12,
      priority_score: 80,
      send_time: { mode: 1, preferred_hour: 9, preferred_minute: 30 },
      next: null,
    });
    choose('Send time', '0');
    expect(panel.stepOf('remind')).toMatchObject({ send_time: { mode: 0 } });
    expect(screen.queryByLabelText('Preferred hour')).toBeNull();
  });

  it('offers every other step and the end on a next-step select, and shows a dangling one as it is', () => {
    // Prepare
    const start = definition();
    start.steps[1] = { id: 'remind', type: 'send', template_id: 99, send_time: { mode: 0 }, next: 'ghost' };
    open({ kind: 'step', id: 'remind' }, { start });

    // Act
    const then = screen.getByLabelText('Then') as HTMLSelectElement;

    // Assert
    const texts = [...then.options].map((option) => option.textContent);
    expect(texts[0]).toBe('End: the run ends here');
    expect(texts).toContain('check · branch');
    expect(texts.some((text) => text?.startsWith('remind'))).toBe(false);
    expect(then.value).toBe('ghost');
    expect(texts).toContain('ghost (no such step)');
    expect((screen.getByLabelText('Template') as HTMLSelectElement).value).toBe('99');
  });

  it('edits a wait_until: the time and the weekdays (none ticked: any day)', () => {
    const panel = open({ kind: 'step', id: 'morning' });
    typeIn('Time of day', '18:30');
    fireEvent.click(screen.getByLabelText('Friday'));
    fireEvent.click(screen.getByLabelText('Monday'));
    expect(panel.stepOf('morning')).toMatchObject({ time: '18:30', weekdays: [1, 5] });
    fireEvent.click(screen.getByLabelText('Friday'));
    fireEvent.click(screen.getByLabelText('Monday'));
    expect(panel.stepOf('morning')).not.toHaveProperty('weekdays');
  });

  it('edits a branch: a case’s engagement condition, a new case, its order, and otherwise', () => {
    // Prepare
    const panel = open({ kind: 'step', id: 'check' });

    // Act
    choose('Test', 'human_clicked');
    fireEvent.click(screen.getByRole('button', { name: 'Add a case' }));
    typeIn('Name of case 2', 'Neither');
    fireEvent.click(screen.getByRole('button', { name: 'Add a condition to “Conditions of case 2”' }));
    const second = screen.getByRole('group', { name: /Case 2/ });
    fireEvent.change(within(second).getByLabelText('Reads'), { target: { value: 'engagement' } });
    fireEvent.change(within(second).getByLabelText('Test'), { target: { value: 'neither' } });
    choose('Then, in case 2', 'done');
    fireEvent.click(screen.getByRole('button', { name: 'Move case 2 up' }));
    choose('Otherwise', '');

    // Assert
    expect(panel.stepOf('check')).toEqual({
      id: 'check',
      type: 'branch',
      branches: [
        { name: 'Neither', conditions: [{ on: 'engagement', send_step: 'remind', op: 'neither' }], next: 'done' },
        {
          name: 'Opened',
          conditions: [{ on: 'engagement', send_step: 'remind', op: 'human_clicked' }],
          next: 'split_it',
        },
      ],
      otherwise: null,
    });
  });

  it('edits the conditions of each kind with the operators the schema allows', () => {
    // Prepare
    const panel = open({ kind: 'trigger' });
    const add = () => fireEvent.click(screen.getByRole('button', { name: 'Add a condition to “Conditions to start”' }));
    const item = (n: number) => within(screen.getByRole('group', { name: `Condition ${n}` }));

    // Act
    add();
    fireEvent.input(item(1).getByLabelText('Event property'), { target: { value: 'plan' } });
    fireEvent.change(item(1).getByLabelText('Test'), { target: { value: 'in' } });
    fireEvent.input(item(1).getByLabelText('Values'), { target: { value: 'pro\nteam\n' } });
    add();
    fireEvent.change(item(2).getByLabelText('Reads'), { target: { value: 'contact' } });
    fireEvent.change(item(2).getByLabelText('Contact field'), { target: { value: 'health_score' } });
    fireEvent.change(item(2).getByLabelText('Test'), { target: { value: 'lt' } });
    fireEvent.change(item(2).getByLabelText('Compared with'), { target: { value: 'number' } });
    fireEvent.input(item(2).getByLabelText('Value'), { target: { value: '40' } });
    add();
    fireEvent.change(item(3).getByLabelText('Reads'), { target: { value: 'custom_field' } });
    fireEvent.input(item(3).getByLabelText('Custom field name'), { target: { value: 'beta' } });
    fireEvent.change(item(3).getByLabelText('Compared with'), { target: { value: 'boolean' } });
    add();
    fireEvent.change(item(4).getByLabelText('Reads'), { target: { value: 'tag' } });
    fireEvent.input(item(4).getByLabelText('Tag'), { target: { value: 'vip' } });
    fireEvent.change(item(4).getByLabelText('Test'), { target: { value: 'has_not' } });
    add();
    fireEvent.change(item(5).getByLabelText('Reads'), { target: { value: 'topic' } });
    fireEvent.change(item(5).getByLabelText('Topic'), { target: { value: '4' } });
    add();
    fireEvent.change(item(6).getByLabelText('Test'), { target: { value: 'exists' } });
    fireEvent.click(item(6).getByRole('button', { name: 'Remove condition 6' }));

    // Assert
    expect(panel.last().trigger.conditions).toEqual([
      { on: 'event', path: 'plan', op: 'in', value: ['pro', 'team'] },
      { on: 'contact', field: 'health_score', op: 'lt', value: 40 },
      { on: 'custom_field', name: 'beta', op: 'eq', value: true },
      { on: 'tag', op: 'has_not', tag: 'vip' },
      { on: 'topic', topic_id: 4, op: 'subscribed' },
    ]);
    const tagOps = [...(item(4).getByLabelText('Test') as HTMLSelectElement).options].map((o) => o.value);
    expect(tagOps).toEqual(['has', 'has_not']);
  });

  it('turns a contact condition’s value to the kind of the field chosen (a count a number, a flag yes or no)', () => {
    // Prepare
    const start = definition();
    start.trigger.conditions = [{ on: 'contact', field: 'first_name', op: 'eq', value: '' }];
    const panel = open({ kind: 'trigger' }, { start });

    // Act
    choose('Contact field', 'total_emails_opened');
    const counted = panel.last().trigger.conditions;
    choose('Contact field', 'is_subscribed');

    // Assert
    expect(counted).toEqual([{ on: 'contact', field: 'total_emails_opened', op: 'eq', value: 0 }]);
    expect(panel.last().trigger.conditions).toEqual([{ on: 'contact', field: 'is_subscribed', op: 'eq', value: true }]);
    expect((screen.getByLabelText('Compared with') as HTMLSelectElement).value).toBe('boolean');
  });

  it('edits a split: percentages with their sum, a new arm, its next', () => {
    // Prepare
    const panel = open({ kind: 'step', id: 'split_it' });

    // Act
    typeIn('Percent of arm 1', '30');
    const hint = screen.getByText(/add up to 100: now/);
    expect(hint.textContent).toContain('now 80 % (must be 100)');
    fireEvent.click(screen.getByRole('button', { name: 'Add an arm' }));
    typeIn('Name of arm 3', 'Control');
    choose('Then, for arm 3', '');

    // Assert
    expect(panel.stepOf('split_it')).toEqual({
      id: 'split_it',
      type: 'split',
      arms: [
        { name: 'A', percent: 30, next: 'tag_it' },
        { name: 'B', percent: 50, next: 'done' },
        { name: 'Control', percent: 20, next: null },
      ],
    });
    expect(hint.textContent).toContain('now 100 %.');
    fireEvent.click(screen.getByRole('button', { name: 'Remove arm 3' }));
    expect(panel.stepOf('split_it')).toMatchObject({ arms: [{ name: 'A' }, { name: 'B' }] });
  });

  it('edits a split’s automatic winner: metric, sends per arm, hours; unticked, it goes', () => {
    // Prepare
    const panel = open({ kind: 'step', id: 'split_it' });

    // Act
    fireEvent.click(screen.getByLabelText('Choose a winner automatically'));
    choose('The best rate of', 'human_clicks');
    typeIn('E-mails sent per arm first', '250');
    typeIn('Hours at least (optional)', '48');

    // Assert
    expect(panel.stepOf('split_it')).toMatchObject({
      winner: { metric: 'human_clicks', min_sends_per_arm: 250, min_hours: 48 },
    });
    typeIn('Hours at least (optional)', '');
    expect(panel.stepOf('split_it')).toMatchObject({ winner: { metric: 'human_clicks', min_sends_per_arm: 250 } });
    expect((panel.stepOf('split_it') as { winner: object }).winner).not.toHaveProperty('min_hours');
    fireEvent.click(screen.getByLabelText('Choose a winner automatically'));
    expect(panel.stepOf('split_it')).not.toHaveProperty('winner');
    cleanup();

    // The winner's fields show the API's issues at them.
    const start = definition();
    start.steps[3] = { ...(start.steps[3] as SplitStep), winner: { metric: 'conversions', min_sends_per_arm: 0 } };
    const issues: JourneyIssue[] = [
      { path: 'steps.3.winner.metric', condition: 'graph', error: 'Conversions need settings.exit_events' },
      { path: 'steps.3.winner.min_sends_per_arm', condition: 'min', error: 'Must be at least 1' },
      { path: 'steps.3.arms.1.next', condition: 'graph', error: 'Must lead to a send step' },
    ];
    open({ kind: 'step', id: 'split_it' }, { start, issues });
    expect(screen.getByLabelText('The best rate of').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('E-mails sent per arm first').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Then, for arm 2').getAttribute('aria-invalid')).toBe('true');
    expect(document.querySelector('#jy-panel-issues ul')).toBeNull();
  });

  it('edits an update_contact: fields set or cleared, custom fields, tags', () => {
    // Prepare
    const panel = open({ kind: 'step', id: 'tag_it' });

    // Act
    choose('First name', 'set');
    typeIn('New first name', 'Ada');
    choose('Company', 'clear');
    fireEvent.click(screen.getByRole('button', { name: 'Add a custom field' }));
    typeIn('Name of custom field 1', 'cart_value');
    choose('Set custom field 1 to', 'number');
    typeIn('Value of custom field 1', '42.5');
    typeIn('Tags to add', 'cart\nreminded');
    typeIn('Tags to remove', 'fresh');

    // Assert
    expect(panel.stepOf('tag_it')).toEqual({
      id: 'tag_it',
      type: 'update_contact',
      set: { first_name: 'Ada', company: null },
      set_custom: { cart_value: 42.5 },
      add_tags: ['cart', 'reminded'],
      remove_tags: ['fresh'],
      next: 'done',
    });
  });

  it('shows an exit step with nothing to set and no way on to add after', () => {
    open({ kind: 'step', id: 'done' });
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Step “done”: Exit the journey');
    expect(screen.getByText(/The run ends here/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add a step after' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Delete step done' })).toBeTruthy();
  });

  it('edits the trigger: event, key, re-entry, first step', () => {
    // Prepare
    const panel = open({ kind: 'trigger' });

    // Act
    typeIn('Event type', 'order_placed');
    typeIn('Key (optional)', '');
    choose('A contact enters', 'every_days');
    typeIn('Days before entering again', '14');
    choose('First step', 'remind');

    // Assert
    expect(panel.last().trigger).toEqual({ event: 'order_placed', reentry: { mode: 'every_days', days: 14 } });
    expect(panel.last().entry).toBe('remind');
  });

  it('edits the settings: category, topic, critical, exit events, conversion window', () => {
    // Prepare
    const panel = open({ kind: 'settings' });

    // Act
    choose('Topic', '3');
    typeIn('Exit events', 'checkout_completed\n*');
    typeIn('Conversion window (days)', '30');
    const marketing = panel.last().settings;
    choose('Category', 'transactional');
    fireEvent.click(screen.getByLabelText(/Critical/));

    // Assert
    expect(marketing).toEqual({
      category: 'marketing',
      topic_id: 3,
      critical: false,
      exit_events: ['checkout_completed', '*'],
      conversion_window_days: 30,
    });
    expect(panel.last().settings).toEqual({
      category: 'transactional',
      topic_id: null,
      critical: true,
      exit_events: ['checkout_completed', '*'],
      conversion_window_days: 30,
    });
    expect(screen.queryByLabelText('Topic')).toBeNull();
  });

  it('shows each API issue of the step at its field, the others of the step at the top, none of other steps', () => {
    // Prepare
    const issues: JourneyIssue[] = [
      { path: 'steps.0.timeout_minutes', condition: 'max', error: 'Must be at most 129600 minutes (90 days)' },
      { path: 'steps.0.on_timeout', condition: 'reference', error: 'Must name a step of this definition' },
      { path: 'steps.0', condition: 'graph', error: 'Not reachable from entry' },
      { path: 'steps.1.template_id', condition: 'reference', error: 'No such template' },
    ];

    // Act
    open({ kind: 'step', id: 'wait_checkout' }, { issues });

    // Assert
    const timeout = screen.getByLabelText('Wait at most');
    expect(timeout.getAttribute('aria-invalid')).toBe('true');
    const described = timeout.getAttribute('aria-describedby')?.split(' ') ?? [];
    expect(document.getElementById(described[0] ?? '')?.textContent).toBe('Must be at most 129600 minutes (90 days)');
    const onTimeout = screen.getByLabelText('On timeout');
    expect(onTimeout.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Event type awaited').hasAttribute('aria-invalid')).toBe(false);
    const top = document.getElementById('jy-panel-issues') as HTMLElement;
    expect(top.textContent).toContain('3 issues here: 2 shown at their fields, this one has none:');
    expect(top.textContent).toContain('Not reachable from entry');
    expect(top.textContent).not.toContain('Must be at most');
    expect(document.body.textContent).not.toContain('No such template');
  });

  it('shows an issue deep in a list at the field holding it (a condition’s value, a weekday, a case’s conditions)', () => {
    // Prepare
    const start = definition();
    start.steps[0] = {
      ...(start.steps[0] as WaitForEventStep),
      conditions: [{ on: 'event', path: 'amount', op: 'gt', value: 'x' }],
    };
    const onWait = [{ path: 'steps.0.conditions.0.value', condition: 'format', error: 'Must be a number' }] as const;

    // Act / Assert
    open({ kind: 'step', id: 'wait_checkout' }, { start, issues: [...onWait] });
    expect(screen.getByLabelText('Value').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Must be a number').id).toBe('jy-panel-steps-0-conditions-0-value-error');
    cleanup();

    const days = [{ path: 'steps.5.weekdays.1', condition: 'format', error: 'Must not repeat a weekday' }] as const;
    open({ kind: 'step', id: 'morning' }, { issues: [...days] });
    const group = screen.getByRole('group', { name: 'On these days' });
    expect(group.getAttribute('aria-invalid')).toBe('true');
    expect(within(group).getByText('Must not repeat a weekday')).toBeTruthy();
    cleanup();

    const empty = [
      { path: 'steps.2.branches.0.conditions', condition: 'min', error: 'Must list at least 1 condition' },
    ];
    open({ kind: 'step', id: 'check' }, { issues: empty as JourneyIssue[] });
    const conditions = screen.getByRole('group', { name: 'Conditions of case 1' });
    expect(conditions.getAttribute('aria-invalid')).toBe('true');
  });

  it('shows an issue at each path a field is listed for, once, and none of them at the top', () => {
    // Prepare: every kind, with what makes their optional fields show (an hour, every_days, conditions of each kind).
    const start = definition();
    start.trigger = {
      ...start.trigger,
      reentry: { mode: 'every_days', days: 3 },
      conditions: [
        { on: 'event', path: 'plan', op: 'in', value: ['pro'] },
        { on: 'tag', op: 'has', tag: 'vip' },
        { on: 'topic', topic_id: 3, op: 'subscribed' },
      ],
      or_when: [{ on: 'event', path: 'upgrade', op: 'eq', value: true }],
    };
    start.steps[1] = {
      id: 'remind',
      type: 'send',
      template_id: 1,
      send_time: { mode: 1, preferred_hour: 9 },
      next: null,
    };
    start.steps[6] = {
      id: 'tag_it',
      type: 'update_contact',
      set: { first_name: 'Ada', company: null },
      set_custom: { plan: 'pro', gone: null },
      next: 'done',
    };
    const selections = [
      { kind: 'trigger' },
      { kind: 'settings' },
      ...start.steps.map((step) => ({ kind: 'step', id: step.id })),
    ] as Selection[];
    for (const selection of selections) {
      const paths = fieldPathsOf(selection, start);
      const issues = paths.map((path) => ({ path, condition: 'format', error: `Wrong at ${path}.` }) as JourneyIssue);

      // Act
      open(selection, { start, issues });

      // Assert
      const shown = [...document.querySelectorAll('.field-error')].map((error) => error.textContent);
      expect(shown.sort(), JSON.stringify(selection)).toEqual(issues.map((issue) => issue.error).sort());
      expect(document.querySelector('#jy-panel-issues ul')).toBeNull();
      cleanup();
    }
  });

  it('places issues by the deepest field holding them (unit)', () => {
    const issues: JourneyIssue[] = [
      { path: 'trigger.reentry.days', condition: 'min', error: 'a' },
      { path: 'entry', condition: 'reference', error: 'b' },
      { path: 'trigger.conditions.0.path', condition: 'format', error: 'c' },
      { path: 'settings.topic_id', condition: 'read_only', error: 'd' },
    ];
    const start = definition();
    start.trigger.conditions = [{ on: 'event', path: '', op: 'exists' }];
    start.trigger.reentry = { mode: 'every_days', days: 0 };
    const placed = placeIssues(issues, { kind: 'trigger' }, start);
    expect(placed.atFields.map((item) => item.key)).toEqual([
      'trigger.reentry.days',
      'entry',
      'trigger.conditions.0.path',
    ]);
    expect(placed.atTop).toEqual([]);
    expect(issuesSummary(1, 0)).toBe('One issue here, shown at its field.');
    expect(issuesSummary(1, 1)).toBe('One issue here:');
    expect(issuesSummary(3, 2)).toBe('3 issues here: 1 shown at its field, these have none:');
  });

  it('adds a step after an edge of the kind chosen and selects it', () => {
    // Prepare
    const panel = open({ kind: 'step', id: 'wait_checkout' });

    // Act
    choose('On the way', 'on_timeout');
    choose('Kind of the new step', 'wait');
    fireEvent.click(screen.getByRole('button', { name: 'Add a step after' }));

    // Assert
    expect(panel.selections).toEqual([{ kind: 'step', id: 'wait_1' }]);
    expect(panel.stepOf('wait_checkout')).toMatchObject({ on_timeout: 'wait_1' });
    expect(panel.stepOf('wait_1')).toEqual({ id: 'wait_1', type: 'wait', minutes: 1440, next: 'remind' });
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Step “wait_1”: Wait');
  });

  it('adds a step before the first from the trigger', () => {
    const panel = open({ kind: 'trigger' });
    choose('Kind of the new step', 'send');
    fireEvent.click(screen.getByRole('button', { name: 'Add a step first' }));
    expect(panel.last().entry).toBe('send_1');
    expect(panel.stepOf('send_1')).toMatchObject({ template_id: 1, next: 'wait_checkout' });
  });

  it('deletes a step after a confirmation: the edges into it follow its next, and the panel closes', () => {
    // Prepare
    const panel = open({ kind: 'step', id: 'pause_a_day' });

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Delete step pause_a_day' }));
    expect(panel.changes).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Yes, delete step' }));

    // Assert
    expect(panel.last().steps.map((step) => step.id)).not.toContain('pause_a_day');
    expect(panel.stepOf('check')).toMatchObject({ otherwise: 'morning' });
    expect(panel.onClose).toHaveBeenCalledOnce();
  });

  it('renames a step when its id is committed, every reference following; refuses another step’s id', () => {
    // Prepare
    const panel = open({ kind: 'step', id: 'remind' });
    const id = screen.getByLabelText('Id');

    // Act: another step's id
    fireEvent.input(id, { target: { value: 'check' } });
    fireEvent.change(id, { target: { value: 'check' } });

    // Assert
    expect(panel.changes).toEqual([]);
    expect(id.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Another step has this id.')).toBeTruthy();

    // Act: a free id
    fireEvent.input(id, { target: { value: 'reminder' } });
    fireEvent.change(id, { target: { value: 'reminder' } });

    // Assert
    expect(panel.selections).toEqual([{ kind: 'step', id: 'reminder' }]);
    expect(panel.stepOf('wait_checkout')).toMatchObject({ on_timeout: 'reminder' });
    expect(panel.stepOf('check')).toMatchObject({
      branches: [{ conditions: [{ on: 'engagement', send_step: 'reminder', op: 'human_opened' }] }],
    });
  });

  it('read-only: the same fields, disabled, and no way to change, add or delete', () => {
    for (const selection of [
      { kind: 'trigger' },
      { kind: 'settings' },
      ...definition().steps.map((step) => ({ kind: 'step', id: step.id })),
    ] as Selection[]) {
      // Act
      const panel = open(selection, { readOnly: true });

      // Assert
      const controls = [...document.querySelectorAll('input, select, textarea')] as HTMLInputElement[];
      expect(controls.length, JSON.stringify(selection)).toBeGreaterThan(0);
      expect(controls.filter((control) => !control.disabled).map((c) => c.id)).toEqual([]);
      const buttons = screen.getAllByRole('button').map((button) => button.textContent);
      expect(buttons).toEqual(['Close']);
      expect(panel.changes).toEqual([]);
      cleanup();
    }
  });

  it('shows a note instead of a form the draft’s JSON does not fit, and the form again once it does', () => {
    // Prepare: a send step typed without its send_time, a trigger without its re-entry rule.
    const start = definition();
    start.steps[1] = { id: 'remind', type: 'send', template_id: 1, next: 'check' } as never;
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const panel = open({ kind: 'step', id: 'remind' }, { start });

    // Assert
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Step “remind”: Send an e-mail');
    expect(screen.getByText(/does not have the shape this form reads/)).toBeTruthy();
    expect(screen.queryByLabelText('Template')).toBeNull();
    fireEvent.keyDown(screen.getByRole('button', { name: 'Close' }), { key: 'Escape' });
    expect(panel.onClose).toHaveBeenCalledOnce();

    // Act: the JSON mended
    act(() => panel.outside.set?.(definition()));

    // Assert
    expect((screen.getByLabelText('Template') as HTMLSelectElement).value).toBe('1');
    expect(screen.queryByText(/does not have the shape/)).toBeNull();
  });

  it('closes on Escape and on Close', () => {
    const panel = open({ kind: 'step', id: 'remind' });
    fireEvent.keyDown(screen.getByLabelText('Template'), { key: 'Escape' });
    expect(panel.onClose).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(panel.onClose).toHaveBeenCalledTimes(2);
  });

  it('labels every control', () => {
    for (const selection of [
      { kind: 'trigger' },
      { kind: 'settings' },
      ...definition().steps.map((step) => ({ kind: 'step', id: step.id })),
    ] as Selection[]) {
      open(selection);
      const controls = [...document.querySelectorAll('input, select, textarea')] as HTMLInputElement[];
      const unlabelled = controls.filter((control) => !document.querySelector(`label[for="${control.id}"]`));
      expect(unlabelled.map((control) => control.outerHTML)).toEqual([]);
      const ids = controls.map((control) => control.id);
      expect(new Set(ids).size).toBe(ids.length);
      cleanup();
    }
  });
});
