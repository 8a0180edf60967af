import { useEffect, useState } from 'preact/hooks';
import { navigate } from '../../router.js';
import { BROADCAST_LIMITS } from '../../../../shared/public/broadcast-rules.js';
import type { Api } from '../../api/client.js';
import type { components } from '../../api/openapi.js';
import { answerOf } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import { useLoad } from '../../data/use-load.js';
import { FieldGroup } from '../../ui/field-group.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { Field } from '../../ui/field.js';
import { Form } from '../../ui/form.js';
import { FormActions } from '../../ui/form-actions.js';
import { CheckField, Options, SelectField, TextField } from '../../ui/inputs.js';
import { countText } from '../segments/segment-text.js';
import { type Broadcast, type BroadcastDraft, definitionOf, draftOf, EMPTY_DRAFT } from './broadcast-text.js';
import { useAudienceNames } from './audience-names.js';

/** At most this many pages of 100 templates are offered (a client with more picks among the first 500). */
const TEMPLATE_PAGES = 5;

/** The templates a broadcast may send, by name (system and the client's own). */
function useTemplates(api: Api) {
  return useLoad(
    async (signal) => {
      const all: { id: number; name: string }[] = [];
      for (let page = 1; page <= TEMPLATE_PAGES; page += 1) {
        const answer = await answerOf(
          api.POST('/api/v1/client/email-templates/list', { body: { page, per_page: 100 }, signal }),
          'Reading the templates',
        );
        all.push(...answer.data.templates.map((t) => ({ id: t.id, name: t.name })));
        if (page >= answer.meta.total_pages) break;
      }
      return all;
    },
    [api],
  );
}

/**
 * A new broadcast: its name, content (template and subject), audience and schedule, created as a draft (POST
 * /client/broadcasts with the whole definition; the API lists what is missing at its field), which then opens on its
 * page to be scheduled.
 */
export function NewBroadcastForm({ api }: { api: Api }) {
  const [draft, setDraft] = useState<BroadcastDraft>(EMPTY_DRAFT);
  const create = useAction(async () => {
    const body = { name: draft.name.trim(), definition: definitionOf(draft, {}) };
    const answer = await answerOf(
      api.POST('/api/v1/client/broadcasts', { body: body as components['schemas']['BroadcastCreate'] }),
      'Creating the broadcast',
    );
    navigate('broadcast', { id: String(answer.data.id) });
  });

  return (
    <Form class="page-section" onSubmit={create.run} failure={create.failure} aria-labelledby="bc-new-title">
      <h2 id="bc-new-title">New broadcast</h2>
      <BroadcastFields api={api} draft={draft} onDraft={setDraft} />
      <FailureAlert />
      <FormActions submit="Create draft" busy={create.busy} busyLabel="Creating…" />
    </Form>
  );
}

/**
 * A draft changed in place: the same fields, filled from it, saved whole (PUT /client/broadcasts/{id} with the
 * `draft_version` read). What the form does not show (more variants and their A/B test, a conversion, the priority,
 * the category) is kept as saved. Saved meanwhile elsewhere (another tab, the API), the save is refused (409) and
 * nothing is written: the page offers to read the draft again.
 */
export function EditDraftForm(props: {
  api: Api;
  broadcast: Broadcast;
  onSaved: (broadcast: Broadcast) => void;
  onCancel: () => void;
  onStale: () => void;
}) {
  const { api, broadcast, onSaved, onCancel, onStale } = props;
  const [draft, setDraft] = useState<BroadcastDraft>(() => draftOf(broadcast));
  // Opened by a button that the form replaces: the keyboard's focus goes on to its first field.
  useEffect(() => document.getElementById('bc-name')?.focus(), []);
  const save = useAction(async () => {
    const body = {
      name: draft.name.trim(),
      definition: definitionOf(draft, broadcast.definition),
      draft_version: broadcast.draft_version,
    };
    const answer = await answerOf(
      api.PUT('/api/v1/client/broadcasts/{id}', {
        params: { path: { id: String(broadcast.id) } },
        body: body as components['schemas']['BroadcastReplace'],
      }),
      'Saving the draft',
    );
    onSaved(answer.data);
  });
  const stale = save.failure?.status === 409;
  return (
    <Form class="page-section" onSubmit={save.run} failure={save.failure} aria-labelledby="bc-edit-title">
      <h2 id="bc-edit-title">Edit draft</h2>
      {(broadcast.definition.variants?.length ?? 0) > 1 && (
        <p class="hint">
          Template and subject here are variant A’s; the other variants and the A/B test are kept as saved (the API’s{' '}
          <code>PUT /client/broadcasts/{broadcast.id}</code> changes them).
        </p>
      )}
      <BroadcastFields api={api} draft={draft} onDraft={setDraft} />
      <FailureAlert />
      {stale && (
        <p class="hint">
          Nothing was saved: this broadcast changed since you opened it (saved from another tab or the API, or
          scheduled). Read it again, then make your changes once more.{' '}
          <button type="button" class="secondary" onClick={onStale}>
            Read the draft again
          </button>
        </p>
      )}
      <FormActions submit="Save draft" busy={save.busy} busyLabel="Saving…" onCancel={onCancel} />
    </Form>
  );
}

