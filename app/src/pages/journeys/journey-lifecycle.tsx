import type { Api } from '../../api/client.js';
import { answerOf } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import type { Loaded } from '../../data/use-load.js';
import { navigate } from '../../router.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { ActionStatus } from '../../ui/status.js';
import type { Journey } from './journey-text.js';

type Step = 'pause' | 'resume' | 'archive';

const WHAT_TEXT: Record<Step, string> = {
  pause: 'Pausing the journey',
  resume: 'Resuming the journey',
  archive: 'Archiving the journey',
};

const DONE_TEXT: Record<Step, string> = {
  pause: 'Paused: no new run starts, and runs inside hold at their next step until you resume.',
  resume: 'Resumed: new runs start again, and runs held go on.',
  archive: 'Archived: no new run starts, and runs inside end at their next step.',
};

/**
 * What cannot be taken back, or stops mail: pause and resume (`manage`), archive (`manage`, for good), and delete for
 * a journey never published (`content`: nothing ever ran on it).
 */
export function Lifecycle(props: {
  api: Api;
  journey: Journey;
  manages: boolean;
  loaded: Pick<Loaded<Journey>, 'update'>;
}) {
  const { api, journey, manages, loaded } = props;
  const path = { params: { path: { id: String(journey.id) } } };
  const change = useAction(async (step: Step) => {
    const request =
      step === 'pause'
        ? api.POST('/api/v1/client/journeys/{id}/pause', path)
        : step === 'resume'
          ? api.POST('/api/v1/client/journeys/{id}/resume', path)
          : api.POST('/api/v1/client/journeys/{id}/archive', path);
    const answer = await answerOf(request, WHAT_TEXT[step]);
    loaded.update(() => answer.data);
    return DONE_TEXT[step];
  });
  const remove = useAction(async () => {
    await answerOf(api.DELETE('/api/v1/client/journeys/{id}', path), 'Deleting the journey');
    navigate('journeys');
  });
  const busy = change.busy || remove.busy;
  const { status } = journey;
  const neverPublished = journey.live_version === null || journey.live_version === undefined;

  if (status === 'archived') {
    return (
      <section class="card page-section" aria-labelledby="jy-life-title">
        <h2 id="jy-life-title">Archived</h2>
        <p>This journey starts no run and the runs that were inside have ended. Its versions stay readable.</p>
        <ActionStatus action={change} />
      </section>
    );
  }
  return (
    <section class="card danger-zone" aria-labelledby="jy-life-title">
      <h2 id="jy-life-title">Stop or remove</h2>
      {manages && status === 'live' && (
        <p>
          <button type="button" class="secondary" disabled={busy} onClick={() => change.run('pause')}>
            Pause
          </button>{' '}
          No new run starts; runs inside hold at their next step until you resume.
        </p>
      )}
      {manages && status === 'paused' && (
        <p>
          <button type="button" disabled={busy} onClick={() => change.run('resume')}>
            Resume
          </button>{' '}
          New runs start again; runs held go on from where they are.
        </p>
      )}
      {manages && (status === 'live' || status === 'paused') && (
        <>
          <p>
            Archive for good: no new run starts, runs inside end at their next step, and it cannot be published again.
          </p>
          <ConfirmButton
            label="Archive"
            name={`Archive ${journey.name}`}
            confirm={`Archive ${journey.name} for good?`}
            busy={busy}
            danger
            onConfirm={() => change.run('archive')}
          />
        </>
      )}
      {neverPublished && (
        <>
          <p>Never published, so no run ever started on it: it can be deleted.</p>
          <ConfirmButton
            label="Delete"
            name={`Delete ${journey.name}`}
            confirm={`Delete ${journey.name} and its draft for good?`}
            busy={busy}
            danger
            onConfirm={() => remove.run()}
          />
        </>
      )}
      {!manages && !neverPublished && <p class="hint">An owner or an admin pauses, resumes and archives a journey.</p>}
      <ActionStatus action={change} />
      <ActionStatus action={remove} />
    </section>
  );
}
