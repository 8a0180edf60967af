import { Link } from '../../components/link.js';
import { answerOf } from '../../data/answer.js';
import { useLoad } from '../../data/use-load.js';
import type { PageProps } from '../../page.js';
import { can } from '../../session.js';
import { DataTable } from '../../ui/data-table.js';
import { PageHead } from '../../ui/page-head.js';
import { LoadStatus } from '../../ui/status.js';
import { delayText, sendTimeText, type Topic, topicText, triggerText, type Workflow } from './workflow-text.js';

/** Enabled or disabled for this client, in words and colour. */
export const StateText = ({ enabled }: { enabled: boolean }) => (
  <span class={enabled ? 'state-on' : 'state-off'}>{enabled ? 'Enabled' : 'Disabled'}</span>
);

/** The client's topics, to name the workflows' topic_id; without them the id is shown. */
export const useTopics = (api: PageProps['api']) =>
  useLoad(async (signal) => (await api.GET('/api/v1/client/topics', { signal })).data?.data.topics ?? [], [api]);

/**
 * Workflows: every lifecycle workflow the service ships, with its state for this client (GET
 * /client/workflows' `enabled`, from the settings' enabled_workflows), trigger, delay, send time, category and topic.
 * Each row opens the workflow's page.
 */
export function WorkflowsPage({ api, signedIn }: PageProps) {
  const listed = useLoad(
    async (signal) => {
      const answer = await answerOf(api.GET('/api/v1/client/workflows', { signal }), 'Reading the workflows');
      return { workflows: answer.data.workflows, enabled: answer.meta.enabled, max: answer.meta.max_workflows };
    },
    [api],
  );
  const topics = useTopics(api).data;
  const data = listed.data;

  return (
    <section aria-labelledby="wf-workflows-title">
      <PageHead id="wf-workflows-title" title="Workflows" />
      <p class="hint">
        The lifecycle e-mails the service sends for you: each starts on an event your product reports, waits its delay,
        then sends at its send time. Open one for its funnel, its settings and their history.
      </p>
      <LoadStatus loaded={listed} />
      {data && (
        <>
          <p>
            <strong>{data.enabled}</strong> of {data.workflows.length} workflows enabled; your plan runs at most{' '}
            {data.max}.{' '}
            {can(signedIn, 'manage') ? (
              <>
                Choose which run in the settings’ <Link page="settings">enabled workflows</Link>.
              </>
            ) : (
              'An owner or an admin chooses which run, in Settings.'
            )}
          </p>
          <DataTable
            id="wf-workflows-table"
            label="Workflows table"
            caption="Every workflow, as configured for you"
            rows={data.workflows}
            columns={columnsOf(topics)}
          />
          <p class="hint">
            Transactional mail (a failed payment) also reaches contacts who unsubscribed; marketing mail stops for them,
            and for those who left its topic.
          </p>
        </>
      )}
    </section>
  );
}

const columnsOf = (topics: Topic[] | undefined) => [
  {
    head: 'Workflow',
    rowHeader: true,
    class: 'wrap-anywhere',
    cell: (workflow: Workflow) => (
      <>
        <Link page="workflow" params={{ id: String(workflow.id) }}>
          {workflow.name}
        </Link>
        <small>
          #{workflow.id} · {workflow.description}
        </small>
      </>
    ),
  },
  { head: 'State', cell: (workflow: Workflow) => <StateText enabled={workflow.enabled} /> },
  { head: 'Starts on', cell: (workflow: Workflow) => <code>{triggerText(workflow)}</code> },
  { head: 'Delay', cell: (workflow: Workflow) => delayText(workflow.customization.delay_minutes) },
  { head: 'Send time', cell: (workflow: Workflow) => sendTimeText(workflow) },
  {
    head: 'Category',
    cell: (workflow: Workflow) => (workflow.category === 'transactional' ? 'Transactional' : 'Marketing'),
  },
  { head: 'Topic', cell: (workflow: Workflow) => topicText(workflow, topics) },
];
