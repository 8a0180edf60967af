import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { renderPreview } from '../../shared/domain/templates/render-preview.js';
import { RenderPreviewBody, TemplateIdParams } from '../../shared/domain/templates/schemas.js';

/** POST /client/email-templates/{id}/render-preview */
export const handler = jsonApi({ params: TemplateIdParams, body: RenderPreviewBody }, async ({ params, body }, { deps, clientId }) =>
  ok(await renderPreview(deps, clientId, params.id, body), 'Template rendered'),
);
