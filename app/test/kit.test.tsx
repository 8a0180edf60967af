import { act, cleanup, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/preact';
import { useMemo, useState } from 'preact/hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiFailure } from '../src/data/answer.js';
import { useAction } from '../src/data/use-action.js';
import { bindOf, useDraft } from '../src/data/use-draft.js';
import { useLoad } from '../src/data/use-load.js';
import { NOTHING_CHANGED, patchOf, usePatch } from '../src/data/use-patch.js';
import { ConfirmButton } from '../src/ui/confirm-button.js';
import { COPY_REFUSED, CopyButton } from '../src/ui/copy-button.js';
import { DataTable } from '../src/ui/data-table.js';
import { FailureAlert } from '../src/ui/failure-alert.js';
import { FieldGroup } from '../src/ui/field-group.js';
import { FormActions } from '../src/ui/form-actions.js';
import { Field } from '../src/ui/field.js';
import { Form } from '../src/ui/form.js';
import { CheckField, Options, SelectField, TextField } from '../src/ui/inputs.js';
import { PageHead } from '../src/ui/page-head.js';
import { SecretOnce } from '../src/ui/secret-once.js';
import { ActionStatus, Done, LoadStatus } from '../src/ui/status.js';
import { When } from '../src/ui/when.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A promise the test settles when it wants. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

const REFUSED = new ApiFailure(
  'The request has invalid fields',
  [
    { condition: 'max', error: 'must be at most 100 characters', key: 'label' },
    { condition: 'required', error: 'is required', key: 'owner' },
    { condition: 'unique', error: 'already exists', key: 'name' },
  ],
  422,
);

describe('useLoad', () => {
  it('reads, gives each read a signal, and aborts the older read when the inputs change: a late answer is dropped', async () => {
    const reads: { id: number; signal: AbortSignal; answer: ReturnType<typeof deferred<string>> }[] = [];
    const { result, rerender } = renderHook(
      ({ id }: { id: number }) =>
        useLoad(
          (signal) => {
            const answer = deferred<string>();
            reads.push({ id, signal, answer });
            return answer.promise;
          },
          [id],
        ),
      { initialProps: { id: 1 } },
    );
    expect(result.current.loading).toBe(true);
    rerender({ id: 2 });
    expect(reads.map((read) => [read.id, read.signal.aborted])).toEqual([
      [1, true],
      [2, false],
    ]);
    await act(async () => reads[1]?.answer.resolve('two'));
    await act(async () => reads[0]?.answer.resolve('one'));
    expect(result.current).toMatchObject({ data: 'two', loading: false, failure: undefined });
  });

  it("reload keeps the data while it reads again; a failure is the page's Failure; leaving aborts", async () => {
    let answer: Promise<string> = Promise.resolve('first');
    const signals: AbortSignal[] = [];
    const { result, unmount } = renderHook(() =>
      useLoad((signal) => {
        signals.push(signal);
        return answer;
      }, []),
    );
    await waitFor(() => expect(result.current.data).toBe('first'));
    const late = deferred<string>();
    answer = late.promise;
    act(() => result.current.reload());
    expect(result.current).toMatchObject({ data: 'first', loading: true });
    await act(async () => late.reject(REFUSED));
    expect(result.current.failure).toEqual({
      message: 'The request has invalid fields',
      errors: REFUSED.errors,
      status: 422,
    });
    expect(result.current.data).toBe('first');
    act(() => result.current.update((data) => `${data}!`));
    expect(result.current.data).toBe('first!');
    act(() => unmount());
    expect(signals.at(-1)?.aborted).toBe(true);
  });
});

describe('useAction', () => {
  it('is busy while it runs, says its words when it succeeds and holds the failure when it does not', async () => {
    const step = deferred<void>();
    let fail = false;
    const { result } = renderHook(() =>
      useAction(async (name: string) => {
        await step.promise;
        if (fail) throw REFUSED;
        return `Saved ${name}.`;
      }),
    );
    let ran: Promise<boolean> | undefined;
    act(() => {
      ran = result.current.run('x');
    });
    expect(result.current.busy).toBe(true);
    await act(async () => {
      step.resolve();
      expect(await ran).toBe(true);
    });
    expect(result.current).toMatchObject({ busy: false, done: 'Saved x.', failure: undefined });
    fail = true;
    let second = false;
    await act(async () => {
      second = await result.current.run('y');
    });
    expect(second).toBe(false);
    expect(result.current).toMatchObject({
      busy: false,
      done: '',
      failure: { message: 'The request has invalid fields' },
    });
    act(() => result.current.reset());
    expect(result.current.failure).toBeUndefined();
  });
});

describe('patchOf and usePatch', () => {
  const encoders = { limit: (raw: string) => (raw.trim() === '' ? null : Number(raw.trim())) };

  it('sends only the fields whose encoded value changed', () => {
    expect(patchOf({ name: 'a', limit: ' 5 ', tags: ['x'] }, { name: 'a', limit: '5', tags: ['x'] }, encoders)).toEqual(
      {},
    );
    expect(
      patchOf({ name: 'b', limit: '', tags: ['x', 'y'] }, { name: 'a', limit: '5', tags: ['x'] }, encoders),
    ).toEqual({ name: 'b', limit: null, tags: ['x', 'y'] });
    const withHour = (body: Record<string, unknown>, draft: { hour: string; minute: string }) =>
      'minute' in body ? { hour: draft.hour, ...body } : body;
    expect(patchOf({ hour: '9', minute: '15' }, { hour: '9', minute: '0' }, {}, withHour)).toEqual({
      hour: '9',
      minute: '15',
    });
  });

  it('says "Nothing changed." and sends nothing when the draft is what is saved; sends the difference otherwise', async () => {
    const sent: Record<string, unknown>[] = [];
    const saved = { name: 'a', limit: '5' };
    const { result } = renderHook(() =>
      usePatch({
        saved,
        encoders,
        send: async (body) => {
          sent.push(body);
          return 'Saved.';
        },
      }),
    );
    await act(async () => {
      await result.current.run();
    });
    expect(result.current.done).toBe(NOTHING_CHANGED);
    expect(sent).toEqual([]);
    act(() => result.current.set('limit', '7'));
    expect(result.current.changed).toBe(true);
    await act(async () => {
      await result.current.run();
    });
    expect(sent).toEqual([{ limit: 7 }]);
    expect(result.current.done).toBe('Saved.');
  });

  it('starts the draft again from a new saved record in the same render: no frame shows the old draft, no edit is lost', async () => {
    function Editor({ load }: { load: Promise<string> }) {
      const loaded = useLoad(() => load, []);
      const saved = useMemo(() => ({ name: loaded.data ?? '' }), [loaded.data]);
      const patch = usePatch({ saved, send: async () => 'Saved.' });
      if (loaded.data === undefined) return <p>Loading…</p>;
      return (
        <input
          aria-label="Name"
          value={patch.draft.name}
          onInput={(event) => patch.set('name', event.currentTarget.value)}
        />
      );
    }
    const answer = deferred<string>();
    render(<Editor load={answer.promise} />);

    answer.resolve('stored');
    const name = (await screen.findByLabelText('Name')) as HTMLInputElement;

    expect(name.value).toBe('stored');
    fireEvent.input(name, { target: { value: 'typed' } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(name.value).toBe('typed');
  });
});

describe('useDraft and bindOf', () => {
  it("bind(key) gives a field its name, the draft's value and an onValue that changes only that key", () => {
    const { result } = renderHook(() => useDraft({ email: '', role: 'member', page: 2 }));
    const email = result.current.bind('email');
    expect(email.name).toBe('email');
    expect(email.value).toBe('');

    act(() => email.onValue('ada@example.com'));

    expect(result.current.draft).toEqual({ email: 'ada@example.com', role: 'member', page: 2 });
    expect(result.current.bind('email').value).toBe('ada@example.com');
    act(() => result.current.bind('role').onValue('admin'));
    expect(result.current.draft).toEqual({ email: 'ada@example.com', role: 'admin', page: 2 });
  });

  it("binds a TextField and a SelectField: typing and choosing change the draft, the field shows its key's error", () => {
    function Invite() {
      const { draft, bind } = useDraft({ email: '', role: '1' });
      return (
        <Form
          onSubmit={() => undefined}
          failure={{
            message: 'Invalid request',
            errors: [{ condition: 'email', error: 'not an e-mail', key: 'email' }],
          }}
        >
          <TextField id="invite-email" label="E-mail" type="email" {...bind('email')} />
          <SelectField id="invite-role" label="Role" {...bind('role')}>
            <option value="1">Member</option>
            <option value="2">Admin</option>
          </SelectField>
          <p>
            {draft.email}/{draft.role}
          </p>
        </Form>
      );
    }
    render(<Invite />);
    const email = screen.getByLabelText('E-mail') as HTMLInputElement;

    fireEvent.input(email, { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText('Role'), { target: { value: '2' } });

    expect(screen.getByText('ada@example.com/2')).toBeTruthy();
    expect(email.name).toBe('email');
    expect(email.value).toBe('ada@example.com');
    expect(document.getElementById(email.getAttribute('aria-describedby')!)?.textContent).toBe('not an e-mail');
  });

  it('bindOf(draft, onChange) hands the part that keeps the draft a copy with the key changed, the rest kept', () => {
    const changes: { name: string; description: string }[] = [];
    const draft = { name: 'news', description: 'Monthly' };
    const bind = bindOf(draft, (next) => changes.push(next));

    bind('description').onValue('Weekly');

    expect(bind('name')).toMatchObject({ name: 'name', value: 'news' });
    expect(changes).toEqual([{ name: 'news', description: 'Weekly' }]);
    expect(draft.description).toBe('Monthly');
  });
});

describe('Form, Field and FailureAlert', () => {
  function Probe({ failure }: { failure: ApiFailure | undefined }) {
    const [submitted, setSubmitted] = useState(0);
    const shown = failure && { message: failure.message, errors: failure.errors };
    return (
      <Form onSubmit={() => setSubmitted((n) => n + 1)} failure={shown} aria-label="Probe">
        <Field id="label" label="Label" name="label" hint="What it is for.">
          {(control) => <input {...control} type="text" />}
        </Field>
        <Field id="agree" label="Agree" check>
          {(control) => <input {...control} type="checkbox" />}
        </Field>
        <FailureAlert />
        <p>submitted {submitted}</p>
        <button type="submit">Go</button>
      </Form>
    );
  }

  it('labels the control, describes it by its hint, and by its error first (aria-invalid) once the API names it', () => {
    const { rerender } = render(<Probe failure={undefined} />);
    const input = screen.getByLabelText('Label');
    expect(input.getAttribute('aria-describedby')).toBe('label-hint');
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(screen.getByLabelText('Agree').getAttribute('aria-describedby')).toBeNull();
    rerender(<Probe failure={REFUSED} />);
    expect(input.getAttribute('aria-describedby')).toBe('label-error label-hint');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById('label-error')?.textContent).toBe('must be at most 100 characters');
  });

  it('the alert shows the message and only the items no field showed', () => {
    render(<Probe failure={REFUSED} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('The request has invalid fields');
    expect(alert.textContent).toContain('owner is required');
    expect(alert.textContent).toContain('already exists');
    expect(alert.textContent).not.toContain('at most 100');
  });

  it('submits without a page reload', () => {
    render(<Probe failure={undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(screen.getByText('submitted 1')).toBeTruthy();
  });

  it('outside a form the alert shows every item but those in shownAt', () => {
    render(<FailureAlert failure={{ message: 'No', errors: REFUSED.errors }} shownAt={['owner']} />);
    const text = screen.getByRole('alert').textContent ?? '';
    expect(text).toContain('at most 100');
    expect(text).not.toContain('is required');
  });
});

describe('TextField and CheckField', () => {
  function Probe({ failure }: { failure: ApiFailure | undefined }) {
    const [name, setName] = useState('');
    const [on, setOn] = useState(false);
    const [which, setWhich] = useState('a');
    const shown = failure && { message: failure.message, errors: failure.errors };
    return (
      <Form onSubmit={() => undefined} failure={shown}>
        <TextField
          id="label"
          label="Label"
          name="label"
          hint="What it is for."
          value={name}
          onValue={setName}
          maxLength={100}
        />
        <CheckField id="agree" label="Agree" name="owner" checked={on} onChecked={setOn} />
        <CheckField
          id="pick-a"
          label="A"
          type="radio"
          group="pick"
          checked={which === 'a'}
          onChecked={() => setWhich('a')}
        />
        <CheckField
          id="pick-b"
          label="B"
          type="radio"
          group="pick"
          checked={which === 'b'}
          onChecked={() => setWhich('b')}
        />
        <p>
          {name}/{String(on)}/{which}
        </p>
        <FailureAlert />
      </Form>
    );
  }

  it('bind their value, and are Fields: labelled, described by hint and error, their keys kept out of the alert', () => {
    const { rerender } = render(<Probe failure={undefined} />);
    const input = screen.getByLabelText('Label') as HTMLInputElement;

    fireEvent.input(input, { target: { value: 'Production' } });
    fireEvent.click(screen.getByLabelText('Agree'));
    fireEvent.click(screen.getByLabelText('B'));
    rerender(<Probe failure={REFUSED} />);

    expect(screen.getByText('Production/true/b')).toBeTruthy();
    expect(input.maxLength).toBe(100);
    expect(input.getAttribute('aria-describedby')).toBe('label-error label-hint');
    const agree = screen.getByLabelText('Agree');
    expect(agree.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(agree.getAttribute('aria-describedby')!)?.textContent).toBe('is required');
    expect((screen.getByLabelText('A') as HTMLInputElement).name).toBe('pick');
    const alert = screen.getByRole('alert').textContent ?? '';
    expect(alert).not.toContain('at most 100');
    expect(alert).not.toContain('is required');
    expect(alert).toContain('already exists');
  });

  it('a SelectField binds its choice and shows its error under it', () => {
    function Pick() {
      const [kind, setKind] = useState('');
      return (
        <Form
          onSubmit={() => undefined}
          failure={{ message: 'Invalid request', errors: [{ condition: 'enum', error: 'not a kind', key: 'type' }] }}
        >
          <SelectField id="kind" label="Kind" name="type" value={kind} onValue={setKind}>
            <option value="">Any</option>
            <option value="2">Yours</option>
          </SelectField>
          <p>chosen {kind}</p>
          <FailureAlert />
        </Form>
      );
    }
    render(<Pick />);
    const select = screen.getByLabelText('Kind') as HTMLSelectElement;

    fireEvent.change(select, { target: { value: '2' } });

    expect(screen.getByText('chosen 2')).toBeTruthy();
    expect(select.value).toBe('2');
    expect(select.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(select.getAttribute('aria-describedby')!)?.textContent).toBe('not a kind');
    expect(screen.getByRole('alert').textContent).toBe('Invalid request');
  });

  it('asks a phone for the keyboard a TextField names, and is a search box when it is one', () => {
    render(<TextField id="delay" label="Delay" value="" onValue={() => undefined} inputMode="numeric" />);
    render(<TextField id="q" label="Contains" value="" onValue={() => undefined} type="search" />);

    expect(screen.getByLabelText('Delay').getAttribute('inputmode')).toBe('numeric');
    expect(screen.getByRole('searchbox', { name: 'Contains' })).toBeTruthy();
  });

  it("a TextField's input is named as its field, takes no autofill unless told, and can be required", () => {
    render(<TextField id="note" label="Note" name="note" value="" onValue={() => undefined} />);
    render(
      <TextField
        id="sign-in-email"
        label="Your e-mail"
        name="email"
        type="email"
        autocomplete="email"
        required
        value=""
        onValue={() => undefined}
      />,
    );
    const note = screen.getByLabelText('Note') as HTMLInputElement;
    const email = screen.getByLabelText('Your e-mail') as HTMLInputElement;

    expect([note.name, note.getAttribute('autocomplete'), note.required]).toEqual(['note', 'off', false]);
    expect([email.name, email.getAttribute('autocomplete'), email.required]).toEqual(['email', 'email', true]);
  });

  it('Options draws one option per item, with its value and text, in order', () => {
    const roles = [
      { role: 1, name: 'Member' },
      { role: 2, name: 'Admin' },
    ];
    render(
      <SelectField id="role" label="Role" value="2" onValue={() => undefined}>
        <option value="">Any</option>
        <Options of={roles} value={(choice) => choice.role} text={(choice) => choice.name} />
      </SelectField>,
    );
    const select = screen.getByLabelText('Role') as HTMLSelectElement;

    expect([...select.options].map((option) => [option.value, option.textContent])).toEqual([
      ['', 'Any'],
      ['1', 'Member'],
      ['2', 'Admin'],
    ]);
    expect(select.value).toBe('2');
  });
});

describe('FormActions', () => {
  it('submits, says it is busy and cannot submit again meanwhile, cancels when it can, and shows what follows', () => {
    let cancelled = 0;
    const { rerender } = render(
      <FormActions submit="Save" busy={false} busyLabel="Saving…" onCancel={() => (cancelled += 1)}>
        <Done text="Saved." />
      </FormActions>,
    );
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).type).toBe('submit');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(cancelled).toBe(1);
    expect(screen.getByRole('status').textContent).toBe('Saved.');

    rerender(<FormActions submit="Save" busy busyLabel="Saving…" />);

    expect((screen.getByRole('button', { name: 'Saving…' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
  });
});

describe('FieldGroup', () => {
  it('is a card fieldset named by its legend, its fields inside', () => {
    render(
      <FieldGroup legend="Timing">
        <TextField id="delay" label="Delay" value="" onValue={() => undefined} />
      </FieldGroup>,
    );
    const group = screen.getByRole('group', { name: 'Timing' });

    expect(group.tagName).toBe('FIELDSET');
    expect(group.className).toBe('card field-group');
    expect(group.firstElementChild?.tagName).toBe('LEGEND');
    expect(group.contains(screen.getByLabelText('Delay'))).toBe(true);
  });
});

describe('DataTable, PageHead, When', () => {
  it('draws a named, focusable region with a captioned table, column heads and row headers', () => {
    render(
      <>
        <PageHead id="things-title" title="Things">
          <button type="button">New</button>
        </PageHead>
        <DataTable
          id="things"
          label="Things table"
          caption="Every thing"
          rows={[{ id: 1, name: 'One', at: '2026-11-26T09:30:05.123Z' }]}
          rowKey={(row) => row.id}
          columns={[
            { head: 'Name', rowHeader: true, cell: (row) => row.name },
            { head: 'At', cell: (row) => <When at={row.at} /> },
          ]}
        />
      </>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Things' }).id).toBe('things-title');
    const region = screen.getByRole('region', { name: 'Things table' });
    expect(region.tabIndex).toBe(0);
    expect(screen.getByRole('table', { name: 'Every thing' }).id).toBe('things');
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Name', 'At']);
    expect(screen.getByRole('rowheader').textContent).toBe('One');
    expect(screen.getByText('2026-11-26 09:30:05 UTC').getAttribute('datetime')).toBe('2026-11-26T09:30:05.123Z');
  });

  it('shows `empty` instead of the table when there is no row, and the table once there is one', () => {
    const columns = [{ head: 'Name', rowHeader: true, cell: (row: { id: number; name: string }) => row.name }];
    const { rerender } = render(
      <DataTable label="Things table" rows={[]} columns={columns} empty={<p>No thing yet.</p>} />,
    );
    expect(screen.getByText('No thing yet.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();

    rerender(
      <DataTable label="Things table" rows={[{ id: 1, name: 'One' }]} columns={columns} empty={<p>No thing yet.</p>} />,
    );

    expect(screen.queryByText('No thing yet.')).toBeNull();
    expect(screen.getByRole('rowheader').textContent).toBe('One');
  });

  it('keys a row by its id without a rowKey: a row that moves keeps its element', () => {
    type Thing = { id: number; name: string };
    const columns = [{ head: 'Name', rowHeader: true, cell: (row: Thing) => row.name }];
    const one = { id: 1, name: 'Same name' };
    const two = { id: 2, name: 'Same name' };
    const { rerender } = render(<DataTable label="Things table" rows={[one, two]} columns={columns} />);
    const [firstRow] = screen.getAllByRole('row').slice(1);
    firstRow?.setAttribute('data-was', 'one');

    rerender(<DataTable label="Things table" rows={[two, one]} columns={columns} />);

    expect(
      screen
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.getAttribute('data-was')),
    ).toEqual([null, 'one']);
  });
});

describe('ConfirmButton and SecretOnce', () => {
  it('asks before it acts, and Cancel does nothing', async () => {
    let done = 0;
    render(
      <ConfirmButton
        label="Delete"
        name="Delete key A"
        confirm="Delete key A for good?"
        danger
        onConfirm={() => done++}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete key A' }));
    expect(screen.getByRole('group', { name: 'Delete key A for good?' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(done).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Delete key A' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, delete' }));
    await waitFor(() => expect(done).toBe(1));
  });

  it('shows the secret once with its warning, and hides it when told', () => {
    let hidden = false;
    render(<SecretOnce id="new-key" title="New key" value="els_secret" onDone={() => (hidden = true)} />);
    const value = screen.getByLabelText('The value') as HTMLInputElement;
    expect(value.value).toBe('els_secret');
    expect(value.readOnly).toBe(true);
    expect(document.querySelector('#new-key-title + .secret-warning')?.id).toBe(value.getAttribute('aria-describedby'));
    fireEvent.click(screen.getByRole('button', { name: 'I stored it, hide it' }));
    expect(hidden).toBe(true);
  });
});

describe('CopyButton', () => {
  /** A clipboard that takes what is written, or refuses like a browser on an insecure origin. */
  function clipboardThat(refuses: boolean) {
    const writes: string[] = [];
    vi.stubGlobal('navigator', {
      ...navigator,
      clipboard: {
        writeText: async (text: string) => {
          if (refuses) throw new DOMException('Write permission denied.', 'NotAllowedError');
          writes.push(text);
        },
      },
    });
    return writes;
  }

  it('copies the value, named for its row, and says so politely', async () => {
    const writes = clipboardThat(false);
    render(
      <>
        <code id="rec-1-value">v=spf1 include:amazonses.com ~all</code>
        <CopyButton value="v=spf1 include:amazonses.com ~all" target="rec-1-value" name="Copy the SPF value" small />
      </>,
    );
    const button = screen.getByRole('button', { name: 'Copy the SPF value' });
    expect(button.textContent).toBe('Copy');
    expect(button.className).toBe('small');
    expect(screen.getByRole('status').textContent).toBe('');
    fireEvent.click(button);
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Copied.'));
    expect(writes).toEqual(['v=spf1 include:amazonses.com ~all']);
  });

  it("without a clipboard selects the shown value for the keyboard: an input's value, another element's text", async () => {
    clipboardThat(true);
    render(
      <>
        <input id="secret-value" readOnly value="els_secret" />
        <CopyButton value="els_secret" target="secret-value" name="Copy the secret" />
        <code id="rec-2-value">abc.dkim.amazonses.com</code>
        <CopyButton value="abc.dkim.amazonses.com" target="rec-2-value" name="Copy the DKIM value" />
      </>,
    );
    const input = document.getElementById('secret-value') as HTMLInputElement;
    fireEvent.click(screen.getByRole('button', { name: 'Copy the secret' }));
    await waitFor(() => expect(screen.getAllByRole('status')[0]?.textContent).toBe(COPY_REFUSED));
    expect([input.selectionStart, input.selectionEnd]).toEqual([0, 'els_secret'.length]);
    fireEvent.click(screen.getByRole('button', { name: 'Copy the DKIM value' }));
    await waitFor(() => expect(screen.getAllByRole('status')[1]?.textContent).toBe(COPY_REFUSED));
    expect(window.getSelection()?.toString()).toBe('abc.dkim.amazonses.com');
  });
});

describe('Done and LoadStatus', () => {
  it('says "Loading…" until the data comes, the failure when the load fails, nothing once loaded', () => {
    const { rerender } = render(<LoadStatus loaded={{ data: undefined, failure: undefined, loading: true }} />);
    expect(screen.getByText('Loading…').getAttribute('aria-busy')).toBe('true');
    rerender(
      <LoadStatus
        loaded={{ data: undefined, failure: { message: 'No', errors: REFUSED.errors }, loading: false }}
        shownAt={['label']}
      />,
    );
    const alert = screen.getByRole('alert').textContent ?? '';
    expect(alert).toContain('is required');
    expect(alert).not.toContain('at most 100');
    rerender(<LoadStatus loaded={{ data: [], failure: undefined, loading: false }} />);
    expect(screen.queryByText('Loading…')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('announces the words of success politely', () => {
    render(<Done text="Saved." />);
    expect(screen.getByRole('status').textContent).toBe('Saved.');
  });

  it("ActionStatus shows an action's failure but the items a field shows, and its words once it succeeds", () => {
    const { rerender } = render(
      <ActionStatus
        action={{ failure: { message: 'Not changed', errors: REFUSED.errors }, done: '' }}
        shownAt={['owner']}
      />,
    );
    const alert = screen.getByRole('alert').textContent ?? '';
    expect(alert).toContain('Not changed');
    expect(alert).toContain('at most 100');
    expect(alert).not.toContain('is required');
    expect(screen.getByRole('status').textContent).toBe('');

    rerender(<ActionStatus action={{ failure: undefined, done: 'Unsubscribed.' }} />);

    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Unsubscribed.');
  });
});
