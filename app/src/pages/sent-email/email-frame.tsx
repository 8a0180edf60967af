import { useEffect, useRef } from 'preact/hooks';
import { CSRF_FORM_FIELD } from '../../../../shared/public/session-rules.js';
import { csrfToken } from '../../api/client.js';

/** The API's root as the dashboard's documents address it (same origin). */
const API = '/api/v1';

/** A sent e-mail's HTML as the server answers it: a document of its own, in its sandbox (GET …/sent-emails/{id}/html). */
export const sentEmailHtmlUrl = (id: string): string => `${API}/client/sent-emails/${encodeURIComponent(id)}/html`;

/** Where the template editor posts a draft to be rendered as a document (POST …/email-templates/{id}/html). */
export const templateHtmlUrl = (templateId: number): string => `${API}/client/email-templates/${templateId}/html`;

/**
 * The frame's sandbox: no token at all (no script, no same origin, no form, no pop-up, no top navigation). The
 * document the server answers carries the same sandbox in its CSP (shared/http/email-document.ts), so the e-mail
 * runs nothing with the dashboard's origin whichever of the two a browser honours (docs/decisions/0121-email-html-is-a-document-of-its-own.md).
 */
export const EMAIL_SANDBOX = '';

const NOT_SHOWN_HINT =
  'Images from other sites are not loaded here (the dashboard loads nothing from another origin); the browser version shows them.';

/** A sent e-mail, framed by its URL: the dashboard never reads or rewrites the e-mail's HTML. */
export function EmailFrame({ sentEmailId, title }: { sentEmailId: string; title: string }) {
  return (
    <>
      <p class="hint">{NOT_SHOWN_HINT}</p>
      <iframe
        class="email-frame"
        title={title}
        sandbox={EMAIL_SANDBOX}
        src={sentEmailHtmlUrl(sentEmailId)}
        referrerpolicy="no-referrer"
      />
    </>
  );
}

/** What the editor's frame shows: the template's HTML (or a draft of it) and the contact to render it with. */
export interface FramedDraft {
  templateId: number;
  /** Absent: the stored HTML. */
  htmlBody?: string;
  /** Digits only (the JSON preview refuses anything else before the frame is asked). */
  contactId?: string;
  /** Changes each time the frame should render again. */
  version: number;
}

/**
 * The template editor's preview frame. A draft is up to 256 KB, too long for a URL, so a hidden form posts it (with the
 * session's CSRF token as a field) to the render route, targeting the frame by its name: the frame shows the server's
 * document, in the same sandbox as a sent e-mail's.
 */
export function DraftFrame({ draft, title, name }: { draft: FramedDraft | undefined; title: string; name: string }) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (draft) form.current?.submit();
  }, [draft?.version]);

  return (
    <>
      <p class="hint">{NOT_SHOWN_HINT}</p>
      {draft && (
        <form ref={form} method="post" action={templateHtmlUrl(draft.templateId)} target={name} hidden>
          <input type="hidden" name={CSRF_FORM_FIELD} value={csrfToken() ?? ''} />
          {draft.htmlBody !== undefined && <input type="hidden" name="html_body" value={draft.htmlBody} />}
          {draft.contactId && <input type="hidden" name="contact_id" value={draft.contactId} />}
        </form>
      )}
      {/* A fresh frame per render: a frame's first navigation replaces its blank page, so previews add no history entry. */}
      <iframe
        key={draft?.version}
        class="email-frame"
        name={name}
        title={title}
        sandbox={EMAIL_SANDBOX}
        referrerpolicy="no-referrer"
      />
    </>
  );
}
