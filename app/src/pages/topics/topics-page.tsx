import { useState } from 'preact/hooks';
import { TOPIC_DESCRIPTION_MAX, TOPIC_NAME_MAX } from '../../../../shared/public/topic-rules.js';
import type { Api } from '../../api/client.js';
import type { components } from '../../api/openapi.js';
import { Link } from '../../components/link.js';
import { answerOf } from '../../data/answer.js';
import { type Action, useAction } from '../../data/use-action.js';
import { bindOf } from '../../data/use-draft.js';
import { useLoad } from '../../data/use-load.js';
import type { PageProps } from '../../page.js';
import { can } from '../../session.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { Form } from '../../ui/form.js';
import { FormActions } from '../../ui/form-actions.js';
import { CheckField, TextField } from '../../ui/inputs.js';
import { PageHead } from '../../ui/page-head.js';
import { Done, LoadStatus } from '../../ui/status.js';

type Topic = components['schemas']['Topic'];

/** GET /client/topics/preference-page-preview: an HTML page, opened in a new tab (the session cookie authenticates it). */
export const PREFERENCE_PAGE_PREVIEW = '/api/v1/client/topics/preference-page-preview';

const contactsLeftText = (n: number) => (n === 1 ? '1 contact left this topic.' : `${n} contacts left this topic.`);

interface TopicDraft {
  name: string;
  description: string;
  default_subscribed: boolean;
}

const EMPTY: TopicDraft = { name: '', description: '', default_subscribed: true };

const draftOf = (topic: Topic): TopicDraft => ({
  name: topic.name,
  description: topic.description,
  default_subscribed: topic.default_subscribed,
});

/** What a create or a save sends: the whole topic, its name trimmed. */
const bodyOf = (draft: TopicDraft): TopicDraft => ({ ...draft, name: draft.name.trim() });

/**
 * Topics: the kinds of marketing mail a contact can leave one by one. Roles with
 * `content` create, edit and delete them; a topic a workflow uses cannot be deleted (409, the workflows named).
 */
export function TopicsPage({ api, signedIn }: PageProps) {
  const list = useLoad(
    async (signal) => {
      const answer = await answerOf(api.GET('/api/v1/client/topics', { signal }), 'Reading the topics');
      return { topics: answer.data.topics, max: (answer.meta as { max_topics?: number }).max_topics };
    },
    [api],
  );
  const [done, setDone] = useState('');
  const editable = can(signedIn, 'content');

  const changed = (message: string) => {
    setDone(message);
    list.reload();
  };

  const topics = list.data?.topics;
  const max = list.data?.max;
  return (
    <section aria-labelledby="st-topics-title">
      <PageHead id="st-topics-title" title="Topics" />
      <p class="hint">
        A topic is a kind of marketing e-mail (product news, tips, offers) that a contact can leave without leaving the
        rest. A marketing workflow belongs to a topic through its customization’s topic; transactional mail never does.
        Each topic counts the contacts who left it (by its link, on the preference page or through the API); a contact
        who never chose is not counted. Each contact’s own page shows its choice per topic: find it in{' '}
        <Link page="contacts">the contact list</Link>.
      </p>
      <LoadStatus loaded={list} />
      <Done text={done} />
      {topics && topics.length === 0 && (
        <div class="card empty">
          <h2>No topic yet</h2>
          <p>
            Without topics a contact can only leave all your marketing e-mail at once. Create one per kind of mail you
            send (for example “Product news”), then choose it in a marketing workflow’s customization: its e-mails then
            carry a link that leaves that topic only.
          </p>
        </div>
      )}
      {topics && topics.length > 0 && (
        <ul class="record-list" id="st-topics-list">
          {topics.map((topic) => (
            <TopicItem key={topic.id} api={api} topic={topic} editable={editable} onChanged={changed} />
          ))}
        </ul>
      )}
      {topics && max !== undefined && (
        <p class="hint">
          {topics.length} of at most {max} topics.
        </p>
      )}
      {topics && editable && (max === undefined || topics.length < max) && (
        <CreateTopic api={api} onCreated={(topic) => changed(`Topic “${topic.name}” created.`)} />
      )}
      {topics && !editable && (
        <p class="hint">Your role reads the topics; a member, an admin or the owner changes them.</p>
      )}
      <section class="card page-section" aria-labelledby="st-topics-preview-title">
        <h2 id="st-topics-preview-title">The preference page</h2>
        <p>
          Contacts choose their topics on a preference page in your brand, opened from the unsubscribe link at the foot
          of each marketing e-mail. The preview shows it as a contact who never chose sees it (every topic at its
          default); nothing in it is saved.
        </p>
        <p>
          <a href={PREFERENCE_PAGE_PREVIEW} target="_blank" rel="noopener">
            Preview the preference page
          </a>{' '}
          <span class="hint">(opens in a new tab)</span>
        </p>
      </section>
    </section>
  );
}

