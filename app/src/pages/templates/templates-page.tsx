import { useEffect, useState } from 'preact/hooks';
import type { components, operations } from '../../api/openapi.js';
import { Link } from '../../components/link.js';
import { navigate, type PageParams } from '../../router.js';
import { answerOf, type Failure, failureOfError, fieldErrorOf } from '../../data/answer.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { FieldError, invalidProps } from '../../ui/field-error.js';
import { When } from '../../ui/when.js';
import type { PageProps } from '../../page.js';

type Template = components['schemas']['EmailTemplateSummary'];
type ListBody = NonNullable<operations['emailTemplatesList']['requestBody']>['content']['application/json'];
type ListMeta = operations['emailTemplatesList']['responses'][200]['content']['application/json']['meta'];

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
  const [draft, setDraft] = useState<Search>(search);
  /** The answer with the search it answers (the caption speaks of that search, not of one still on its way). */
  const [list, setList] = useState<{ templates: Template[]; meta: ListMeta; searched: boolean } | undefined>();
  const [failure, setFailure] = useState<Failure | undefined>();
  const asked = JSON.stringify([search, page]);

  useEffect(() => {
    let current = true;
    setDraft(search);
    setFailure(undefined);
    answerOf(
      api.POST('/api/v1/client/email-templates/list', { body: listBodyOf(search, page) }),
      'Reading the templates',
    ).then(
      (answer) =>
        current &&
        setList({
          templates: answer.data.templates,
          meta: answer.meta,
          searched: search.q.trim() !== '' || search.type !== '',
        }),
      (error: unknown) => {
        if (!current) return;
        setList(undefined);
        setFailure(failureOfError(error));
      },
    );
    return () => {
      current = false;
    };
    // `asked` stands for the search and the page.
  }, [api, asked]);

  function onSearch(event: Event) {
    event.preventDefault();
    navigate('templates', draft);
  }

  const errorOf = (key: string) => fieldErrorOf(failure, key);
  return (
    <section aria-labelledby="tp-templates-title">
      <div class="page-head">
        <h1 id="tp-templates-title">Templates</h1>
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: the <search> element is not yet in every browser the dashboard supports; role="search" on the form is the landmark they all read. */}
      <form class="ct-filters" role="search" aria-label="Search templates" onSubmit={onSearch}>
        <div class="ct-field">
          <label for="tp-q">Name or subject contains</label>
          <input
            id="tp-q"
            type="search"
            autocomplete="off"
            value={draft.q}
            onInput={(e) => setDraft({ ...draft, q: e.currentTarget.value })}
            {...invalidProps('tp-q-error', errorOf('q'))}
          />
          <FieldError id="tp-q-error" message={errorOf('q')} />
        </div>
        <div class="ct-field">
          <label for="tp-type">Kind</label>
          <select
            id="tp-type"
            value={draft.type}
            onChange={(e) => setDraft({ ...draft, type: e.currentTarget.value })}
            {...invalidProps('tp-type-error', errorOf('type'))}
          >
            <option value="">System and yours</option>
            <option value="1">System (read-only)</option>
            <option value="2">Yours</option>
          </select>
          <FieldError id="tp-type-error" message={errorOf('type')} />
        </div>
        <button type="submit">Search</button>
      </form>
      <p class="hint">
        System templates are the service's own and read-only; copy one from its workflow's page (or from the template)
        to edit it. The copy is sent once the workflow is set to use it.
      </p>
      <FailureAlert failure={failure} shownAt={SEARCH} />
      {!list && !failure && <p aria-busy="true">Loading…</p>}
      {list && list.templates.length === 0 && (
        <p class="hint">{list.searched ? 'No template matches this search.' : 'No template yet.'}</p>
      )}
      {list && list.templates.length > 0 && (
        <div class="ct-scroll table-wrap">
          <table id="tp-templates-table" class="ct-table">
            <caption>
              Templates{list.searched ? ' matching the search' : ''}: {list.meta.total} in all
            </caption>
            <thead>
              <tr>
                <th scope="col">Template</th>
                <th scope="col">Subject</th>
                <th scope="col">Kind</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {list.templates.map((template) => (
                <tr key={template.id}>
                  <th scope="row" class="ct-break">
                    <Link page="template" params={{ id: String(template.id) }}>
                      {template.name}
                    </Link>
                    {template.source_template && <small>copy of {template.source_template.name}</small>}
                  </th>
                  <td class="ct-break tp-subject">
                    <code>{template.subject}</code>
                  </td>
                  <td>{TEMPLATE_KINDS[template.type]}</td>
                  <td>
                    <When at={template.updated_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list && list.meta.total_pages > 1 && (
        <nav class="ct-pages" aria-label="Pages of templates">
          {list.meta.page > 1 && (
            <Link page="templates" params={{ ...search, page: String(list.meta.page - 1) }}>
              Previous page
            </Link>
          )}
          <span>
            Page {list.meta.page} of {list.meta.total_pages}
          </span>
          {list.meta.page < list.meta.total_pages && (
            <Link page="templates" params={{ ...search, page: String(list.meta.page + 1) }}>
              Next page
            </Link>
          )}
        </nav>
      )}
    </section>
  );
}
