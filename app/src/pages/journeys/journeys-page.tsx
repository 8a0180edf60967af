import { JOURNEY_LIMITS } from '../../../../shared/public/journey-rules.js';
import type { Api } from '../../api/client.js';
import { Link } from '../../components/link.js';
import { answerOf } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import { useDraft } from '../../data/use-draft.js';
import { useLoad } from '../../data/use-load.js';
import type { PageProps } from '../../page.js';
import { navigate } from '../../router.js';
import { can } from '../../session.js';
import { type Column, DataTable } from '../../ui/data-table.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { Form } from '../../ui/form.js';
import { FormActions } from '../../ui/form-actions.js';
import { Options, SelectField, TextField } from '../../ui/inputs.js';
import { PageHead } from '../../ui/page-head.js';
import { LoadStatus } from '../../ui/status.js';
import { type JourneySummary, STATUS_TEXT } from './journey-text.js';

/** A journey's status as a coloured word (a system journey's is whether its workflow is enabled). */
export const JourneyStatusText = ({ journey }: { journey: Pick<JourneySummary, 'status'> }) => (
  <span class={`outcome outcome-${journey.status}`}>{STATUS_TEXT[journey.status]}</span>
);

/**
 * Journeys: the 8 system journeys (the workflows, written as journeys) and the client's own, with their status and
 * live version. Roles with `content` start a new journey or copy a system one, which then opens on its own page.
 */
export function JourneysPage({ api, signedIn }: PageProps) {
  const list = useLoad(
    async (signal) => {
      const answer = await answerOf(api.GET('/api/v1/client/journeys', { signal }), 'Reading the journeys');
      return { journeys: answer.data.journeys, total: answer.meta.total, max: answer.meta.max_journeys };
    },
    [api],
  );
  const editable = can(signedIn, 'content');
  const data = list.data;
  const system = data?.journeys.filter((journey) => journey.system) ?? [];
  const own = data?.journeys.filter((journey) => !journey.system) ?? [];
  const full = data !== undefined && own.filter((journey) => journey.status !== 'archived').length >= data.max;

  return (
    <section aria-labelledby="jy-title">
      <PageHead id="jy-title" title="Journeys" />
      <p class="hint">
        A journey starts on an event your product sends and runs its steps for each contact: sends, waits (for a time,
        or for another event with the same key), branches and contact updates. Write one as JSON, validate it, then
        publish it: contacts already inside follow each new version at their next step.
      </p>
      <LoadStatus loaded={list} />
      {data && (
        <>
          {editable && !full && (
            <div class="cards">
              <NewJourney api={api} />
              <CopyJourney api={api} system={system} />
            </div>
          )}
          {editable && full && (
            <p class="hint">
              Your plan holds at most {data.max} journeys that are not archived: archive one to start another.
            </p>
          )}
          {!editable && <p class="hint">Your role reads the journeys; a member, an admin or the owner writes them.</p>}
          <section class="page-section" aria-labelledby="jy-own-title">
            <h2 id="jy-own-title">Your journeys</h2>
            <DataTable
              id="jy-own-table"
              label="Your journeys table"
              caption={`${own.filter((journey) => journey.status !== 'archived').length} of at most ${data.max} journeys (archived ones aside)`}
              rows={own}
              columns={COLUMNS}
              empty={
                <div class="card empty">
                  <p>No journey of your own yet. Start one above, or copy a system journey to change anything in it.</p>
                </div>
              }
            />
          </section>
          <section class="page-section" aria-labelledby="jy-system-title">
            <h2 id="jy-system-title">System journeys</h2>
            <p class="hint">
              The <Link page="workflows">workflows</Link>, written as journeys: read-only here (their settings are the
              workflow’s customization). Copy one to make it your own.
            </p>
            <DataTable
              id="jy-system-table"
              label="System journeys table"
              caption="The 8 system journeys"
              rows={system}
              columns={SYSTEM_COLUMNS}
            />
          </section>
        </>
      )}
    </section>
  );
}

