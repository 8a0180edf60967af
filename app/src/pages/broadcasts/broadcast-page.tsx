import { useState } from 'preact/hooks';
import type { Api } from '../../api/client.js';
import { Link } from '../../components/link.js';
import { answerOf } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import { useLoad } from '../../data/use-load.js';
import type { PageProps } from '../../page.js';
import { navigate } from '../../router.js';
import { can } from '../../session.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { PageHead } from '../../ui/page-head.js';
import { ActionStatus, Done, LoadStatus } from '../../ui/status.js';
import { countText } from '../segments/segment-text.js';
import { When } from '../../ui/when.js';
import { useRereadWhile } from '../segments/reread.js';
import { AbReport, METRIC_TEXT, variantLabel } from './broadcast-ab.js';
import { BroadcastFollowUps } from './broadcast-follow-ups.js';
import { EditDraftForm } from './broadcast-form.js';
import { BroadcastLinks } from './broadcast-links.js';
import { BroadcastRecipients } from './broadcast-recipients.js';
import { BroadcastReport } from './broadcast-report.js';
import { TestSend } from './broadcast-test.js';
import { audienceText, type Broadcast, MOVING } from './broadcast-text.js';
import { useAudienceNames } from './audience-names.js';
import { BroadcastStatusText } from './broadcasts-page.js';

/** How often a broadcast on its way is read again. */
export const PROGRESS_REREAD_MS = 5000;

/**
 * One broadcast (`/app/broadcast/N`): a draft shows what it will send, to whom and when, and Schedule; once scheduled
 * or started, its report (totals read again every 5 s while it moves, Pause / Resume / Cancel).
 */
export function BroadcastPage({ api, params, signedIn }: PageProps) {
  const id = params['id'] ?? '';
  if (!/^\d+$/.test(id)) {
    return (
      <section aria-labelledby="bc-missing-title">
        <h1 id="bc-missing-title">No such broadcast</h1>
        <p>
          {id ? `There is no broadcast named ${id}.` : 'The address names no broadcast.'} See{' '}
          <Link page="broadcasts">every broadcast</Link>.
        </p>
      </section>
    );
  }
  return (
    <BroadcastView
      key={id}
      api={api}
      id={id}
      writes={can(signedIn, 'content')}
      manages={can(signedIn, 'manage')}
      ownEmail={signedIn.user.email}
    />
  );
}

function BroadcastView(props: { api: Api; id: string; writes: boolean; manages: boolean; ownEmail: string }) {
  const { api, id, writes, manages, ownEmail } = props;
  const path = { params: { path: { id } } };
  const loaded = useLoad(
    async (signal) =>
      (await answerOf(api.GET('/api/v1/client/broadcasts/{id}', { ...path, signal }), 'Reading the broadcast')).data,
    [api, id],
  );
  const broadcast = loaded.data;
  useRereadWhile(broadcast !== undefined && MOVING.includes(broadcast.status), PROGRESS_REREAD_MS, loaded);
  const names = useAudienceNames(api);
  const [said, setSaid] = useState('');
  return (
    <section aria-labelledby="bc-broadcast-title">
      <p class="back-link">
        <Link page="broadcasts">← Broadcasts</Link>
      </p>
      <PageHead id="bc-broadcast-title" title={broadcast?.name ?? `Broadcast #${id}`}>
        {broadcast && (
          <span class="badge">
            <BroadcastStatusText broadcast={broadcast} />
          </span>
        )}
      </PageHead>
      <LoadStatus loaded={loaded} />
      {broadcast && (
        <>
          <section class="card summary" aria-label="About this broadcast">
            <dl class="figures">
              <dt>Status</dt>
              <dd>
                <BroadcastStatusText broadcast={broadcast} />
              </dd>
              <dt>Audience</dt>
              <dd>{audienceText(broadcast.definition?.audience, names)}</dd>
              <dt>Last changed</dt>
              <dd>
                <When at={broadcast.updated_at} />
              </dd>
            </dl>
          </section>
          <Done text={said} />
          {broadcast.status === 'draft' ? (
            <DraftSummary
              api={api}
              broadcast={broadcast}
              manages={manages}
              writes={writes}
              segmentCount={
                names.segmentList.find((s) => {
                  const audience = broadcast.definition.audience;
                  return audience !== undefined && 'segment_id' in audience && s.id === audience.segment_id;
                })?.count
              }
              onChanged={(scheduled, words) => {
                setSaid(words);
                // A move's answer has no link report: the last read's stays until the next.
                loaded.update((old) => ({ ...old, ...scheduled }));
              }}
              onReload={() => {
                setSaid('');
                loaded.reload();
              }}
            />
          ) : (
            <BroadcastReport
              api={api}
              broadcast={broadcast}
              writes={writes}
              manages={manages}
              onChanged={(changed, words) => {
                setSaid(words);
                loaded.update((old) => ({ ...old, ...changed }));
              }}
            />
          )}
          {broadcast.status !== 'draft' && <AbReport broadcast={broadcast} />}
          {broadcast.status !== 'draft' && <BroadcastLinks broadcast={broadcast} />}
          {broadcast.status !== 'draft' && broadcast.started_at !== null && (
            <BroadcastRecipients api={api} broadcast={broadcast} />
          )}
          {broadcast.status !== 'draft' && (
            <BroadcastFollowUps
              api={api}
              broadcast={broadcast}
              manages={manages}
              onChanged={(changed, words) => {
                setSaid(words);
                loaded.update((old) => ({ ...old, ...changed }));
              }}
            />
          )}
          {writes && <TestSend api={api} broadcast={broadcast} ownEmail={ownEmail} />}
        </>
      )}
    </section>
  );
}

