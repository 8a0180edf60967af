import { Fragment } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import type { Api } from '../../api/client.js';
import type { components, operations } from '../../api/openapi.js';
import { Link } from '../../components/link.js';
import { answerOf, type Failure } from '../../data/answer.js';
import { useLoad } from '../../data/use-load.js';
import { usePatch } from '../../data/use-patch.js';
import type { PageProps } from '../../page.js';
import { can } from '../../session.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { Field } from '../../ui/field.js';
import { Form } from '../../ui/form.js';
import { FormActions } from '../../ui/form-actions.js';
import { TextField } from '../../ui/inputs.js';
import { PageHead } from '../../ui/page-head.js';
import { Done, LoadStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';
import { useCopyTemplate } from './copy-template.js';
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

const draftOf = (template: Template): Draft => ({
  name: template.name,
  subject: template.subject,
  preview_text: template.preview_text,
  html_body: template.html_body,
  text_body: template.text_body,
});

/**
 * A template (`/app/template/N`): the editor (subject, preview text, HTML, text) beside a live preview from
 * render-preview, with the variables it used; the API's errors at their field; Save. A system template is read-only:
 * it is copied (the workflow's clone-template) and the copy edited. Roles without `content` read only.
 */
export function TemplatePage({ api, params, signedIn }: PageProps) {
  const id = params['id'] ?? '';
  const template = useLoad(
    async (signal) => {
      if (!/^\d+$/.test(id)) throw new Error('No template named: open one from the list of templates.');
      const answer = await answerOf(
        api.GET('/api/v1/client/email-templates/{id}', { params: { path: { id } }, signal }),
        'Reading the template',
      );
      return answer.data;
    },
    [api, id],
  );
  // Which workflows send it, and which one a system template belongs to (to copy it): a hint, the page works without.
  const workflows = useLoad(
    async (signal) => (await api.GET('/api/v1/client/workflows', { signal })).data?.data.workflows ?? [],
    [api, id],
  );

  if (!template.data) {
    return (
      <section aria-labelledby="tp-template-title">
        <PageHead id="tp-template-title" title="Template" />
        <LoadStatus loaded={template} />
        <p>
          <Link page="templates">All templates</Link>
        </p>
      </section>
    );
  }
  const editable = template.data.type === 2 && can(signedIn, 'content');
  return (
    <Editor
      key={template.data.id}
      api={api}
      template={template.data}
      workflows={workflows.data ?? []}
      editable={editable}
      mayCopy={can(signedIn, 'content')}
      onSaved={(saved) => template.update(() => saved)}
    />
  );
}

/** A field's error: the save's (`subject`), else the preview's (`draft.subject`), which says the same before saving. */
function fieldFailureOf(save: Failure | undefined, preview: Failure | undefined): Failure | undefined {
  if (!save && !preview) return undefined;
  const saved = save?.errors ?? [];
  const previewed = (preview?.errors ?? []).flatMap((item) => {
    const key = item.key?.startsWith('draft.') ? item.key.slice('draft.'.length) : undefined;
    return key && !saved.some((said) => said.key === key) ? [{ ...item, key }] : [];
  });
  return { message: save?.message ?? preview?.message ?? '', errors: [...saved, ...previewed] };
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
  const saved = useMemo(() => draftOf(template), [template]);
  const patch = usePatch({
    saved,
    send: async (body) => {
      const answer = await answerOf(
        api.PATCH('/api/v1/client/email-templates/{id}', {
          params: { path: { id: String(template.id) } },
          body: body as Patch,
        }),
        'Saving the template',
      );
      onSaved(answer.data);
      return 'Template saved.';
    },
  });
  const { draft } = patch;
  const [contactId, setContactId] = useState('');
  const parts: TemplateParts | undefined = editable
    ? {
        subject: draft.subject,
        preview_text: draft.preview_text,
        html_body: draft.html_body,
        text_body: draft.text_body,
      }
    : undefined;
  const preview = usePreview(api, template.id, parts, contactId);
  const fieldFailure = fieldFailureOf(patch.failure, preview.failure);

  const usedBy = workflows.filter((workflow) => workflow.template?.id === template.id);
  const home = workflows.find(
    (workflow) => workflow.defaults.template_id === template.id || workflow.clone_template_id === template.id,
  );
  return (
    <section aria-labelledby="tp-template-title">
      <PageHead id="tp-template-title" title={<span class="wrap-anywhere">{template.name}</span>}>
        <Link page="templates">All templates</Link>
      </PageHead>
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
      <div class="editor-layout">
        {editable ? (
          <Form class="editor" noValidate onSubmit={patch.run} failure={patch.failure} aria-label="Edit the template">
            {FIELDS.map((field) => (
              <TemplateField
                key={field.key}
                field={field}
                value={draft[field.key]}
                failure={fieldFailure}
                onInput={(value) => patch.set(field.key, value)}
              />
            ))}
            <PreviewContact value={contactId} failure={preview.failure} onInput={setContactId} />
            <FailureAlert />
            <FormActions submit="Save template" busy={patch.busy} busyLabel="Saving…">
              {patch.changed && !patch.busy && (
                <span class="hint">Unsaved changes: the preview shows them, contacts do not get them yet.</span>
              )}
              <Done text={patch.done} />
            </FormActions>
          </Form>
        ) : (
          <div class="editor">
            <Source template={template} />
            <PreviewContact value={contactId} failure={preview.failure} onInput={setContactId} />
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
  failure: Failure | undefined;
  onInput: (value: string) => void;
}) {
  const { field, value, failure, onInput } = props;
  const labels = { id: `tp-${field.key}`, label: field.label, name: field.key, hint: field.hint, failure };
  if (field.rows === 0) return <TextField {...labels} value={value} onValue={onInput} spellcheck />;
  return (
    <Field {...labels}>
      {(control) => (
        <textarea
          {...control}
          value={value}
          spellcheck={field.key !== 'html_body'}
          rows={field.rows}
          class={field.key === 'html_body' ? 'code-input' : undefined}
          onInput={(event) => onInput(event.currentTarget.value)}
        />
      )}
    </Field>
  );
}

/** Renders the preview with one of the client's contacts instead of the defaults (render-preview's `contact_id`). */
function PreviewContact(props: { value: string; failure: Failure | undefined; onInput: (value: string) => void }) {
  return (
    <TextField
      id="tp-contact"
      label="Preview with contact (id)"
      name="contact_id"
      failure={props.failure}
      hint={
        <>
          Empty: no contact, so <code>contact.*</code> is empty and the defaults show.
        </>
      }
      value={props.value}
      onValue={props.onInput}
      inputMode="numeric"
    />
  );
}

/** A template's source, read-only (a system template, or a role that does not edit). */
function Source({ template }: { template: Template }) {
  return (
    <section class="card" aria-labelledby="tp-source-title">
      <h2 id="tp-source-title">Source</h2>
      <dl class="figures wrap-anywhere">
        <dt>Subject</dt>
        <dd>
          <code>{template.subject}</code>
        </dd>
        <dt>Preview text</dt>
        <dd>{template.preview_text ? <code>{template.preview_text}</code> : '—'}</dd>
      </dl>
      <details>
        <summary>HTML</summary>
        <pre class="source-text">
          <code>{template.html_body}</code>
        </pre>
      </details>
      <details>
        <summary>Text</summary>
        <pre class="source-text">
          <code>{template.text_body || '(empty)'}</code>
        </pre>
      </details>
    </section>
  );
}

/** A system template is read-only: its workflow's clone-template makes the client's copy, which the editor then opens. */
function SystemNote({ api, home, mayCopy }: { api: Api; home: Workflow | undefined; mayCopy: boolean }) {
  const copy = useCopyTemplate(api);

  return (
    <div class="card system-note">
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
        <button type="button" onClick={() => void copy.run(home.id)} disabled={copy.busy}>
          {copy.busy ? 'Copying…' : 'Copy to edit'}
        </button>
      )}
      <FailureAlert failure={copy.failure} />
    </div>
  );
}
