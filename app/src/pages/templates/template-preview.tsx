import { useEffect, useRef, useState } from 'preact/hooks';
import type { Api } from '../../api/client.js';
import type { components, operations } from '../../api/openapi.js';
import { answerOf, type Failure, failureOfError } from '../../data/answer.js';
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

/**
 * The preview's state: POST …/render-preview once typing has paused for PREVIEW_DELAY_MS, the draft rendered by the
 * sender's own code (docs/decisions/0112-render-preview-takes-a-draft.md, "render-preview takes a draft"). An answer that arrives after a newer question
 * is dropped; a refused draft keeps the last good preview beside the error at its field. An accepted draft is what the
 * frame then shows (`framed`): the server renders it again as a sandboxed document (POST …/html).
 */
export function usePreview(api: Api, templateId: number, draft: TemplateParts | undefined, contactId: string) {
  const [rendered, setRendered] = useState<Rendered | undefined>();
  const [failure, setFailure] = useState<Failure | undefined>();
  const [pending, setPending] = useState(true);
  const [framed, setFramed] = useState<FramedDraft | undefined>();
  const asked = useRef(0);
  const question = JSON.stringify([templateId, draft ?? null, contactId]);

  useEffect(() => {
    const number = ++asked.current;
    setPending(true);
    const timer = setTimeout(() => {
      answerOf(
        api.POST('/api/v1/client/email-templates/{id}/render-preview', {
          params: { path: { id: String(templateId) } },
          body: previewBodyOf(draft, contactId),
        }),
        'Rendering the preview',
      ).then(
        (answer) => {
          if (number !== asked.current) return;
          setRendered(answer.data);
          setFramed({
            templateId,
            htmlBody: draft?.html_body,
            contactId: contactId.trim() || undefined,
            version: number,
          });
          setFailure(undefined);
          setPending(false);
        },
        (error: unknown) => {
          if (number !== asked.current) return;
          setFailure(failureOfError(error));
          setPending(false);
        },
      );
    }, PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
    // `question` stands for the template, the draft and the contact.
  }, [api, question]);

  return { rendered, failure, pending, framed };
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
    <section class="card tp-preview" aria-labelledby="tp-preview-title" aria-busy={pending}>
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
          <dl class="figures ct-fields">
            <dt>Subject</dt>
            <dd id="tp-preview-subject">{rendered.subject}</dd>
            <dt>Preview text</dt>
            <dd>{rendered.preview_text || '—'}</dd>
          </dl>
          <DraftFrame draft={framed} name="tp-preview-frame" title={`Preview of "${name}"`} />
          <details>
            <summary>Text version</summary>
            <pre class="ct-text-body">{rendered.text_body || '(empty)'}</pre>
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
    <details class="tp-variables" open>
      <summary>Variables ({rows.length})</summary>
      <p class="hint">
        Write one as <code>{'<%= it.contact.first_name %>'}</code>, with a default for an empty value:{' '}
        <code>{'<%= it.contact.first_name ?? "there" %>'}</code>. Values below are this preview's; <code>event.*</code>{' '}
        is the triggering event's data when sent.
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a region that scrolls must take focus for a keyboard to scroll it (axe scrollable-region-focusable); a <section> would add a landmark heading level. */}
      <div class="ct-scroll table-wrap" tabIndex={0} role="region" aria-label="Variables of the preview">
        <table class="ct-table">
          <caption>Variables and their values in this preview</caption>
          <thead>
            <tr>
              <th scope="col">Variable</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.path}>
                <th scope="row">
                  <code>it.{row.path}</code>
                </th>
                <td class="ct-break">{row.value || <span class="hint">(empty)</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