/** A topic's fields; the API's error items at their field, the rest in the form's alert. */
function TopicForm(props: {
  idPrefix: string;
  draft: TopicDraft;
  action: Action<[]>;
  submit: string;
  onChange: (draft: TopicDraft) => void;
  onCancel?: () => void;
}) {
  const { idPrefix: p, draft, action, submit, onChange, onCancel } = props;
  const bind = bindOf(draft, onChange);
  return (
    <Form onSubmit={action.run} failure={action.failure}>
      <TextField id={`${p}-name`} label="Name" {...bind('name')} maxLength={TOPIC_NAME_MAX} />
      <TextField
        id={`${p}-description`}
        label="Description (on the preference page)"
        {...bind('description')}
        maxLength={TOPIC_DESCRIPTION_MAX}
      />
      <CheckField
        id={`${p}-default`}
        label="Contacts who never chose get it"
        name="default_subscribed"
        checked={draft.default_subscribed}
        onChecked={(on) => onChange({ ...draft, default_subscribed: on })}
      />
      <FailureAlert />
      <FormActions submit={submit} busy={action.busy} onCancel={onCancel} />
    </Form>
  );
}

function CreateTopic({ api, onCreated }: { api: Api; onCreated: (topic: Topic) => void }) {
  const [draft, setDraft] = useState<TopicDraft>(EMPTY);
  const create = useAction(async () => {
    const answer = await answerOf(api.POST('/api/v1/client/topics', { body: bodyOf(draft) }), 'Creating the topic');
    setDraft(EMPTY);
    onCreated(answer.data);
  });
  return (
    <section class="card page-section" aria-labelledby="st-new-topic-title">
      <h2 id="st-new-topic-title">New topic</h2>
      <TopicForm idPrefix="st-new-topic" draft={draft} action={create} submit="Create topic" onChange={setDraft} />
    </section>
  );
}

function TopicItem(props: { api: Api; topic: Topic; editable: boolean; onChanged: (message: string) => void }) {
  const { api, topic, editable, onChanged } = props;
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<TopicDraft>(() => draftOf(topic));
  const path = { params: { path: { id: String(topic.id) } } };
  const save = useAction(async () => {
    const answer = await answerOf(
      api.PATCH('/api/v1/client/topics/{id}', { ...path, body: bodyOf(draft) }),
      'Saving the topic',
    );
    setEditing(false);
    onChanged(`Topic “${answer.data.name}” saved.`);
  });
  const remove = useAction(async () => {
    await answerOf(api.DELETE('/api/v1/client/topics/{id}', path), 'Deleting the topic');
    onChanged(`Topic “${topic.name}” deleted.`);
  });

  return (
    <li class="card record">
      <div class="record-head">
        <h2 class="record-title">{topic.name}</h2>
        <span class="hint">#{topic.id}</span>
      </div>
      {!editing && (
        <>
          <p>{topic.description || <span class="hint">No description.</span>}</p>
          <p class="hint">
            {topic.default_subscribed ? 'Contacts who never chose get it.' : 'Only contacts who chose it get it.'}
          </p>
          <p class="contacts-left">{contactsLeftText(topic.contacts_left)}</p>
          <FailureAlert failure={remove.failure} />
          {editable && (
            <div class="row-actions">
              <button
                type="button"
                class="small"
                onClick={() => {
                  setDraft(draftOf(topic));
                  setEditing(true);
                }}
                aria-label={`Edit ${topic.name}`}
              >
                Edit
              </button>
              <ConfirmButton
                label="Delete"
                name={`Delete ${topic.name}`}
                confirm={`Delete the topic ${topic.name}?`}
                busy={remove.busy}
                danger
                onConfirm={remove.run}
              />
            </div>
          )}
        </>
      )}
      {editing && (
        <TopicForm
          idPrefix={`st-topic-${topic.id}`}
          draft={draft}
          action={save}
          submit="Save topic"
          onChange={setDraft}
          onCancel={() => {
            setEditing(false);
            save.reset();
          }}
        />
      )}
    </li>
  );
}
