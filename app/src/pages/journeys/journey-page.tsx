import { useMemo, useState } from 'preact/hooks';
import { JOURNEY_LIMITS } from '../../../../shared/public/journey-rules.js';
import type { Api } from '../../api/client.js';
import { Link } from '../../components/link.js';
import { answerOf } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import { useDraft } from '../../data/use-draft.js';
import { type Loaded, useLoad } from '../../data/use-load.js';
import { usePatch } from '../../data/use-patch.js';
import type { PageProps } from '../../page.js';
import { navigate } from '../../router.js';
import { can } from '../../session.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { Form } from '../../ui/form.js';
import { FormActions } from '../../ui/form-actions.js';
import { TextField } from '../../ui/inputs.js';
import { PageHead } from '../../ui/page-head.js';
import { Done, LoadStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';
import { DraftWorkspace, JsonTools } from './journey-editor.js';
import { useStepCounts } from './journey-counts.js';
import { FlowView, type ViewOfJourney, ViewPanel, ViewTabs } from './journey-flow.js';
import { Lifecycle } from './journey-lifecycle.js';
import { JourneyOutline } from './journey-outline.js';
import { type Journey, jsonOf } from './journey-text.js';
import { Versions } from './journey-versions.js';
import { JourneyStatusText } from './journeys-page.js';

/**
 * One journey (`/app/journey/N`). A client's own: its head, its draft drawn as a flow (each step's panel beside it)
 * or as JSON (save, import, export, copy) with the issues found at their place and its steps as an outline, validate with the impact on runs, publish with a choice
 * for each removed step, its lifecycle (pause, resume, archive; delete while never published) and its versions with
 * their diff. A system journey (1–8) is read-only: its flow (the panel read-only), outline and JSON, and a copy to make it one's
 * own.
 */
export function JourneyPage({ api, params, signedIn }: PageProps) {
  const id = params['id'] ?? '';
  if (!/^\d+$/.test(id)) {
    return (
      <section aria-labelledby="jy-missing-title">
        <h1 id="jy-missing-title">No such journey</h1>
        <p>
          {id ? `There is no journey named ${id}.` : 'The address names no journey.'} See{' '}
          <Link page="journeys">every journey</Link>.
        </p>
      </section>
    );
  }
  // Another journey is another page: nothing of the one before (its text, a validation) stays.
  return <JourneyView key={id} api={api} id={id} signedIn={signedIn} />;
}

function JourneyView({ api, id, signedIn }: { api: Api; id: string; signedIn: PageProps['signedIn'] }) {
  const path = { params: { path: { id } } };
  const loaded = useLoad(
    async (signal) =>
      (await answerOf(api.GET('/api/v1/client/journeys/{id}', { ...path, signal }), 'Reading the journey')).data,
    [api, id],
  );
  const journey = loaded.data;
  const counts = useStepCounts(api, id, journey !== undefined && !journey.system && journey.live_version !== null);
  const [published, setPublished] = useState('');
  const writes = can(signedIn, 'content');
  const manages = can(signedIn, 'manage');

  return (
    <section aria-labelledby="jy-journey-title">
      <p class="back-link">
        <Link page="journeys">← Journeys</Link>
      </p>
      <PageHead id="jy-journey-title" title={journey?.name ?? `Journey #${id}`}>
        {journey && (
          <span class="badge">
            <JourneyStatusText journey={journey} />
          </span>
        )}
      </PageHead>
      <LoadStatus loaded={loaded} />
      {journey && (
        <>
          <Head journey={journey} />
          {journey.system ? (
            <SystemJourney api={api} journey={journey} writes={writes} />
          ) : (
            <>
              {/* A publish starts the draft's part again on the new version (its draft_version as the API has it). */}
              <DraftWorkspace
                key={`${journey.id}-${journey.live_version}`}
                api={api}
                journey={journey}
                writes={writes && journey.status !== 'archived'}
                manages={manages && journey.status !== 'archived'}
                published={published}
                counts={counts}
                onPublished={(said) => {
                  setPublished(said);
                  loaded.reload();
                }}
              />
              {journey.live_version !== null && <Versions key={journey.live_version} api={api} journey={journey} />}
              {writes && journey.status !== 'archived' && <Rename api={api} journey={journey} loaded={loaded} />}
              {(writes || manages) && <Lifecycle api={api} journey={journey} manages={manages} loaded={loaded} />}
            </>
          )}
        </>
      )}
    </section>
  );
}

/** The journey's head: status, live version, where it came from, when it changed. */
function Head({ journey }: { journey: Journey }) {
  return (
    <section class="card summary" aria-label="About this journey">
      {journey.description && <p>{journey.description}</p>}
      <dl class="figures">
        <dt>Status</dt>
        <dd>
          <JourneyStatusText journey={journey} />
        </dd>
        <dt>Live version</dt>
        <dd>
          {journey.live_version ??
            (journey.system ? 'Always the workflow’s customization' : 'None yet: publish the draft to start runs')}
        </dd>
        <dt>Kind</dt>
        <dd>{journey.system ? 'System journey (read-only)' : 'Yours'}</dd>
        {journey.copied_from !== null && journey.copied_from !== undefined && (
          <>
            <dt>Copied from</dt>
            <dd>
              <Link page="journey" params={{ id: String(journey.copied_from) }}>
                System journey #{journey.copied_from}
              </Link>
            </dd>
          </>
        )}
        {!journey.system && (
          <>
            <dt>Last changed</dt>
            <dd>
              <When at={journey.updated_at} />
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}

/** A system journey: its flow (the panel read-only) and its JSON, and a copy of it as a journey of the client's own. */
function SystemJourney({ api, journey, writes }: { api: Api; journey: Journey; writes: boolean }) {
  const definition = journey.live ?? journey.draft;
  const text = jsonOf(definition);
  const [view, setView] = useState<ViewOfJourney>('flow');
  return (
    <>
      <p class="hint">
        This is the{' '}
        <Link page="workflow" params={{ id: String(journey.id) }}>
          workflow “{journey.name}”
        </Link>{' '}
        written as a journey: change its template, delay, send time or exits in its customization, or copy it to change
        anything.
      </p>
      {writes && <CopyAsMine api={api} journey={journey} />}
      <section class="page-section" aria-labelledby="jy-system-journey-title">
        <h2 id="jy-system-journey-title">The journey</h2>
        <ViewTabs view={view} onView={setView} />
        {view === 'flow' ? (
          <ViewPanel view="flow">
            <FlowView api={api} definition={definition} issues={[]} readOnly />
          </ViewPanel>
        ) : (
          <ViewPanel view="json">
            <JourneyOutline definition={definition} prefix="jy-live" title="Steps" />
            <div class="field">
              <label for="jy-json">The journey as JSON (read-only)</label>
              <textarea id="jy-json" class="code-input" rows={18} value={text} readOnly spellcheck={false} />
            </div>
            <JsonTools text={text} fileName={`journey-${journey.id}.json`} />
          </ViewPanel>
        )}
      </section>
    </>
  );
}

/** POST /client/journeys {copy_of, name}: the client's own draft of this system journey, then its page. */
function CopyAsMine({ api, journey }: { api: Api; journey: Journey }) {
  const { draft, bind } = useDraft({ name: `${journey.name} (copy)` });
  const copy = useAction(async () => {
    const body = { copy_of: journey.id, name: draft.name.trim() };
    const answer = await answerOf(api.POST('/api/v1/client/journeys', { body }), 'Copying the journey');
    navigate('journey', { id: String(answer.data.id) });
  });
  return (
    <Form class="card stacked-form" onSubmit={copy.run} failure={copy.failure} aria-labelledby="jy-copy-mine-title">
      <h2 id="jy-copy-mine-title">Copy as my journey</h2>
      <TextField id="jy-copy-mine-name" label="Name of the copy" {...bind('name')} required />
      <FailureAlert />
      <FormActions submit="Copy as my journey" busy={copy.busy} busyLabel="Copying…" />
    </Form>
  );
}

/** PATCH /client/journeys/{id}: the name and description people see (the engine reads neither). */
function Rename({ api, journey, loaded }: { api: Api; journey: Journey; loaded: Pick<Loaded<Journey>, 'update'> }) {
  const saved = useMemo(() => ({ name: journey.name, description: journey.description }), [journey]);
  const patch = usePatch({
    saved,
    send: async (body) => {
      const answer = await answerOf(
        api.PATCH('/api/v1/client/journeys/{id}', { params: { path: { id: String(journey.id) } }, body }),
        'Saving the name',
      );
      loaded.update(() => answer.data);
      return 'Saved.';
    },
  });
  return (
    <Form
      class="card page-section stacked-form"
      onSubmit={patch.run}
      failure={patch.failure}
      aria-labelledby="jy-rename-title"
    >
      <h2 id="jy-rename-title">Name and description</h2>
      <TextField
        id="jy-name"
        label="Name"
        name="name"
        value={patch.draft.name}
        onValue={(value) => patch.set('name', value)}
        maxLength={JOURNEY_LIMITS.nameChars}
        required
      />
      <TextField
        id="jy-description"
        label="Description"
        name="description"
        value={patch.draft.description}
        onValue={(value) => patch.set('description', value)}
        maxLength={JOURNEY_LIMITS.descriptionChars}
        hint="For your team: what the journey is for."
      />
      <FailureAlert />
      <FormActions submit="Save name" busy={patch.busy} busyLabel="Saving…">
        <Done text={patch.done} />
      </FormActions>
    </Form>
  );
}