const NAME_COLUMN: Column<JourneySummary> = {
  head: 'Journey',
  rowHeader: true,
  class: 'wrap-anywhere',
  cell: (journey) => (
    <>
      <Link page="journey" params={{ id: String(journey.id) }}>
        {journey.name}
      </Link>
      <small>
        #{journey.id}
        {journey.description ? ` · ${journey.description}` : ''}
      </small>
    </>
  ),
};
const STATUS_COLUMN: Column<JourneySummary> = {
  head: 'Status',
  cell: (journey) => <JourneyStatusText journey={journey} />,
};

/** The client's own: their status and the version runs start on. */
const COLUMNS: Column<JourneySummary>[] = [
  NAME_COLUMN,
  STATUS_COLUMN,
  { head: 'Live version', cell: (journey) => journey.live_version ?? '—' },
];
/** The system journeys: live while their workflow is enabled; their settings are the workflow's, not versions. */
const SYSTEM_COLUMNS: Column<JourneySummary>[] = [NAME_COLUMN, STATUS_COLUMN];

/** Creates a journey with its name (the API starts its draft), then opens it. */
function NewJourney({ api }: { api: Api }) {
  const { draft, bind } = useDraft({ name: '' });
  const create = useAction(async () => {
    const body = { name: draft.name.trim() };
    const answer = await answerOf(api.POST('/api/v1/client/journeys', { body }), 'Creating the journey');
    navigate('journey', { id: String(answer.data.id) });
  });
  return (
    <Form class="card stacked-form" onSubmit={create.run} failure={create.failure} aria-labelledby="jy-new-title">
      <h2 id="jy-new-title">New journey</h2>
      <TextField
        id="jy-new-name"
        label="Name"
        {...bind('name')}
        maxLength={JOURNEY_LIMITS.nameChars}
        hint="What it is for, e.g. “Cart reminder”. Its page then takes the steps as JSON."
        required
      />
      <FailureAlert />
      <FormActions submit="Create journey" busy={create.busy} busyLabel="Creating…" />
    </Form>
  );
}

/** Copies a system journey into a draft of the client's own (POST {copy_of, name}), then opens it. */
function CopyJourney({ api, system }: { api: Api; system: JourneySummary[] }) {
  const { draft, setDraft, bind } = useDraft({ copy_of: String(system[0]?.id ?? ''), name: '' });
  const chosen = system.find((journey) => String(journey.id) === draft.copy_of);
  const copy = useAction(async () => {
    const name = draft.name.trim() || `${chosen?.name ?? 'Journey'} (copy)`;
    const body = { copy_of: Number(draft.copy_of), name };
    const answer = await answerOf(api.POST('/api/v1/client/journeys', { body }), 'Copying the journey');
    navigate('journey', { id: String(answer.data.id) });
  });
  return (
    <Form class="card stacked-form" onSubmit={copy.run} failure={copy.failure} aria-labelledby="jy-copy-title">
      <h2 id="jy-copy-title">Copy a system journey</h2>
      <SelectField
        id="jy-copy-of"
        label="System journey"
        name="copy_of"
        value={draft.copy_of}
        onValue={(value) => setDraft({ ...draft, copy_of: value })}
      >
        <Options of={system} value={(journey) => journey.id} text={(journey) => `${journey.name} (#${journey.id})`} />
      </SelectField>
      <TextField
        id="jy-copy-name"
        label="Name of the copy"
        {...bind('name')}
        maxLength={JOURNEY_LIMITS.nameChars}
        hint={`Left empty: “${chosen?.name ?? 'Journey'} (copy)”. Publishing the copy while its workflow is enabled asks to disable the workflow.`}
      />
      <FailureAlert />
      <FormActions submit="Copy journey" busy={copy.busy} busyLabel="Copying…" />
    </Form>
  );
}
