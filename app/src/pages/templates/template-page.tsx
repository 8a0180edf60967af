import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Api } from '../../api/client.js';
import type { components, operations } from '../../api/openapi.js';
import { Link } from '../../components/link.js';
import { navigate } from '../../router.js';
import { can } from '../../session.js';
import { answerOf, type Failure, failureOfError, fieldErrorOf } from '../../data/answer.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { FieldError, invalidProps } from '../../ui/field-error.js';
import { When } from '../../ui/when.js';
import type { PageProps } from '../../page.js';
import { PreviewPanel, type TemplateParts, usePreview } from './template-preview.js';
import { TEMPLATE_KINDS } from './templates-page.js';

type Template = components['schemas']['EmailTemplate'];
type Workflow = components['schemas']['Workflow'];
type Patch = NonNullable<operations['emailTemplatesUpdate']['requestBody']>['content']['application/json'];

/** The editor's fields, in order: PATCH's keys (its 422 items name them). */
const FIELDS = [
  { key: 'name', label: 'Name', hint: 'For you only: contacts never see it.', rows: 0 },
  { key: 'subject', label: 'Subject', hint: 'One line.', rows: 0 },
  { key: 'preview_text', label: 'Preview text', hint: 'The line inboxes show after the subject.', rows: 0 },
  { key: 'html_body', label: 'HTML', hint: 'The e-mail as most people see it.', rows: 16 },
  { key: 'text_body', label: 'Text', hint: 'For mail apps that show no HTML.', rows: 6 },
] as const;
type FieldKey = (typeof FIELDS)[number]['key'];
type Draft = Record<FieldKey, string>;
const FIELD_KEYS: readonly string[] = FIELDS.map((field) => field.key);

const draftOf = (template: Template): Draft => ({
  name: template.name,
  subject: template.subject,
  preview_text: template.preview_text,
  html_body: template.html_body,
  text_body: template.text_body,
});

/** What the save sends: the fields changed since the load (or the last save). */
export function templatePatchOf(draft: Draft, saved: Draft): Patch {
  return Object.fromEntries(
    FIELDS.filter((field) => draft[field.key] !== saved[field.key]).map((field) => [field.key, draft[field.key]]),
  ) as Patch;
}

/**
 * A template (`/app/template/N`): the editor (subject, preview text, HTML, text) beside a live preview from
 * render-preview, with the variables it used; the API's errors at their field; Save. A system template is read-only:
 * it is copied (the workflow's clone-template) and the copy edited. Roles without `content` read only.
 */
