import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { deleteTemplate } from '../../shared/domain/templates/delete-template.js';
import { TemplateIdParams } from '../../shared/domain/templates/schemas.js';

/** DELETE /client/email-templates/{id} — soft delete; the response shows deleted_at. */
export const handler = jsonApi(
  { params: TemplateIdParams },
  [templateStore, clock],
  async ({ params }, { deps, clientId }) =>
    ok(await deleteTemplate(deps, clientId, params.id), 'Template deleted'),
);
