import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { RenderedPreview, renderPreview } from '../../shared/domain/templates/render-preview.js';
import { RenderPreviewBody, TemplateIdParams } from '../../shared/domain/templates/schemas.js';

/** POST /client/email-templates/{id}/render-preview */
export const handler = jsonApi(
  {
    summary: 'Render a template preview',
    description:
      "Renders a saved template as the sender would: with the contact's variables (`contact_id`), the client's " +
      'branding (`include_default_vars`, default true) and explicit `vars` on top. Extra to SPEC.md: `draft` renders ' +
      "unsaved parts in place of the stored ones (an editor's live preview), checked as PATCH checks them. Nothing is " +
      'sent or stored.',
    params: TemplateIdParams,
    body: RenderPreviewBody,
    responses: { 200: RenderedPreview },
    errors: [404],
  },
  [templateStore, contactStore, settingsStore, clock],
  async ({ params, body }, { deps, clientId }) =>
    ok(await renderPreview(deps, clientId, params.id, body), 'Template rendered'),
);
