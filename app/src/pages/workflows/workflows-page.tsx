import { useEffect, useState } from 'preact/hooks';
import { Link } from '../../components/link.js';
import { can } from '../../session.js';
import { answerOf, type Failure, failureOfError } from '../../data/answer.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import type { PageProps } from '../../page.js';
import { delayText, sendTimeText, type Topic, topicText, triggerText, type Workflow } from './wf-text.js';

interface Listed {
  workflows: Workflow[];
  enabled: number;
  max: number;
}

/**
 * Workflows: every lifecycle workflow the service ships, with its state for this client (GET
 * /client/workflows' `enabled`, from the settings' enabled_workflows), trigger, delay, send time, category and topic.
 * Each row opens the workflow's page.
 */
export function WorkflowsPage({ api, signedIn }: PageProps) {
  const [listed, setListed] = useState<Listed | undefined>();
  const [topics, setTopics] = useState<Topic[] | undefined>();
  const [failure, setFailure] = useState<Failure | undefined>();

  useEffect(() => {
    let current = true;
    answerOf(api.GET('/api/v1/client/workflows'), 'Reading the workflows').then(
      (answer) =>
        current &&
        setListed({ workflows: answer.data.workflows, enabled: answer.meta.enabled, max: answer.meta.max_workflows }),
      (error: unknown) => current && setFailure(failureOfError(error)),
    );
    // The topics name the workflows' topic_id; without them the id is shown.
    api.GET('/api/v1/client/topics').then(
      ({ data }) => current && data && setTopics(data.data.topics),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api]);

  return (
    <section aria-labelledby="wf-workflows-title">
      <div class="page-head">
        <h1 id="wf-workflows-title">Workflows</h1>
      </div>
      <p class="hint">
        The lifecycle e-mails the service sends for you: each starts on an event your product reports, waits its delay,
        then sends at its send time. Open one for its funnel, its settings and their history.
      </p>
      <FailureAlert failure={failure} />
      {!listed && !failure && <p aria-busy="true">Loading…</p>}
      {listed && (
        <>
          <p>
            <strong>{listed.enabled}</strong> of {listed.workflows.length} workflows enabled; your plan runs at most{' '}
            {listed.max}.{' '}
            {can(signedIn, 'manage') ? (
              <>
                Choose which run in the settings’ <Link page="settings">enabled workflows</Link>.
              </>
            ) : (
              'An owner or an admin chooses which run, in Settings.'
            )}
          </p>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a region that scrolls must take focus for a keyboard to scroll it (axe scrollable-region-focusable); a <section> would add a landmark heading level. */}
          <div class="table-scroll wf-scroll" tabIndex={0} role="region" aria-label="Workflows table">
            <table class="wf-table" id="wf-workflows-table">
              <caption>Every workflow, as configured for you</caption>
              <thead>
                <tr>
                  <th scope="col">Workflow</th>
                  <th scope="col">State</th>
                  <th scope="col">Starts on</th>
                  <th scope="col">Delay</th>
                  <th scope="col">Send time</th>
                  <th scope="col">Category</th>
                  <th scope="col">Topic</th>
                </tr>
              </thead>
              <tbody>
                {listed.workflows.map((workflow) => (
                  <tr key={workflow.id}>
                    <th scope="row">
                      <Link page="workflow" params={{ id: String(workflow.id) }}>
                        {workflow.name}
                      </Link>
                      <small>
                        #{workflow.id} · {workflow.description}
                      </small>
                    </th>
                    <td>
                      <span class={workflow.enabled ? 'wf-on' : 'wf-off'}>
                        {workflow.enabled ? 'Enabled' : 'Disabled'}
                      </span>
                    </td>
                    <td>
                      <code>{triggerText(workflow)}</code>
                    </td>
                    <td>{delayText(workflow.customization.delay_minutes)}</td>
                    <td>{sendTimeText(workflow)}</td>
                    <td>{workflow.category === 'transactional' ? 'Transactional' : 'Marketing'}</td>
                    <td>{topicText(workflow, topics)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p class="hint">
            Transactional mail (a failed payment) also reaches contacts who unsubscribed; marketing mail stops for them,
            and for those who left its topic.
          </p>
        </>
      )}
    </section>
  );
}
