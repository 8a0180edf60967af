import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Api, createApi } from '../src/api/client.js';
import { TemplatePage } from '../src/pages/templates/template-page.js';
import { PREVIEW_DELAY_MS, variablesOf } from '../src/pages/templates/template-preview.js';
import { TemplatesPage } from '../src/pages/templates/templates-page.js';
import { location, route } from '../src/router.js';
import type { SignedIn } from '../src/session.js';
import { as } from './contacts-fixtures.js';
import { failure, fakeApi, type FakeCall, ok } from './fake-api.js';
import { workflowOf } from './workflows-fixtures.js';

const AT = '2026-11-26T09:00:00.000Z';
const templateOf = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  user_id: id < 1000 ? 0 : 1,
  name: id < 1000 ? 'Welcome' : 'Welcome (copy)',
  subject: 'Welcome, <%= it.contact.first_name ?? "there" %>',
  preview_text: 'Start here',
  html_body: '<h1>Hello <%= it.contact.first_name ?? "there" %></h1>',
  text_body: 'Hello',
  type: id < 1000 ? 1 : 2,
  source_template: id < 1000 ? null : { id: 1, name: 'Welcome', subject: 'Welcome', updated_at: AT },
  source_template_id: id < 1000 ? null : 1,
  created_at: AT,
  updated_at: AT,
  deleted_at: { time: null, valid: false },
  ...overrides,
});
const SYSTEM = templateOf(1);
const COPY = templateOf(1001);
/** The welcome workflow, whose system template is #1. */
const WORKFLOW = workflowOf();
const meta = (total: number, page = 1) => ({
  page,
  per_page: 25,
  total,
  total_pages: Math.max(1, Math.ceil(total / 25)),
});

/** render-preview as the API answers: the draft's subject and HTML (else the stored ones), `it.contact.first_name` as "there". */
const rendered = (call: FakeCall, stored = COPY) => {
  const draft = ((call.body as { draft?: Record<string, string> } | undefined)?.draft ?? {}) as Record<string, string>;
  const fill = (source: string) => source.replace(/<%=[^%]*%>/g, 'there');
  return ok({
    template_id: stored.id,
    template_type: stored.type,
    contact_id: null,
    include_default_vars: true,
    resolved_vars: { contact: { first_name: null, email: '' }, client: { brand_name: 'Demo Co' } },
    subject: fill(draft['subject'] ?? stored.subject),
    preview_text: fill(draft['preview_text'] ?? stored.preview_text),
    html_body: fill(draft['html_body'] ?? stored.html_body),
    text_body: fill(draft['text_body'] ?? stored.text_body),
  });
};

function at(page: string, search: string) {
  window.history.replaceState(null, '', `/app/${page}${search}`);
  location.value = { pathname: `/app/${page}`, search };
}

function Routed({ api, signedIn }: { api: Api; signedIn: SignedIn }) {
  const { page, params } = route.value;
  return page === 'templates' ? (
    <TemplatesPage api={api} params={params} signedIn={signedIn} />
  ) : (
    <TemplatePage api={api} params={params} signedIn={signedIn} />
  );
}

const previews = (calls: FakeCall[]) => calls.filter((call) => call.path.endsWith('/render-preview'));
/** What the preview's form posted to its frame, each time (jsdom loads no frame: the submission is recorded). */
interface FramePost {
  action: string;
  method: string;
  target: string;
  fields: Record<string, string>;
}
let framePosts: FramePost[] = [];
/** The HTML the frame was last asked to render (the draft's source; the server renders it). */
const frameHtml = () => framePosts.at(-1)?.fields['html_body'];

