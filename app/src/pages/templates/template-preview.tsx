import { useRef } from 'preact/hooks';
import type { Api } from '../../api/client.js';
import type { components, operations } from '../../api/openapi.js';
import { answerOf, type Failure } from '../../data/answer.js';
import { useLoad } from '../../data/use-load.js';
import { DataTable } from '../../ui/data-table.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { DraftFrame, type FramedDraft } from '../sent-email/email-frame.js';

type Rendered = components['schemas']['RenderedPreview'];
type PreviewBody = NonNullable<operations['emailTemplatesRenderPreview']['requestBody']>['content']['application/json'];
export type TemplateParts = Required<NonNullable<PreviewBody['draft']>>;

/** How long typing must pause before the preview is asked for again. */
export const PREVIEW_DELAY_MS = 400;

/** The parts the preview reports at their field (`draft.<part>`), and the contact it renders with. */
export const PREVIEW_KEYS = [
  'draft.subject',
  'draft.preview_text',
  'draft.html_body',
  'draft.text_body',
  'contact_id',
] as const;

/** render-preview's body: the draft (when the person may edit), and the contact to render with (digits only, else as typed). */
export function previewBodyOf(draft: TemplateParts | undefined, contactId: string): PreviewBody {
  const body: PreviewBody = {};
  if (draft) body.draft = draft;
  const contact = contactId.trim();
  if (contact) body.contact_id = /^\d+$/.test(contact) ? Number(contact) : (contact as unknown as number);
  return body;
}

/** Waits `ms`, or rejects as soon as `signal` aborts (a newer question came before the pause ended). */
const pause = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/**
 * The preview's state: POST …/render-preview once typing has paused for PREVIEW_DELAY_MS, the draft rendered by the
 * sender's own code (docs/decisions/0112-render-preview-takes-a-draft.md, "render-preview takes a draft"). Each
 * keystroke is a new question that aborts the one still pausing or on its way, so only the last is asked and an old
 * answer never overwrites a newer one. A refused draft keeps the last good preview beside the error at its field (the
 * error stays while the next question runs). An accepted draft is what the frame then shows (`framed`): the server
 * renders it again as a sandboxed document (POST …/html).
 */
export function usePreview(api: Api, templateId: number, draft: TemplateParts | undefined, contactId: string) {
  // Each accepted preview is a new submission of the frame's form.
  const versions = useRef(0);
  const question = JSON.stringify([templateId, draft ?? null, contactId]);
  const preview = useLoad(
    async (signal) => {
      await pause(PREVIEW_DELAY_MS, signal);
      const answer = await answerOf(
        api.POST('/api/v1/client/email-templates/{id}/render-preview', {
          params: { path: { id: String(templateId) } },
          body: previewBodyOf(draft, contactId),
          signal,
        }),
        'Rendering the preview',
      );
      versions.current += 1;
      const framed: FramedDraft = {
        templateId,
        htmlBody: draft?.html_body,
        contactId: contactId.trim() || undefined,
        version: versions.current,
      };
      return { rendered: answer.data, framed };
    },
    [api, question],
    { keep: true },
  );
  // The last answer's refusal, kept while the next question pauses and runs.
  const settled = useRef<Failure | undefined>(undefined);
  if (!preview.loading) settled.current = preview.failure;
  return {
    rendered: preview.data?.rendered,
    failure: settled.current,
    pending: preview.loading,
    framed: preview.data?.framed,
  };
}

/** The variables a preview was rendered with, as the paths a template writes (`contact.first_name`) and their values. */
export function variablesOf(vars: Record<string, unknown>, prefix = ''): { path: string; value: string }[] {
  const rows: { path: string; value: string }[] = [];
  for (const [key, value] of Object.entries(vars)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      rows.push(...variablesOf(value as Record<string, unknown>, path));
    else
      rows.push({
        path,
        value: value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value),
      });
  }
  return rows;
}

/** The rendered e-mail beside the editor: subject, preview text, the HTML as the server's sandboxed document, the text version. */
export function PreviewPanel(props: {
  rendered: Rendered | undefined;
  failure: Failure | undefined;
  pending: boolean;
  framed: FramedDraft | undefined;
  name: string;
}) {
  const { rendered, failure, pending, framed, name } = props;
  return (
    <section class="card preview-panel" aria-labelledby="tp-preview-title" aria-busy={pending}>
      <h2 id="tp-preview-title">Preview</h2>
      <p class="hint" role="status">
        {pending
          ? 'Rendering…'
          : failure
            ? 'Not rendered: see the error below. The last good preview stays.'
            : 'Rendered by the sender’s own code; nothing is sent or saved.'}
      </p>
      <FailureAlert failure={failure} shownAt={PREVIEW_KEYS} />
      {rendered && (
        <>
          <dl class="figures wrap-anywhere">
            <dt>Subject</dt>
            <dd id="tp-preview-subject">{rendered.subject}</dd>
            <dt>Preview text</dt>
            <dd>{rendered.preview_text || '—'}</dd>
          </dl>
          <DraftFrame draft={framed} name="tp-preview-frame" title={`Preview of "${name}"`} />
          <details>
            <summary>Text version</summary>
            <pre class="text-body">{rendered.text_body || '(empty)'}</pre>
          </details>
          <Variables vars={rendered.resolved_vars} />
        </>
      )}
    </section>
  );
}

function Variables({ vars }: { vars: Record<string, unknown> }) {
  const rows = variablesOf(vars);
  return (
    <details class="variables" open>
      <summary>Variables ({rows.length})</summary>
      <p class="hint">
        Write one as <code>{'<%= it.contact.first_name %>'}</code>, with a default for an empty value:{' '}
        <code>{'<%= it.contact.first_name ?? "there" %>'}</code>. Values below are this preview's; <code>event.*</code>{' '}
        is the triggering event's data when sent.
      </p>
      <DataTable
        label="Variables of the preview"
        caption="Variables and their values in this preview"
        rows={rows}
        rowKey={(row) => row.path}
        columns={VARIABLE_COLUMNS}
      />
    </details>
  );
}

const VARIABLE_COLUMNS = [
  { head: 'Variable', rowHeader: true, cell: (row: { path: string }) => <code>it.{row.path}</code> },
  {
    head: 'Value',
    class: 'wrap-anywhere',
    cell: (row: { value: string }) => row.value || <span class="hint">(empty)</span>,
  },
];
