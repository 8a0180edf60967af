import { EXECUTION_STATUS, EXECUTION_STATUS_TEXT } from '../../../../shared/public/execution-rules.js';
import type { components, operations } from '../../api/openapi.js';
import { Link } from '../../components/link.js';
import { answerOf, type Failure } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import { useDraft } from '../../data/use-draft.js';
import { useLoad } from '../../data/use-load.js';
import type { PageProps } from '../../page.js';
import { navigate, type PageParams } from '../../router.js';
import { can } from '../../session.js';
import { DataTable } from '../../ui/data-table.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { Form } from '../../ui/form.js';
import { Options, SelectField, TextField } from '../../ui/inputs.js';
import { PageHead } from '../../ui/page-head.js';
import { ActionStatus, LoadStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';

type Execution = components['schemas']['Execution'];
type ListQuery = NonNullable<operations['executionsList']['parameters']['query']>;

/** Execution statuses by number, as GET /client/executions filters them. */
export const EXECUTION_STATUSES = EXECUTION_STATUS_TEXT;

export const PER_PAGE = 25;

/** The filters GET /client/executions has, kept in the page's query (bookmarkable: `/app/executions?status=4`). */
const FILTERS = ['status', 'workflow_id', 'created_from', 'created_to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

/** The two ends of the creation days a list may be narrowed to, typed as UTC days. */
const DAY_FILTERS = [
  { name: 'created_from', id: 'ct-created-from', label: 'Created from (UTC day)' },
  { name: 'created_to', id: 'ct-created-to', label: 'Created to (UTC day, included)' },
] as const;

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

/** Executions: every workflow run, filtered as the API allows, by page; a failed one can be retried. */
export function ExecutionsPage({ api, params, signedIn }: PageProps) {
  const filters = filtersOf(params);
  const page = params['page'] ?? '';
  const mayRetry = can(signedIn, 'content');
  const asked = JSON.stringify([filters, page]);
  const workflows = useLoad(
    async (signal) =>
      (await answerOf(api.GET('/api/v1/client/workflows', { signal }), 'Reading the workflows')).data.workflows.map(
        (workflow) => ({ id: workflow.id, name: workflow.name }),
      ),
    [api],
  );
  const list = useLoad(
    async (signal) => {
      const answer = await answerOf(
        api.GET('/api/v1/client/executions', { params: { query: listQueryOf(filters, page) }, signal }),
        'Reading the executions',
      );
      return { executions: answer.data.executions, meta: answer.meta };
    },
    [api, asked],
  );
  const retry = useAction(async (execution: Execution) => {
    const answer = await answerOf(
      api.POST('/api/v1/client/executions/{execution_id}/retry', {
        params: { path: { execution_id: String(execution.id) } },
      }),
      'Retrying the execution',
    );
    list.reload();
    return `Execution #${execution.id} is retried: run #${answer.data.execution_id} is queued. Its outcome shows in this list.`;
  });

  const data = list.data;
  const pages = data ? data.meta.total_pages : 0;
  const current = data ? data.meta.page : 1;
  return (
    <section aria-labelledby="ct-executions-title">
      <PageHead id="ct-executions-title" title="Executions">
        <button type="button" class="refresh" onClick={list.reload}>
          Refresh
        </button>
      </PageHead>
      <FilterForm key={asked} filters={filters} workflows={workflows.data ?? []} failure={list.failure} />
      <p class="hint">A contact's own runs are on its page, in its activity.</p>
      <FailureAlert failure={workflows.failure} />
      <LoadStatus loaded={list} shownAt={FILTERS} />
      <ActionStatus action={retry} />
      {data && (
        <DataTable
          id="ct-executions-table"
          label="Executions table"
          caption={
            <>
              Executions, newest first: {data.meta.total_is_exact ? '' : 'at least '}
              {data.meta.total} in all
            </>
          }
          rows={data.executions}
          empty={<p class="hint">No execution matches these filters.</p>}
          columns={[
            {
              head: 'Run',
              rowHeader: true,
              cell: (execution) => (
                <>
                  #{execution.id}
                  {execution.attempt > 1 && <small> attempt {execution.attempt}</small>}
                  {execution.retried_from !== null && <small> retries #{execution.retried_from}</small>}
                  {execution.is_test && <small> test</small>}
                </>
              ),
            },
            {
              head: 'Status',
              class: 'outcome-cell',
              cell: (execution) => (
                <>
                  <span class={`outcome outcome-${execution.status_text}`}>{execution.status_text}</span>
                  {execution.reason && <span class="outcome-reason"> — {execution.reason}</span>}
                  {mayRetry && execution.status === EXECUTION_STATUS.failed && (
                    <button
                      type="button"
                      class="small retry"
                      aria-label={`Retry #${execution.id}`}
                      disabled={retry.busy}
                      onClick={() => void retry.run(execution)}
                    >
                      Retry
                    </button>
                  )}
                </>
              ),
            },
            { head: 'Workflow', cell: (execution) => execution.workflow_name ?? `Workflow ${execution.workflow_id}` },
            {
              head: 'Contact',
              cell: (execution) => (
                <Link page="contact" params={{ id: String(execution.contact_id) }}>
                  Contact #{execution.contact_id}
                </Link>
              ),
            },
            { head: 'Scheduled for', cell: (execution) => <When at={execution.scheduled_for} /> },
            { head: 'Processed', cell: (execution) => <When at={execution.processed_at} /> },
            {
              head: 'E-mail',
              cell: (execution) =>
                execution.sent_email_id ? (
                  <Link page="sent-email" params={{ id: execution.sent_email_id }}>
                    E-mail of #{execution.id}
                  </Link>
                ) : (
                  '—'
                ),
            },
          ]}
        />
      )}
      {data && pages > 1 && (
        <nav class="pager" aria-label="Pages of executions">
          {current > 1 && (
            <Link page="executions" params={{ ...filters, page: String(current - 1) }}>
              Previous page
            </Link>
          )}
          <span>
            Page {current} of {pages}
            {data.meta.total_is_exact ? '' : ' or more'}
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

/** The filters, as a draft until Filter puts them in the address (drawn again, from the address, when it changes). */
function FilterForm(props: {
  filters: Filters;
  workflows: readonly { id: number; name: string }[];
  failure: Failure | undefined;
}) {
  const { workflows, failure } = props;
  const { draft, bind } = useDraft<Filters>(props.filters);
  return (
    <Form
      class="filters"
      aria-label="Filter executions"
      onSubmit={() => navigate('executions', draft)}
      failure={failure}
    >
      <SelectField id="ct-status" label="Status" {...bind('status')}>
        <option value="">Any</option>
        <Options of={Object.entries(EXECUTION_STATUSES)} value={([value]) => value} text={([, text]) => text} />
      </SelectField>
      <SelectField id="ct-workflow" label="Workflow" {...bind('workflow_id')}>
        <option value="">Any</option>
        {draft.workflow_id && !workflows.some((w) => String(w.id) === draft.workflow_id) && (
          <option value={draft.workflow_id}>Workflow {draft.workflow_id}</option>
        )}
        <Options of={workflows} value={(workflow) => workflow.id} text={(workflow) => workflow.name} />
      </SelectField>
      {DAY_FILTERS.map((day) => (
        <TextField
          key={day.name}
          id={day.id}
          label={day.label}
          {...bind(day.name)}
          inputMode="numeric"
          placeholder="YYYY-MM-DD"
        />
      ))}
      <button type="submit">Filter</button>
    </Form>
  );
}
