import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { contactStore } from '../../shared/composition/providers/contact-store.js';
import { settingsStore } from '../../shared/composition/providers/settings-store.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { renderPreview } from '../../shared/domain/templates/render-preview.js';
import { RenderPreviewBody, TemplateIdParams } from '../../shared/domain/templates/schemas.js';

/** POST /client/email-templates/{id}/render-preview */
export const handler = jsonApi(
  { params: TemplateIdParams, body: RenderPreviewBody },
  [templateStore, contactStore, settingsStore, clock],
  async ({ params, body }, { deps, clientId }) =>
    ok(await renderPreview(deps, clientId, params.id, body), 'Template rendered'),
);