beforeEach(() => {
  at('templates', '');
  framePosts = [];
  document.cookie = 'els_csrf=csrf-token-of-the-session';
  vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
    const fields = Object.fromEntries([...new FormData(this).entries()].map(([name, value]) => [name, String(value)]));
    framePosts.push({ action: this.getAttribute('action') ?? '', method: this.method, target: this.target, fields });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the templates list', () => {
  it("asks with the address's search, links each template, and keeps a new search in the address", async () => {
    // Prepare
    const calls = fakeApi({ 'POST /api/v1/client/email-templates/list': ok({ templates: [SYSTEM, COPY] }, meta(2)) });
    at('templates', '?type=2');
    render(<Routed api={createApi()} signedIn={as('viewer')} />);
    const table = await screen.findByRole('table');

    // Assess
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('WelcomeWelcome, <%= it.contact.first_name ?? "there" %>System'),
      expect.stringContaining('Welcome (copy)copy of Welcome'),
    ]);
    expect(within(rows[1]!).getByRole('link', { name: 'Welcome (copy)' }).getAttribute('href')).toBe(
      '/app/template/1001',
    );
    expect((screen.getByLabelText('Kind') as HTMLSelectElement).value).toBe('2');

    // Act
    fireEvent.input(screen.getByLabelText('Name or subject contains'), { target: { value: ' welcome ' } });
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));

    // Assess
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(window.location.search).toBe('?q=+welcome+');
    expect(calls.map((call) => call.body)).toEqual([
      { per_page: 25, type: 2 },
      { per_page: 25, q: 'welcome' },
    ]);
  });

  it("shows the API's error about the search at its field", async () => {
    // Prepare
    fakeApi({
      'POST /api/v1/client/email-templates/list': failure(422, 'Invalid request', [
        { condition: 'max', error: 'Must be at most 200 characters', key: 'q' },
      ]),
    });
    at('templates', `?q=${'x'.repeat(201)}`);
    render(<Routed api={createApi()} signedIn={as('owner')} />);

    // Assess
    const field = screen.getByLabelText('Name or subject contains');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(field.getAttribute('aria-describedby')!)!.textContent).toBe(
      'Must be at most 200 characters',
    );
    expect(screen.getByRole('alert').textContent).toBe('Invalid request');
  });
});

