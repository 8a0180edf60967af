import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { listTemplates } from '../../shared/domain/templates/list-templates.js';
import { TemplateListBody } from '../../shared/domain/templates/schemas.js';

/** POST /client/email-templates/list — system templates and the client's own; filters in the body. */
export const handler = jsonApi({ body: TemplateListBody }, [templateStore], async ({ body }, { deps, clientId }) => {
  const { templates, meta } = await listTemplates(deps, clientId, body);
  return ok({ templates }, 'OK', meta);
});