/** A draft: its template, subject and schedule; owners and admins schedule it after a question naming the audience. */
function DraftSummary(props: {
  api: Api;
  broadcast: Broadcast;
  manages: boolean;
  writes: boolean;
  segmentCount: number | undefined;
  onChanged: (broadcast: Broadcast, words: string) => void;
  onReload: () => void;
}) {
  const { api, broadcast, manages, writes, segmentCount, onChanged, onReload } = props;
  const [editing, setEditing] = useState(false);
  const definition = broadcast.definition;
  const variant = definition.variants?.[0];
  const schedule = definition.schedule ?? { mode: 'now' };
  const when =
    schedule.mode === 'now'
      ? 'now'
      : schedule.mode === 'at'
        ? `at ${new Date(schedule.send_at).toLocaleString()}`
        : `on ${schedule.date} at ${schedule.time} in each contact’s zone`;
  const audience = definition.audience;
  const audienceWords =
    segmentCount !== undefined
      ? `${countText(segmentCount)} ${segmentCount === 1 ? 'contact' : 'contacts'}`
      : audience && 'topic_id' in audience
        ? 'every subscriber of the topic'
        : 'every subscribed contact';
  const schedule_ = useAction(async () => {
    const answer = await answerOf(
      api.POST('/api/v1/client/broadcasts/{id}/schedule', {
        params: { path: { id: String(broadcast.id) } },
        body: { draft_version: broadcast.draft_version },
      }),
      'Scheduling the broadcast',
    );
    onChanged(answer.data, schedule.mode === 'now' ? 'Sending has started.' : 'Scheduled.');
  });
  const remove = useAction(async () => {
    await answerOf(
      api.DELETE('/api/v1/client/broadcasts/{id}', { params: { path: { id: String(broadcast.id) } } }),
      'Deleting the draft',
    );
    navigate('broadcasts');
  });
  if (editing)
    return (
      <section class="card page-section" aria-label="Draft">
        <EditDraftForm
          api={api}
          broadcast={broadcast}
          onSaved={(saved) => {
            setEditing(false);
            onChanged(saved, 'Draft saved.');
          }}
          onCancel={() => setEditing(false)}
          onStale={() => {
            setEditing(false);
            onReload();
          }}
        />
      </section>
    );
  return (
    <section class="card page-section" aria-labelledby="bc-draft-title">
      <h2 id="bc-draft-title">Draft</h2>
      <dl class="figures">
        <dt>Template</dt>
        <dd>{variant ? `#${variant.template_id}` : '—'}</dd>
        <dt>Subject</dt>
        <dd>{variant?.subject || 'The template’s own'}</dd>
        <dt>Sends</dt>
        <dd>{when}</dd>
        {definition.ab && (definition.variants?.length ?? 0) > 1 && (
          <>
            <dt>A/B test</dt>
            <dd>
              {(definition.variants ?? [])
                .map((v, at) => `${variantLabel(at)}: #${v.template_id}, “${v.subject ?? 'the template’s subject'}”`)
                .join('; ')}
              . Tested on {definition.ab.test_percent} % of the audience; the winner on{' '}
              {METRIC_TEXT[definition.ab.metric]} per e-mail delivered, {definition.ab.decide_after_hours} h after the
              start, goes to the rest.
            </dd>
          </>
        )}
      </dl>
      {writes && (
        <p>
          <button type="button" class="secondary" onClick={() => setEditing(true)}>
            Edit draft
          </button>
        </p>
      )}
      {schedule.mode === 'local_time' && (
        <p class="hint">
          Each contact gets it at {schedule.time} of their own zone on {schedule.date}; scheduled late, a zone whose
          hour has already passed gets it at that hour the next day.
        </p>
      )}
      {manages ? (
        <ConfirmButton
          label="Schedule"
          confirm={`Send “${broadcast.name}” to ${audienceWords} ${when}?`}
          busy={schedule_.busy}
          onConfirm={() => schedule_.run()}
        />
      ) : (
        <p class="hint">An owner or an admin schedules broadcasts: they decide mail at volume.</p>
      )}
      <ActionStatus action={schedule_} />
      {writes && (
        <div class="danger-zone">
          <ConfirmButton
            label="Delete draft"
            confirm={`Delete the draft “${broadcast.name}”? It cannot be undone.`}
            danger
            busy={remove.busy}
            onConfirm={() => remove.run()}
          />
          <ActionStatus action={remove} />
        </div>
      )}
    </section>
  );
}