export function TemplatePage({ api, params, signedIn }: PageProps) {
  const id = params['id'] ?? '';
  const [template, setTemplate] = useState<Template | undefined>();
  const [workflows, setWorkflows] = useState<Workflow[]>([]);
  const [failure, setFailure] = useState<Failure | undefined>();

  useEffect(() => {
    let current = true;
    setTemplate(undefined);
    setFailure(
      /^\d+$/.test(id) ? undefined : { message: 'No template named: open one from the list of templates.', errors: [] },
    );
    if (!/^\d+$/.test(id)) return;
    answerOf(api.GET('/api/v1/client/email-templates/{id}', { params: { path: { id } } }), 'Reading the template').then(
      (answer) => current && setTemplate(answer.data),
      (error: unknown) => current && setFailure(failureOfError(error)),
    );
    // Which workflows send it, and which one a system template belongs to (to copy it): a hint, the page works without.
    api.GET('/api/v1/client/workflows').then(
      ({ data }) => current && data && setWorkflows(data.data.workflows),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api, id]);

  if (!template) {
    return (
      <section aria-labelledby="tp-template-title">
        <h1 id="tp-template-title">Template</h1>
        <FailureAlert failure={failure} />
        {!failure && <p aria-busy="true">Loading…</p>}
        <p>
          <Link page="templates">All templates</Link>
        </p>
      </section>
    );
  }
  const editable = template.type === 2 && can(signedIn, 'content');
  return (
    <Editor
      key={template.id}
      api={api}
      template={template}
      workflows={workflows}
      editable={editable}
      mayCopy={can(signedIn, 'content')}
      onSaved={setTemplate}
    />
  );
}

function Editor(props: {
  api: Api;
  template: Template;
  workflows: Workflow[];
  editable: boolean;
  mayCopy: boolean;
  onSaved: (template: Template) => void;
}) {
  const { api, template, workflows, editable, mayCopy, onSaved } = props;
  const saved = draftOf(template);
  const [draft, setDraft] = useState<Draft>(saved);
  const [contactId, setContactId] = useState('');
  const [failure, setFailure] = useState<Failure | undefined>();
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState('');
  const parts: TemplateParts | undefined = editable
    ? {
        subject: draft.subject,
        preview_text: draft.preview_text,
        html_body: draft.html_body,
        text_body: draft.text_body,
      }
    : undefined;
  const preview = usePreview(api, template.id, parts, contactId);
  const changed = Object.keys(templatePatchOf(draft, saved)).length > 0;

  async function onSave(event: Event) {
    event.preventDefault();
    const body = templatePatchOf(draft, saved);
    setDone('');
    setFailure(undefined);
    if (Object.keys(body).length === 0) {
      setDone('Nothing changed.');
      return;
    }
    setSaving(true);
    try {
      const answer = await answerOf(
        api.PATCH('/api/v1/client/email-templates/{id}', { params: { path: { id: String(template.id) } }, body }),
        'Saving the template',
      );
      onSaved(answer.data);
      setDraft(draftOf(answer.data));
      setDone('Template saved.');
    } catch (error) {
      setFailure(failureOfError(error));
    } finally {
      setSaving(false);
    }
  }

  /** A field's error: the save's (`subject`), else the preview's (`draft.subject`), which says the same before saving. */
  const errorOf = (key: string) => fieldErrorOf(failure, key) ?? fieldErrorOf(preview.failure, `draft.${key}`);
  const usedBy = workflows.filter((workflow) => workflow.template?.id === template.id);
  const home = workflows.find(
    (workflow) => workflow.defaults.template_id === template.id || workflow.clone_template_id === template.id,
  );
  return (
    <section aria-labelledby="tp-template-title">
      <div class="page-head">
        <h1 id="tp-template-title" class="ct-break">
          {template.name}
        </h1>
        <Link page="templates">All templates</Link>
      </div>
      <p class="hint">
        {TEMPLATE_KINDS[template.type]} template #{template.id}
        {template.source_template && (
          <>
            {' '}
            · a copy of “{template.source_template.name}” (#{template.source_template.id})
          </>
        )}{' '}
        · updated <When at={template.updated_at} />
        {' · '}
        {usedBy.length > 0 ? (
          <>
            sent by{' '}
            {usedBy.map((workflow, at) => (
              <Fragment key={workflow.id}>
                {at > 0 && ', '}
                <Link page="workflow" params={{ id: String(workflow.id) }}>
                  {workflow.name}
                </Link>
              </Fragment>
            ))}
          </>
        ) : (
          'no workflow sends it now'
        )}
      </p>
      {template.type === 1 && <SystemNote api={api} home={home} mayCopy={mayCopy} />}
      {template.type === 2 && usedBy.length === 0 && home && editable && (
        <p class="hint">
          To send this copy, choose it as the template on the{' '}
          <Link page="workflow" params={{ id: String(home.id) }}>
            {home.name} workflow’s page
          </Link>
          .
        </p>
      )}
      {template.type === 2 && !editable && (
        <p class="hint">Your role reads templates; a member, admin or owner edits them.</p>
      )}
      <div class="tp-layout">
        {editable ? (
          <form class="tp-editor" noValidate onSubmit={onSave} aria-label="Edit the template">
            {FIELDS.map((field) => (
              <TemplateField
                key={field.key}
                field={field}
                value={draft[field.key]}
                error={errorOf(field.key)}
                onInput={(value) => setDraft({ ...draft, [field.key]: value })}
              />
            ))}
            <PreviewContact
              value={contactId}
              error={fieldErrorOf(preview.failure, 'contact_id')}
              onInput={setContactId}
            />
            <FailureAlert failure={failure} shownAt={FIELD_KEYS} />
            <div class="st-actions">
              <button type="submit" disabled={saving}>
                {saving ? 'Saving…' : 'Save template'}
              </button>
              {changed && !saving && (
                <span class="hint">Unsaved changes: the preview shows them, contacts do not get them yet.</span>
              )}
              <p role="status" class="st-done">
                {done}
              </p>
            </div>
          </form>
        ) : (
          <div class="tp-editor">
            <Source template={template} />
            <PreviewContact
              value={contactId}
              error={fieldErrorOf(preview.failure, 'contact_id')}
              onInput={setContactId}
            />
          </div>
        )}
        <PreviewPanel
          rendered={preview.rendered}
          failure={preview.failure}
          pending={preview.pending}
          framed={preview.framed}
          name={draft.name}
        />
      </div>
    </section>
  );
}

function TemplateField(props: {
  field: (typeof FIELDS)[number];
  value: string;
  error: string | undefined;
  onInput: (value: string) => void;
}) {
  const { field, value, error, onInput } = props;
  const id = `tp-${field.key}`;
  const described = [error ? `${id}-error` : '', `${id}-hint`].filter(Boolean).join(' ');
  const common = {
    id,
    name: field.key,
    value,
    spellcheck: field.key !== 'html_body',
    'aria-describedby': described,
    ...(error ? { 'aria-invalid': true as const } : {}),
  };
  return (
    <div class="st-field">
      <label for={id}>{field.label}</label>
      {field.rows > 0 ? (
        <textarea
          {...common}
          rows={field.rows}
          class={field.key === 'html_body' ? 'tp-code' : undefined}
          onInput={(event) => onInput(event.currentTarget.value)}
        />
      ) : (
        <input {...common} type="text" autocomplete="off" onInput={(event) => onInput(event.currentTarget.value)} />
      )}
      <FieldError id={`${id}-error`} message={error} />
      <p id={`${id}-hint`} class="hint">
        {field.hint}
      </p>
    </div>
  );
}

/** Renders the preview with one of the client's contacts instead of the defaults (render-preview's `contact_id`). */
function PreviewContact(props: { value: string; error: string | undefined; onInput: (value: string) => void }) {
  const { value, error, onInput } = props;
  return (
    <div class="st-field">
      <label for="tp-contact">Preview with contact (id)</label>
      <input
        id="tp-contact"
        type="text"
        inputMode="numeric"
        autocomplete="off"
        value={value}
        onInput={(event) => onInput(event.currentTarget.value)}
        aria-describedby={error ? 'tp-contact-error tp-contact-hint' : 'tp-contact-hint'}
        {...(error ? { 'aria-invalid': true as const } : {})}
      />
      <FieldError id="tp-contact-error" message={error} />
      <p id="tp-contact-hint" class="hint">
        Empty: no contact, so <code>contact.*</code> is empty and the defaults show.
      </p>
    </div>
  );
}

/** A template's source, read-only (a system template, or a role that does not edit). */
function Source({ template }: { template: Template }) {
  return (
    <section class="card" aria-labelledby="tp-source-title">
      <h2 id="tp-source-title">Source</h2>
      <dl class="figures ct-fields">
        <dt>Subject</dt>
        <dd>
          <code>{template.subject}</code>
        </dd>
        <dt>Preview text</dt>
        <dd>{template.preview_text ? <code>{template.preview_text}</code> : '—'}</dd>
      </dl>
      <details>
        <summary>HTML</summary>
        <pre class="tp-source">
          <code>{template.html_body}</code>
        </pre>
      </details>
      <details>
        <summary>Text</summary>
        <pre class="tp-source">
          <code>{template.text_body || '(empty)'}</code>
        </pre>
      </details>
    </section>
  );
}

/** A system template is read-only: its workflow's clone-template makes the client's copy, which the editor then opens. */
function SystemNote({ api, home, mayCopy }: { api: Api; home: Workflow | undefined; mayCopy: boolean }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | undefined>();

  async function onCopy() {
    if (!home) return;
    setBusy(true);
    setFailure(undefined);
    try {
      const answer = await answerOf(
        api.POST('/api/v1/client/workflows/{workflow_id}/clone-template', {
          params: { path: { workflow_id: String(home.id) } },
        }),
        'Copying the template',
      );
      navigate('template', { id: String(answer.data.id) });
    } catch (error) {
      setFailure(failureOfError(error));
      setBusy(false);
    }
  }

  return (
    <div class="card tp-system">
      <p>
        A system template: the service’s own, read-only.
        {home &&
          mayCopy &&
          ` Copy it to edit it; the ${home.name} workflow sends the copy once you choose it on the workflow’s page.`}
        {home?.clone_template_id && (
          <>
            {' '}
            You have a copy:{' '}
            <Link page="template" params={{ id: String(home.clone_template_id) }}>
              template #{home.clone_template_id}
            </Link>
            .
          </>
        )}
      </p>
      {home && mayCopy && !home.clone_template_id && (
        <button type="button" onClick={() => void onCopy()} disabled={busy}>
          {busy ? 'Copying…' : 'Copy to edit'}
        </button>
      )}
      <FailureAlert failure={failure} />
    </div>
  );
}
