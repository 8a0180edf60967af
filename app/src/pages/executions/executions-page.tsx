import { useEffect, useState } from 'preact/hooks';
import type { components, operations } from '../../api/openapi.js';
import { Link } from '../../components/link.js';
import { navigate, type PageParams } from '../../router.js';
import { can } from '../../session.js';
import { answerOf, type Failure, failureOfError, fieldErrorOf } from '../../data/answer.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { FieldError, invalidProps } from '../../ui/field-error.js';
import { When } from '../../ui/when.js';
import type { PageProps } from '../../page.js';

type Execution = components['schemas']['Execution'];
type ListQuery = NonNullable<operations['executionsList']['parameters']['query']>;
type ListMeta = operations['executionsList']['responses'][200]['content']['application/json']['meta'];

/** Execution statuses by number, as GET /client/executions filters them. */
export const EXECUTION_STATUSES = { 1: 'queued', 2: 'executing', 3: 'completed', 4: 'failed', 5: 'cancelled', 6: 'skipped', 7: 'retried' } as const;

export const PER_PAGE = 25;

/** The filters GET /client/executions has, kept in the page's query (bookmarkable: `/app/executions?status=4`). */
const FILTERS = ['status', 'workflow_id', 'created_from', 'created_to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

const filtersOf = (params: PageParams): Filters => ({
  status: params['status'] ?? '',
  workflow_id: params['workflow_id'] ?? '',
  created_from: params['created_from'] ?? '',
  created_to: params['created_to'] ?? '',
});

/** The list call's query: the filters set and the page (the API checks the values: 422 at the field). */
export function listQueryOf(filters: Filters, page: string): ListQuery {
  const query: ListQuery = { per_page: String(PER_PAGE) };
  if (filters.status) query.status = filters.status as ListQuery['status'];
  if (filters.workflow_id) query.workflow_id = filters.workflow_id;
  if (filters.created_from) query.created_from = filters.created_from;
  if (filters.created_to) query.created_to = filters.created_to;
  if (page && page !== '1') query.page = page;
  return query;
}

/** Executions (issue 25 §1): every workflow run, filtered as the API allows, by page; a failed one can be retried. */
export function ExecutionsPage({ api, params, signedIn }: PageProps) {
  const filters = filtersOf(params);
  const page = params['page'] ?? '';
  const [draft, setDraft] = useState<Filters>(filters);
  const [list, setList] = useState<{ executions: Execution[]; meta: ListMeta } | undefined>();
  const [workflows, setWorkflows] = useState<{ id: number; name: string }[]>([]);
  const [failure, setFailure] = useState<Failure | undefined>();
  const [loads, setLoads] = useState(0);
  const [retry, setRetry] = useState<{ id: number; busy: boolean; failure?: Failure; done?: string } | undefined>();
  const mayRetry = can(signedIn, 'content');
  const asked = JSON.stringify([filters, page]);

  useEffect(() => {
    let current = true;
    answerOf(api.GET('/api/v1/client/workflows'), 'Reading the workflows').then(
      (answer) => current && setWorkflows(answer.data.workflows.map((workflow) => ({ id: workflow.id, name: workflow.name }))),
      (error: unknown) => current && setFailure(failureOfError(error)),
    );
    return () => {
      current = false;
    };
  }, [api]);

  useEffect(() => {
    let current = true;
    setDraft(filters);
    setFailure(undefined);
    answerOf(api.GET('/api/v1/client/executions', { params: { query: listQueryOf(filters, page) } }), 'Reading the executions').then(
      (answer) => current && setList({ executions: answer.data.executions, meta: answer.meta }),
      (error: unknown) => {
        if (!current) return;
        setList(undefined);
        setFailure(failureOfError(error));
      },
    );
    return () => {
      current = false;
    };
    // `asked` stands for the filters and the page.
  }, [api, asked, loads]);

  function onFilter(event: Event) {
    event.preventDefault();
    navigate('executions', draft);
  }

  async function onRetry(execution: Execution) {
    setRetry({ id: execution.id, busy: true });
    try {
      const answer = await answerOf(
        api.POST('/api/v1/client/executions/{execution_id}/retry', { params: { path: { execution_id: String(execution.id) } } }),
        'Retrying the execution',
      );
      setRetry({
        id: execution.id,
        busy: false,
        done: `Execution #${execution.id} is retried: run #${answer.data.execution_id} is queued. Its outcome shows in this list.`,
      });
      setLoads((n) => n + 1);
    } catch (error) {
      setRetry({ id: execution.id, busy: false, failure: failureOfError(error) });
    }
  }

  const errorOf = (key: string) => fieldErrorOf(failure, key);
  const pages = list ? list.meta.total_pages : 0;
  const current = list ? list.meta.page : 1;
  return (
    <section aria-labelledby="ct-executions-title">
      <div class="page-head">
        <h1 id="ct-executions-title">Executions</h1>
        <button type="button" class="refresh" onClick={() => setLoads((n) => n + 1)}>
          Refresh
        </button>
      </div>
      <form class="ct-filters" aria-label="Filter executions" onSubmit={onFilter}>
        <div class="ct-field">
          <label for="ct-status">Status</label>
          <select id="ct-status" value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.currentTarget.value })} {...invalidProps('ct-status-error', errorOf('status'))}>
            <option value="">Any</option>
            {Object.entries(EXECUTION_STATUSES).map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
          <FieldError id="ct-status-error" message={errorOf('status')} />
        </div>
        <div class="ct-field">
          <label for="ct-workflow">Workflow</label>
          <select
            id="ct-workflow"
            value={draft.workflow_id}
            onChange={(e) => setDraft({ ...draft, workflow_id: e.currentTarget.value })}
            {...invalidProps('ct-workflow-error', errorOf('workflow_id'))}
          >
            <option value="">Any</option>
            {draft.workflow_id && !workflows.some((w) => String(w.id) === draft.workflow_id) && <option value={draft.workflow_id}>Workflow {draft.workflow_id}</option>}
            {workflows.map((workflow) => (
              <option key={workflow.id} value={String(workflow.id)}>
                {workflow.name}
              </option>
            ))}
          </select>
          <FieldError id="ct-workflow-error" message={errorOf('workflow_id')} />
        </div>
        <div class="ct-field">
          <label for="ct-created-from">Created from (UTC day)</label>
          <input
            id="ct-created-from"
            type="text"
            inputMode="numeric"
            placeholder="YYYY-MM-DD"
            autocomplete="off"
            value={draft.created_from}
            onInput={(e) => setDraft({ ...draft, created_from: e.currentTarget.value })}
            {...invalidProps('ct-created-from-error', errorOf('created_from'))}
          />
          <FieldError id="ct-created-from-error" message={errorOf('created_from')} />
        </div>
        <div class="ct-field">
          <label for="ct-created-to">Created to (UTC day, included)</label>
          <input
            id="ct-created-to"
            type="text"
            inputMode="numeric"
            placeholder="YYYY-MM-DD"
            autocomplete="off"
            value={draft.created_to}
            onInput={(e) => setDraft({ ...draft, created_to: e.currentTarget.value })}
            {...invalidProps('ct-created-to-error', errorOf('created_to'))}
          />
          <FieldError id="ct-created-to-error" message={errorOf('created_to')} />
        </div>
        <button type="submit">Filter</button>
      </form>
      <p class="hint">A contact's own runs are on its page, in its activity.</p>
      <FailureAlert failure={failure} shownAt={FILTERS} />
      {retry?.failure && <FailureAlert failure={retry.failure} />}
      <p role="status" class="ct-done">
        {retry?.done}
      </p>
      {!list && !failure && <p aria-busy="true">Loading…</p>}
      {list && list.executions.length === 0 && <p class="hint">No execution matches these filters.</p>}
      {list && list.executions.length > 0 && (
        <div class="ct-scroll">
          <table id="ct-executions-table" class="ct-table">
            <caption>
              Executions, newest first: {list.meta.total_is_exact ? '' : 'at least '}
              {list.meta.total} in all
            </caption>
            <thead>
              <tr>
                <th scope="col">Run</th>
                <th scope="col">Status</th>
                <th scope="col">Workflow</th>
                <th scope="col">Contact</th>
                <th scope="col">Scheduled for</th>
                <th scope="col">Processed</th>
                <th scope="col">E-mail</th>
              </tr>
            </thead>
            <tbody>
              {list.executions.map((execution) => (
                <tr key={execution.id}>
                  <th scope="row">
                    #{execution.id}
                    {execution.attempt > 1 && <small> attempt {execution.attempt}</small>}
                    {execution.retried_from !== null && <small> retries #{execution.retried_from}</small>}
                    {execution.is_test && <small> test</small>}
                  </th>
                  <td class="ct-status-cell">
                    <span class={`ct-status ct-status-${execution.status_text}`}>{execution.status_text}</span>
                    {execution.reason && <span class="ct-reason"> — {execution.reason}</span>}
                    {mayRetry && execution.status === 4 && (
                      <button
                        type="button"
                        class="ct-small ct-retry"
                        aria-label={`Retry #${execution.id}`}
                        disabled={retry?.busy === true}
                        onClick={() => void onRetry(execution)}
                      >
                        Retry
                      </button>
                    )}
                  </td>
                  <td>{execution.workflow_name ?? `Workflow ${execution.workflow_id}`}</td>
                  <td>
                    <Link page="contact" params={{ id: String(execution.contact_id) }}>
                      Contact #{execution.contact_id}
                    </Link>
                  </td>
                  <td>
                    <When at={execution.scheduled_for} />
                  </td>
                  <td>
                    <When at={execution.processed_at} />
                  </td>
                  <td>
                    {execution.sent_email_id ? (
                      <Link page="sent-email" params={{ id: execution.sent_email_id }}>
                        E-mail of #{execution.id}
                      </Link>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list && pages > 1 && (
        <nav class="ct-pages" aria-label="Pages of executions">
          {current > 1 && (
            <Link page="executions" params={{ ...filters, page: String(current - 1) }}>
              Previous page
            </Link>
          )}
          <span>
            Page {current} of {pages}
            {list.meta.total_is_exact ? '' : ' or more'}
          </span>
          {current < pages && (
            <Link page="executions" params={{ ...filters, page: String(current + 1) }}>
              Next page
            </Link>
          )}
        </nav>
      )}
    </section>
  );
}
