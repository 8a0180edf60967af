import { ok } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { linkSecret } from '../../shared/composition/providers/link-secret.js';
import { templateStore } from '../../shared/composition/providers/template-store.js';
import { BoundedPageMeta, PAGE_WINDOW_RULE } from '../../shared/domain/pagination/bounded-page.js';
import { listTemplates } from '../../shared/domain/templates/list-templates.js';
import { TemplateListBody } from '../../shared/domain/templates/schemas.js';
import { TemplateList } from '../../shared/domain/templates/template-view.js';

/** POST /client/email-templates/list — system templates and the client's own; filters in the body. */
export const handler = jsonApi(
  {
    summary: 'List e-mail templates',
    description:
      "The system templates and the client's own, by id, without their bodies (`GET /client/email-templates/{id}` has " +
      'them). Filters travel in the body: `q` matches name or subject (case-insensitive), `type` 1 system or 2 client; ' +
      `\`page\` and \`per_page\` (≤ 100) number the pages: ${PAGE_WINDOW_RULE}. \`next_cursor\` reads one page's ` +
      'worth wherever it is; a selective `q` may give a short page before the end.',
    body: TemplateListBody,
    responses: { 200: { data: TemplateList, meta: BoundedPageMeta } },
  },
  [templateStore, linkSecret],
  async ({ body }, { deps, clientId }) => {
    const { meta, ...list } = await listTemplates(
      { ...deps, cursorSecret: await deps.linkSecret.value() },
      clientId,
      body,
    );
    return ok(list, 'OK', meta);
  },
);
