import type { Api } from '../../api/client.js';
import type { components } from '../../api/openapi.js';
import { Link } from '../../components/link.js';
import { answerOf } from '../../data/answer.js';
import { useLoad } from '../../data/use-load.js';
import type { PageProps } from '../../page.js';
import { can } from '../../session.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { PageHead } from '../../ui/page-head.js';
import { LoadStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';
import { useCopyTemplate } from '../templates/copy-template.js';
import { CustomizationForm } from './customization-form.js';
import { CustomizationHistory } from './customization-history.js';
import { WorkflowStatsSection } from './workflow-stats.js';
import {
  delayText,
  eventsText,
  SEND_TIME_MODES,
  sendTimeText,
  type Topic,
  topicText,
  triggerText,
  type Workflow,
} from './workflow-text.js';
import { StateText, useTopics } from './workflows-page.js';

type Template = components['schemas']['EmailTemplateSummary'];

/** The most pages of templates read for the template choice (100 a page). */
const TEMPLATE_PAGES = 10;

/** Every template the client may choose (the system ones and its own), through POST /client/email-templates/list. */
async function loadTemplates(api: Api, signal: AbortSignal): Promise<Template[]> {
  const all: Template[] = [];
  for (let page = 1; page <= TEMPLATE_PAGES; page += 1) {
    const answer = await answerOf(
      api.POST('/api/v1/client/email-templates/list', { body: { page, per_page: 100 }, signal }),
      'Reading the templates',
    );
    all.push(...answer.data.templates);
    if (page >= answer.meta.total_pages) break;
  }
  return all;
}

/**
 * One workflow: its funnel, conversions and chart; its customization form (roles with `content`) or
 * its settings in effect (the others); a copy of its system template to edit; the history of its customization.
 */
export function WorkflowPage({ api, params, signedIn }: PageProps) {
  const id = Number(params['id']);
  const valid = Number.isInteger(id) && id > 0;
  const editable = can(signedIn, 'content');
  // null: no workflow has this id.
  const loaded = useLoad(
    async (signal) => {
      if (!valid) return null;
      const answer = await answerOf(api.GET('/api/v1/client/workflows', { signal }), 'Reading the workflow');
      return answer.data.workflows.find((one) => one.id === id) ?? null;
    },
    [api, id],
  );
  const topics = useTopics(api).data;
  // Only the form offers templates: a role that reads does not ask for them.
  const templates = useLoad(async (signal) => (editable ? loadTemplates(api, signal) : undefined), [api, editable]);
  const workflow = loaded.data;

  if (!valid || workflow === null) {
    return (
      <section aria-labelledby="wf-missing-title">
        <h1 id="wf-missing-title">No such workflow</h1>
        <p>
          {valid ? `There is no workflow #${id}.` : 'The address names no workflow.'} See{' '}
          <Link page="workflows">every workflow</Link>.
        </p>
      </section>
    );
  }

  return (
    <section aria-labelledby="wf-workflow-title">
      <p class="back-link">
        <Link page="workflows">← Workflows</Link>
      </p>
      <PageHead id="wf-workflow-title" title={workflow ? workflow.name : `Workflow #${id}`}>
        {workflow && (
          <span class="badge">
            <StateText enabled={workflow.enabled} />
          </span>
        )}
      </PageHead>
      <LoadStatus loaded={loaded} />
      <FailureAlert failure={templates.failure} />
      {workflow && (
        <>
          <Summary workflow={workflow} topics={topics} manages={can(signedIn, 'manage')} />
          <p class="hint">
            To change more than its customization allows (its trigger, more steps, waits for your own events), see it{' '}
            <Link page="journey" params={{ id: String(workflow.id) }}>
              as a journey
            </Link>{' '}
            and copy it into one of your own.
          </p>
          <WorkflowStatsSection api={api} workflowId={workflow.id} />
          {editable ? (
            <>
              <CustomizationForm
                api={api}
                workflow={workflow}
                templates={templates.data}
                topics={topics}
                onSaved={loaded.reload}
              />
              <CloneTemplate api={api} workflow={workflow} />
            </>
          ) : (
            <InEffect workflow={workflow} topics={topics} />
          )}
          {/* A change is the newest entry: the history starts again from its first page. */}
          <CustomizationHistory
            key={workflow.customization.updated_at ?? ''}
            api={api}
            workflowId={workflow.id}
            topics={topics}
          />
        </>
      )}
    </section>
  );
}

function Summary({ workflow, topics, manages }: { workflow: Workflow; topics: Topic[] | undefined; manages: boolean }) {
  return (
    <section class="card summary" aria-label="About this workflow">
      <p>{workflow.description}</p>
      <dl class="figures">
        <dt>Starts on</dt>
        <dd>
          <code>{triggerText(workflow)}</code>
        </dd>
        <dt>Delay</dt>
        <dd>{delayText(workflow.customization.delay_minutes)}</dd>
        <dt>Send time</dt>
        <dd>{sendTimeText(workflow)}</dd>
        <dt>Category</dt>
        <dd>
          {workflow.category === 'transactional' ? 'Transactional: also reaches unsubscribed contacts' : 'Marketing'}
        </dd>
        <dt>Topic</dt>
        <dd>{topicText(workflow, topics)}</dd>
        <dt>Template</dt>
        <dd>
          {workflow.template
            ? `${workflow.template.name} (#${workflow.template.id}${workflow.template.type === 2 ? ', yours' : ', system'})`
            : `#${workflow.customization.template_id}`}
        </dd>
      </dl>
      {!workflow.enabled && (
        <p class="hint">
          Disabled: its events start nothing.{' '}
          {manages ? (
            <>
              Enable it in the settings’ <Link page="settings">enabled workflows</Link>.
            </>
          ) : (
            'An owner or an admin enables it in Settings.'
          )}
        </p>
      )}
    </section>
  );
}

/** What a role without `content` sees instead of the form: the settings in effect. */
function InEffect({ workflow, topics }: { workflow: Workflow; topics: Topic[] | undefined }) {
  const c = workflow.customization;
  const mode = SEND_TIME_MODES.find((one) => one.mode === c.send_time_mode);
  return (
    <section class="card page-section" aria-labelledby="wf-effect-title">
      <h2 id="wf-effect-title">Customization</h2>
      <dl class="figures">
        <dt>Template</dt>
        <dd>{workflow.template ? `${workflow.template.name} (#${workflow.template.id})` : `#${c.template_id}`}</dd>
        <dt>Delay</dt>
        <dd>
          {c.delay_minutes} min ({delayText(c.delay_minutes)})
        </dd>
        <dt>Priority</dt>
        <dd>{c.priority_score}</dd>
        <dt>Send time</dt>
        <dd>
          {c.send_time_mode} · {mode?.name}
          {c.preferred_send_hour !== null
            ? ` (${String(c.preferred_send_hour).padStart(2, '0')}:${String(c.preferred_send_minute ?? 0).padStart(2, '0')})`
            : ''}
        </dd>
        <dt>Exit events</dt>
        <dd>
          {eventsText(c.exit_events)}
          {c.overrides.exit_events === null ? ' (default)' : ''}
        </dd>
        <dt>Conversion window</dt>
        <dd>{c.conversion_window_days} days</dd>
        <dt>Topic</dt>
        <dd>{topicText(workflow, topics)}</dd>
        <dt>Last changed</dt>
        <dd>
          <When at={c.updated_at} />
        </dd>
      </dl>
      <p class="hint">Your role reads the customization; a member, an admin or the owner changes it.</p>
    </section>
  );
}

/** POST /client/workflows/{id}/clone-template, then the copy's page to edit it (the copy is used once chosen above). */
function CloneTemplate({ api, workflow }: { api: Api; workflow: Workflow }) {
  const copy = workflow.clone_template_id;
  const clone = useCopyTemplate(api);

  return (
    <section class="card page-section" aria-labelledby="wf-clone-title">
      <h2 id="wf-clone-title">Your own copy of the template</h2>
      {copy ? (
        <p>
          You have a copy of this workflow’s system template:{' '}
          <Link page="template" params={{ id: String(copy) }}>
            edit your copy (#{copy})
          </Link>
          .{' '}
          {workflow.customization.template_id === copy
            ? 'This workflow sends it.'
            : 'Choose it as the template above for this workflow to send it.'}
        </p>
      ) : (
        <>
          <p>
            Copy the system template into your templates and edit it. The workflow keeps sending the system one until
            you choose the copy as its template above.
          </p>
          <button type="button" onClick={() => void clone.run(workflow.id)} disabled={clone.busy}>
            {clone.busy ? 'Copying…' : 'Copy the system template and edit it'}
          </button>
        </>
      )}
      <FailureAlert failure={clone.failure} />
    </section>
  );
}
