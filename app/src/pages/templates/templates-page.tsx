import type { components, operations } from '../../api/openapi.js';
import { Link } from '../../components/link.js';
import { answerOf, type Failure } from '../../data/answer.js';
import { useDraft } from '../../data/use-draft.js';
import { useLoad } from '../../data/use-load.js';
import type { PageProps } from '../../page.js';
import { navigate, type PageParams } from '../../router.js';
import { DataTable } from '../../ui/data-table.js';
import { Form } from '../../ui/form.js';
import { SelectField, TextField } from '../../ui/inputs.js';
import { PageHead } from '../../ui/page-head.js';
import { LoadStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';

type Template = components['schemas']['EmailTemplateSummary'];
type ListBody = NonNullable<operations['emailTemplatesList']['requestBody']>['content']['application/json'];

export const TEMPLATES_PER_PAGE = 25;

/** Template types as the API numbers them. */
export const TEMPLATE_KINDS = { 1: 'System', 2: 'Yours' } as const;

/** The search the address holds (`/app/templates?q=welcome&type=1`): bookmarkable, and Back returns to it. */
const SEARCH = ['q', 'type'] as const;
type Search = Record<(typeof SEARCH)[number], string>;

const searchOf = (params: PageParams): Search => ({ q: params['q'] ?? '', type: params['type'] ?? '' });

/** POST /client/email-templates/list's body: the search and the page (the API checks them: 422 at the field). */
export function listBodyOf(search: Search, page: string): ListBody {
  const body: ListBody = { per_page: TEMPLATES_PER_PAGE };
  if (search.q.trim()) body.q = search.q.trim();
  if (search.type === '1' || search.type === '2') body.type = Number(search.type) as 1 | 2;
  if (page && page !== '1') body.page = /^\d+$/.test(page) ? Number(page) : (page as unknown as number);
  return body;
}

/** Templates: the system templates and the client's own, searched by name or subject, by page. */
export function TemplatesPage({ api, params }: PageProps) {
  const search = searchOf(params);
  const page = params['page'] ?? '';
  const asked = JSON.stringify([search, page]);
  // A new search drops the old answer, so the caption always speaks of the search shown.
  const list = useLoad(
    async (signal) => {
      const answer = await answerOf(
        api.POST('/api/v1/client/email-templates/list', { body: listBodyOf(search, page), signal }),
        'Reading the templates',
      );
      return { templates: answer.data.templates, meta: answer.meta };
    },
    [api, asked],
  );
  const data = list.data;
  const searched = search.q.trim() !== '' || search.type !== '';

  return (
    <section aria-labelledby="tp-templates-title">
      <PageHead id="tp-templates-title" title="Templates" />
      <SearchForm key={asked} search={search} failure={list.failure} />
      <p class="hint">
        System templates are the service's own and read-only; copy one from its workflow's page (or from the template)
        to edit it. The copy is sent once the workflow is set to use it.
      </p>
      <LoadStatus loaded={list} shownAt={SEARCH} />
      {data && (
        <DataTable
          id="tp-templates-table"
          label="Templates table"
          caption={
            <>
              Templates{searched ? ' matching the search' : ''}: {data.meta.total} in all
            </>
          }
          rows={data.templates}
          columns={TEMPLATE_COLUMNS}
          empty={<p class="hint">{searched ? 'No template matches this search.' : 'No template yet.'}</p>}
        />
      )}
      {data && data.meta.total_pages > 1 && (
        <nav class="pager" aria-label="Pages of templates">
          {data.meta.page > 1 && (
            <Link page="templates" params={{ ...search, page: String(data.meta.page - 1) }}>
              Previous page
            </Link>
          )}
          <span>
            Page {data.meta.page} of {data.meta.total_pages}
          </span>
          {data.meta.page < data.meta.total_pages && (
            <Link page="templates" params={{ ...search, page: String(data.meta.page + 1) }}>
              Next page
            </Link>
          )}
        </nav>
      )}
    </section>
  );
}

const TEMPLATE_COLUMNS = [
  {
    head: 'Template',
    rowHeader: true,
    class: 'wrap-anywhere',
    cell: (template: Template) => (
      <>
        <Link page="template" params={{ id: String(template.id) }}>
          {template.name}
        </Link>
        {template.source_template && <small>copy of {template.source_template.name}</small>}
      </>
    ),
  },
  {
    head: 'Subject',
    class: 'wrap-anywhere wrapping-code',
    cell: (template: Template) => <code>{template.subject}</code>,
  },
  { head: 'Kind', cell: (template: Template) => TEMPLATE_KINDS[template.type] },
  { head: 'Updated', cell: (template: Template) => <When at={template.updated_at} /> },
];

/** The search, as a draft until Search puts it in the address (drawn again, from the address, when it changes). */
function SearchForm(props: { search: Search; failure: Failure | undefined }) {
  const { draft, bind } = useDraft<Search>(props.search);
  return (
    <Form
      class="filters"
      role="search"
      aria-label="Search templates"
      failure={props.failure}
      onSubmit={() => navigate('templates', draft)}
    >
      <TextField id="tp-q" label="Name or subject contains" {...bind('q')} type="search" />
      <SelectField id="tp-type" label="Kind" {...bind('type')}>
        <option value="">System and yours</option>
        <option value="1">System (read-only)</option>
        <option value="2">Yours</option>
      </SelectField>
      <button type="submit">Search</button>
    </Form>
  );
}