describe('the template editor', () => {
  it('previews the draft once typing pauses (debounced), in the sandboxed frame, with the variables listed', async () => {
    // Prepare
    const calls = fakeApi({
      'GET /api/v1/client/email-templates/1001': ok(COPY),
      'GET /api/v1/client/workflows': ok({ workflows: [WORKFLOW] }, { total: 1, enabled: 1, max_workflows: 8 }),
      'POST /api/v1/client/email-templates/1001/render-preview': (call) => rendered(call),
    });
    at('template', '?id=1001');
    render(<Routed api={createApi()} signedIn={as('member')} />);
    await waitFor(() => expect(frameHtml()).toBe(COPY.html_body));
    expect(previews(calls)).toHaveLength(1);
    // The frame is the server's document: the draft posted to the render route by a form targeting the frame, with
    // the session's CSRF token as a field; the frame has no sandbox token and no srcdoc
    expect(framePosts).toEqual([
      {
        action: '/api/v1/client/email-templates/1001/html',
        method: 'post',
        target: 'tp-preview-frame',
        fields: { csrf_token: 'csrf-token-of-the-session', html_body: COPY.html_body },
      },
    ]);
    const frame = document.querySelector('iframe')!;
    expect(frame.getAttribute('name')).toBe('tp-preview-frame');
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.hasAttribute('srcdoc')).toBe(false);
    expect(frame.hasAttribute('src')).toBe(false);
    const variables = screen.getByRole('table', { name: 'Variables and their values in this preview' });
    expect(
      within(variables)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.textContent),
    ).toEqual(['it.contact.first_name(empty)', 'it.contact.email(empty)', 'it.client.brand_nameDemo Co']);

    // Act: three keystrokes in quick succession
    const html = screen.getByLabelText('HTML');
    for (const value of ['<h1>B', '<h1>By', '<h1>Bye <%= it.contact.first_name %></h1>'])
      fireEvent.input(html, { target: { value } });

    // Assess: nothing asked while typing; one question with the last draft once it paused
    expect(previews(calls)).toHaveLength(1);
    await waitFor(() => expect(frameHtml()).toBe('<h1>Bye <%= it.contact.first_name %></h1>'));
    await new Promise((resolve) => setTimeout(resolve, PREVIEW_DELAY_MS + 100));
    expect(previews(calls)).toHaveLength(2);
    expect(framePosts).toHaveLength(2);
    expect(previews(calls)[1]!.body).toEqual({
      draft: {
        subject: COPY.subject,
        preview_text: COPY.preview_text,
        html_body: '<h1>Bye <%= it.contact.first_name %></h1>',
        text_body: COPY.text_body,
      },
    });
    expect(screen.getByText('Unsaved changes: the preview shows them, contacts do not get them yet.')).toBeDefined();
  });

  it("shows the preview's refusal of a draft at its field, and the save's 422 at the field it names", async () => {
    // Prepare
    const unsafe = 'Template tag <% process.exit() %> is refused: code is not allowed';
    const calls = fakeApi({
      'GET /api/v1/client/email-templates/1001': ok(COPY),
      'GET /api/v1/client/workflows': ok({ workflows: [] }, { total: 0, enabled: 0, max_workflows: 8 }),
      'POST /api/v1/client/email-templates/1001/render-preview': (call) =>
        (call.body as { draft: { html_body: string } }).draft.html_body.includes('<% ')
          ? failure(422, 'Invalid request', [{ condition: 'unsafe', error: unsafe, key: 'draft.html_body' }])
          : rendered(call),
      'PATCH /api/v1/client/email-templates/1001': failure(422, 'Invalid request', [
        { condition: 'required', error: 'subject must not be empty', key: 'subject' },
      ]),
    });
    at('template', '?id=1001');
    render(<Routed api={createApi()} signedIn={as('owner')} />);
    await waitFor(() => expect(frameHtml()).toBe(COPY.html_body));

    // Act: an unsafe tag in the HTML
    const html = screen.getByLabelText('HTML');
    fireEvent.input(html, { target: { value: '<p><% process.exit() %></p>' } });

    // Assess: at the HTML field, the last good preview kept
    await waitFor(() => expect(html.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById('tp-html_body-error')!.textContent).toBe(unsafe);
    expect(html.getAttribute('aria-describedby')).toBe('tp-html_body-error tp-html_body-hint');
    // A refused draft is never posted to the frame: it keeps the last good preview
    expect(framePosts.map((post) => post.fields['html_body'])).toEqual([COPY.html_body]);

    // Act: fixed, then the subject emptied and saved
    fireEvent.input(html, { target: { value: '<p>Fine</p>' } });
    await waitFor(() => expect(html.getAttribute('aria-invalid')).toBeNull());
    await waitFor(() => expect(frameHtml()).toBe('<p>Fine</p>'));
    const subject = screen.getByLabelText('Subject');
    fireEvent.input(subject, { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save template' }));

    // Assess: only the changed fields sent; the error at the subject
    await waitFor(() => expect(subject.getAttribute('aria-invalid')).toBe('true'));
    expect(calls.find((call) => call.method === 'PATCH')!.body).toEqual({ subject: ' ', html_body: '<p>Fine</p>' });
    expect(document.getElementById('tp-subject-error')!.textContent).toBe('subject must not be empty');
  });

  it('saves the changed fields and says so', async () => {
    // Prepare
    const calls = fakeApi({
      'GET /api/v1/client/email-templates/1001': ok(COPY),
      'GET /api/v1/client/workflows': ok(
        { workflows: [{ ...WORKFLOW, clone_template_id: 1001 }] },
        { total: 1, enabled: 1, max_workflows: 8 },
      ),
      'POST /api/v1/client/email-templates/1001/render-preview': (call) => rendered(call),
      'PATCH /api/v1/client/email-templates/1001': (call) => ok({ ...COPY, ...(call.body as object) }),
    });
    at('template', '?id=1001');
    render(<Routed api={createApi()} signedIn={as('member')} />);
    await screen.findByRole('link', { name: 'Welcome workflow’s page' });

    // Act
    fireEvent.input(screen.getByLabelText('Subject'), { target: { value: 'Hi there' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save template' }));

    // Assess
    await screen.findByText('Template saved.');
    expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([{ subject: 'Hi there' }]);
    expect((screen.getByLabelText('Subject') as HTMLInputElement).value).toBe('Hi there');
  });

  it('shows a viewer the source and the preview, and no control that edits', async () => {
    // Prepare
    const calls = fakeApi({
      'GET /api/v1/client/email-templates/1001': ok(COPY),
      'GET /api/v1/client/workflows': ok({ workflows: [WORKFLOW] }, { total: 1, enabled: 1, max_workflows: 8 }),
      'POST /api/v1/client/email-templates/1001/render-preview': (call) => rendered(call),
    });
    at('template', '?id=1001');
    render(<Routed api={createApi()} signedIn={as('viewer')} />);
    // The stored template: no draft field in the frame's form
    await waitFor(() => expect(framePosts).toHaveLength(1));
    expect(framePosts[0]!.fields).toEqual({ csrf_token: 'csrf-token-of-the-session' });

    // Assess
    expect(screen.queryByRole('button', { name: 'Save template' })).toBeNull();
    expect(screen.queryByLabelText('Subject')).toBeNull();
    expect(screen.queryByLabelText('HTML')).toBeNull();
    expect(screen.queryByRole('button', { name: /Copy/ })).toBeNull();
    expect(screen.getByText('Your role reads templates; a member, admin or owner edits them.')).toBeDefined();
    expect(previews(calls)[0]!.body).toEqual({});
  });

  it('copies a system template through its workflow and opens the copy', async () => {
    // Prepare
    let copied = false;
    const calls = fakeApi({
      'GET /api/v1/client/email-templates/1': ok(SYSTEM),
      'GET /api/v1/client/email-templates/1001': ok(COPY),
      'GET /api/v1/client/workflows': () =>
        ok(
          { workflows: [{ ...WORKFLOW, clone_template_id: copied ? 1001 : null }] },
          { total: 1, enabled: 1, max_workflows: 8 },
        ),
      'POST /api/v1/client/email-templates/1/render-preview': (call) => rendered(call, SYSTEM),
      'POST /api/v1/client/email-templates/1001/render-preview': (call) => rendered(call),
      'POST /api/v1/client/workflows/1/clone-template': () => {
        copied = true;
        return {
          status: 201,
          body: {
            data: { ...COPY, template_id: 1001, workflow_id: 1 },
            errors: [],
            message: 'Template cloned',
            meta: { request_id: 'r' },
            success: true,
          },
        };
      },
    });
    at('template', '?id=1');
    render(<Routed api={createApi()} signedIn={as('member')} />);

    // Act
    fireEvent.click(await screen.findByRole('button', { name: 'Copy to edit' }));

    // Assess
    await waitFor(() => expect(`${window.location.pathname}${window.location.search}`).toBe('/app/template/1001'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome (copy)' })).toBeDefined();
    expect(screen.getByLabelText('Subject')).toBeDefined();
    expect(calls.filter((call) => call.method === 'POST' && call.path.endsWith('/clone-template'))).toHaveLength(1);
  });
});

describe('variablesOf', () => {
  it('lists nested variables by their dotted path', () => {
    expect(
      variablesOf({ contact: { first_name: 'Ada', tags: ['a'] }, links: { unsubscribe_url: 'https://x/u' }, n: 3 }),
    ).toEqual([
      { path: 'contact.first_name', value: 'Ada' },
      { path: 'contact.tags', value: '["a"]' },
      { path: 'links.unsubscribe_url', value: 'https://x/u' },
      { path: 'n', value: '3' },
    ]);
  });
});