/** The fields of a broadcast's form: content, audience and schedule. */
function BroadcastFields(props: { api: Api; draft: BroadcastDraft; onDraft: (draft: BroadcastDraft) => void }) {
  const { api, draft, onDraft } = props;
  const set = <K extends keyof BroadcastDraft>(key: K, value: BroadcastDraft[K]) => onDraft({ ...draft, [key]: value });
  const templates = useTemplates(api);
  const names = useAudienceNames(api);
  const segment = names.segmentList.find((s) => String(s.id) === draft.segment_id);
  return (
    <>
      <FieldGroup legend="Content">
        <TextField
          id="bc-name"
          label="Name"
          name="name"
          value={draft.name}
          onValue={(value) => set('name', value)}
          maxLength={BROADCAST_LIMITS.nameChars}
          hint="For your team; contacts never see it."
          required
        />
        <SelectField
          id="bc-template"
          label="Template"
          name="definition.variants.0.template_id"
          value={draft.template_id}
          onValue={(value) => set('template_id', value)}
          hint={templates.failure ? `The templates could not be read: ${templates.failure.message}` : undefined}
        >
          <option value="">Choose a template</option>
          <Options of={templates.data ?? []} value={(t) => t.id} text={(t) => `${t.name} (#${t.id})`} />
        </SelectField>
        <TextField
          id="bc-subject"
          label="Subject"
          name="definition.variants.0.subject"
          value={draft.subject}
          onValue={(value) => set('subject', value)}
          maxLength={BROADCAST_LIMITS.subjectChars}
          hint="Left empty: the template’s own subject. Variables work as in templates (<%= it.contact.first_name %>)."
        />
      </FieldGroup>
      <FieldGroup legend="Audience">
        <CheckField
          id="bc-audience-segment"
          type="radio"
          group="audience"
          label="A segment’s members"
          checked={draft.audience === 'segment'}
          onChecked={() => set('audience', 'segment')}
        />
        <CheckField
          id="bc-audience-topic"
          type="radio"
          group="audience"
          label="A topic’s subscribers"
          checked={draft.audience === 'topic'}
          onChecked={() => set('audience', 'topic')}
        />
        <CheckField
          id="bc-audience-all"
          type="radio"
          group="audience"
          name="definition.audience"
          label="All subscribed contacts"
          checked={draft.audience === 'all'}
          onChecked={() => set('audience', 'all')}
        />
        {draft.audience === 'segment' && (
          <SelectField
            id="bc-segment"
            label="Segment"
            name="definition.audience.segment_id"
            value={draft.segment_id}
            onValue={(value) => set('segment_id', value)}
            hint={segment ? `${countText(segment.count)} members now.` : undefined}
          >
            <option value="">Choose a segment</option>
            <Options of={names.segmentList} value={(s) => s.id} text={(s) => `${s.name} (${countText(s.count)})`} />
          </SelectField>
        )}
        {draft.audience === 'topic' && (
          <SelectField
            id="bc-topic"
            label="Topic"
            name="definition.audience.topic_id"
            value={draft.topic_id}
            onValue={(value) => set('topic_id', value)}
            hint="Its subscribers get it, and its unsubscribe link leaves this topic."
          >
            <option value="">Choose a topic</option>
            <Options of={names.topicList} value={(t) => t.id} text={(t) => t.name} />
          </SelectField>
        )}
        <p class="hint">Unsubscribed and suppressed contacts are skipped whatever the audience.</p>
      </FieldGroup>
      <FieldGroup legend="Schedule">
        <CheckField
          id="bc-schedule-now"
          type="radio"
          group="schedule"
          name="definition.schedule"
          label="Now"
          checked={draft.schedule === 'now'}
          onChecked={() => set('schedule', 'now')}
        />
        <CheckField
          id="bc-schedule-at"
          type="radio"
          group="schedule"
          label="At a time"
          checked={draft.schedule === 'at'}
          onChecked={() => set('schedule', 'at')}
        />
        <CheckField
          id="bc-schedule-local"
          type="radio"
          group="schedule"
          label="At an hour of each contact’s own day"
          checked={draft.schedule === 'local_time'}
          onChecked={() => set('schedule', 'local_time')}
        />
        {draft.schedule === 'at' && (
          <Field id="bc-send-at" label="Send at (your browser’s time)" name="definition.schedule.send_at">
            {(control) => (
              <input
                {...control}
                type="datetime-local"
                value={draft.send_at}
                onInput={(event) => set('send_at', event.currentTarget.value)}
              />
            )}
          </Field>
        )}
        {draft.schedule === 'local_time' && (
          <>
            <Field id="bc-date" label="Date" name="definition.schedule.date">
              {(control) => (
                <input
                  {...control}
                  type="date"
                  value={draft.date}
                  onInput={(event) => set('date', event.currentTarget.value)}
                />
              )}
            </Field>
            <Field
              id="bc-time"
              label="Hour in each contact’s zone"
              name="definition.schedule.time"
              hint="Each contact gets it at this time of their own zone (the contact’s, else your account’s) on that date. Scheduled late, a zone whose hour has already passed gets it at that hour the next day."
            >
              {(control) => (
                <input
                  {...control}
                  type="time"
                  value={draft.time}
                  onInput={(event) => set('time', event.currentTarget.value)}
                />
              )}
            </Field>
          </>
        )}
      </FieldGroup>
    </>
  );
}
