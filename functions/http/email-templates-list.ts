import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { PageMeta } from '../../shared/domain/pagination/page-meta.js';
import { listTemplates } from '../../shared/domain/templates/list-templates.js';
import { TemplateListBody } from '../../shared/domain/templates/schemas.js';
import { TemplateList } from '../../shared/domain/templates/template-view.js';

/** POST /client/email-templates/list — system templates and the client's own; filters in the body. */
export const handler = jsonApi(
  {
    summary: 'List e-mail templates',
    description:
      "The system templates and the client's own, by id. Filters travel in the body: `q` matches name or subject " +
      '(case-insensitive), `type` 1 system or 2 client; `page` and `per_page` (≤ 100) page the result.',
    body: TemplateListBody,
    responses: { 200: { data: TemplateList, meta: PageMeta } },
  },
  [templateStore],
  async ({ body }, { deps, clientId }) => {
    const { templates, meta } = await listTemplates(deps, clientId, body);
    return ok({ templates }, 'OK', meta);
  },
);
