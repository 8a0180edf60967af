import { clientPage } from '../../shared/http/api.js';
import { EMAIL_DOCUMENT_CSP, emailDocument } from '../../shared/http/email-document.js';
import { parseForm } from '../../shared/http/form-fields.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { renderPreviewHtml, TemplateHtmlForm } from '../../shared/domain/templates/render-preview.js';
import { TemplateIdParams } from '../../shared/domain/templates/schemas.js';

/** POST /client/email-templates/{id}/html — the template (or a draft of its HTML) rendered, as a sandboxed document. */
export const handler = clientPage(
  {
    summary: 'Render a template as a document',
    description:
      "The HTML render-preview gives (the client's branding, the contact's variables with `contact_id`), answered as a " +
      `document of its own: \`Content-Security-Policy: ${EMAIL_DOCUMENT_CSP.dashboard}\`, never cached. The dashboard's ` +
      'template editor posts its form here, targeting its preview frame: `html_body` renders an unsaved draft in place ' +
      'of the stored HTML, checked as PATCH checks it (422 `unsafe` at `html_body`). A session sends its CSRF token as ' +
      'the form field `csrf_token` (or the X-CSRF-Token header). Nothing is sent or stored.',
    params: TemplateIdParams,
    form: TemplateHtmlForm,
    pages: { 200: 'The rendered e-mail, in its sandbox' },
    errors: [404],
  },
  [templateStore, contactStore, settingsStore, clock],
  async ({ params }, { deps, clientId, event }) =>
    emailDocument(
      200 as const,
      await renderPreviewHtml(deps, clientId, params.id, parseForm(TemplateHtmlForm, event)),
      'dashboard',
    ),
);
