import { useEffect, useState } from 'preact/hooks';
import type { Api } from '../../api/client.js';
import type { components } from '../../api/openapi.js';
import { Link } from '../../components/link.js';
import { can } from '../../session.js';
import { answerOf, type Failure, failureOfError, fieldErrorOf } from '../../data/answer.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { FieldError } from '../../ui/field-error.js';
import type { PageProps } from '../../page.js';
import { ConfirmButton } from '../../ui/confirm-button.js';

type Topic = components['schemas']['Topic'];

/** GET /client/topics/preference-page-preview: an HTML page, opened in a new tab (the session cookie authenticates it). */
export const PREFERENCE_PAGE_PREVIEW = '/api/v1/client/topics/preference-page-preview';

const contactsLeftText = (n: number) => (n === 1 ? '1 contact left this topic.' : `${n} contacts left this topic.`);

interface TopicDraft {
  name: string;
  description: string;
  default_subscribed: boolean;
}

const TOPIC_FIELDS = ['name', 'description', 'default_subscribed'] as const;

/**
 * Topics: the kinds of marketing mail a contact can leave one by one. Roles with
 * `content` create, edit and delete them; a topic a workflow uses cannot be deleted (409, the workflows named).
 */
export function TopicsPage({ api, signedIn }: PageProps) {
  const [topics, setTopics] = useState<Topic[] | undefined>();
  const [max, setMax] = useState<number | undefined>();
  const [failure, setFailure] = useState<Failure | undefined>();
  const [done, setDone] = useState('');
  const [loads, setLoads] = useState(0);
  const editable = can(signedIn, 'content');

  useEffect(() => {
    let current = true;
    answerOf(api.GET('/api/v1/client/topics'), 'Reading the topics').then(
      (answer) => {
        if (!current) return;
        setTopics(answer.data.topics);
        const meta = answer.meta as { max_topics?: number };
        setMax(meta.max_topics);
      },
      (error: unknown) => current && setFailure(failureOfError(error)),
    );
    return () => {
      current = false;
    };
  }, [api, loads]);

  const changed = (message: string) => {
    setDone(message);
    setLoads((n) => n + 1);
  };

  return (
    <section aria-labelledby="st-topics-title">
      <div class="page-head">
        <h1 id="st-topics-title">Topics</h1>
      </div>
      <p class="hint">
        A topic is a kind of marketing e-mail (product news, tips, offers) that a contact can leave without leaving the
        rest. A marketing workflow belongs to a topic through its customization’s topic; transactional mail never does.
        Each topic counts the contacts who left it (by its link, on the preference page or through the API); a contact
        who never chose is not counted. Each contact’s own page shows its choice per topic: find it in{' '}
        <Link page="contacts">the contact list</Link>.
      </p>
      <FailureAlert failure={failure} />
      <p role="status" class="st-done">
        {done}
      </p>
      {!topics && !failure && <p aria-busy="true">Loading…</p>}
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
        <ul class="st-list" id="st-topics-list">
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
      <section class="card st-section" aria-labelledby="st-topics-preview-title">
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

function TopicForm(props: {
  idPrefix: string;
  draft: TopicDraft;
  failure: Failure | undefined;
  busy: boolean;
  submit: string;
  onChange: (draft: TopicDraft) => void;
  onSubmit: () => void;
  onCancel?: () => void;
}) {
  const { idPrefix, draft, failure, busy, submit, onChange, onSubmit, onCancel } = props;
  const nameError = fieldErrorOf(failure, 'name');
  const descriptionError = fieldErrorOf(failure, 'description');
  const defaultError = fieldErrorOf(failure, 'default_subscribed');
  const attrs = (id: string, error: string | undefined) =>
    error ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};
  return (
    <form
      class="st-topic-form"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <div class="st-field">
        <label for={`${idPrefix}-name`}>Name</label>
        <input
          id={`${idPrefix}-name`}
          type="text"
          value={draft.name}
          maxLength={100}
          autocomplete="off"
          {...attrs(`${idPrefix}-name`, nameError)}
          onInput={(event) => onChange({ ...draft, name: event.currentTarget.value })}
        />
        <FieldError id={`${idPrefix}-name-error`} message={nameError} />
      </div>
      <div class="st-field">
        <label for={`${idPrefix}-description`}>Description (on the preference page)</label>
        <input
          id={`${idPrefix}-description`}
          type="text"
          value={draft.description}
          maxLength={500}
          autocomplete="off"
          {...attrs(`${idPrefix}-description`, descriptionError)}
          onInput={(event) => onChange({ ...draft, description: event.currentTarget.value })}
        />
        <FieldError id={`${idPrefix}-description-error`} message={descriptionError} />
      </div>
      <div class="st-check">
        <input
          id={`${idPrefix}-default`}
          type="checkbox"
          checked={draft.default_subscribed}
          {...attrs(`${idPrefix}-default`, defaultError)}
          onChange={(event) => onChange({ ...draft, default_subscribed: event.currentTarget.checked })}
        />
        <label for={`${idPrefix}-default`}>Contacts who never chose get it</label>
        <FieldError id={`${idPrefix}-default-error`} message={defaultError} />
      </div>
      <FailureAlert failure={failure} shownAt={TOPIC_FIELDS} />
      <div class="st-actions">
        <button type="submit" disabled={busy}>
          {submit}
        </button>
        {onCancel && (
          <button type="button" class="st-secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

function CreateTopic({ api, onCreated }: { api: Api; onCreated: (topic: Topic) => void }) {
  const empty: TopicDraft = { name: '', description: '', default_subscribed: true };
  const [draft, setDraft] = useState<TopicDraft>(empty);
  const [failure, setFailure] = useState<Failure | undefined>();
  const [busy, setBusy] = useState(false);

  async function create() {
    setBusy(true);
    setFailure(undefined);
    try {
      const answer = await answerOf(
        api.POST('/api/v1/client/topics', { body: { ...draft, name: draft.name.trim() } }),
        'Creating the topic',
      );
      setDraft(empty);
      onCreated(answer.data);
    } catch (error) {
      setFailure(failureOfError(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="card st-section" aria-labelledby="st-new-topic-title">
      <h2 id="st-new-topic-title">New topic</h2>
      <TopicForm
        idPrefix="st-new-topic"
        draft={draft}
        failure={failure}
        busy={busy}
        submit="Create topic"
        onChange={setDraft}
        onSubmit={create}
      />
    </section>
  );
}

function TopicItem(props: { api: Api; topic: Topic; editable: boolean; onChanged: (message: string) => void }) {
  const { api, topic, editable, onChanged } = props;
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<TopicDraft>({
    name: topic.name,
    description: topic.description,
    default_subscribed: topic.default_subscribed,
  });
  const [failure, setFailure] = useState<Failure | undefined>();
  const [busy, setBusy] = useState(false);
  const path = { params: { path: { id: String(topic.id) } } };

  async function save() {
    setBusy(true);
    setFailure(undefined);
    try {
      const answer = await answerOf(
        api.PATCH('/api/v1/client/topics/{id}', { ...path, body: { ...draft, name: draft.name.trim() } }),
        'Saving the topic',
      );
      setEditing(false);
      onChanged(`Topic “${answer.data.name}” saved.`);
    } catch (error) {
      setFailure(failureOfError(error));
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    setBusy(true);
    setFailure(undefined);
    try {
      await answerOf(api.DELETE('/api/v1/client/topics/{id}', path), 'Deleting the topic');
      onChanged(`Topic “${topic.name}” deleted.`);
    } catch (error) {
      setFailure(failureOfError(error));
      setBusy(false);
    }
  }

  return (
    <li class="card st-item">
      <div class="st-item-head">
        <h2 class="st-item-title">{topic.name}</h2>
        <span class="hint">#{topic.id}</span>
      </div>
      {!editing && (
        <>
          <p>{topic.description || <span class="hint">No description.</span>}</p>
          <p class="hint">
            {topic.default_subscribed ? 'Contacts who never chose get it.' : 'Only contacts who chose it get it.'}
          </p>
          <p class="st-left">{contactsLeftText(topic.contacts_left)}</p>
          {!editing && <FailureAlert failure={failure} />}
          {editable && (
            <div class="st-row-actions">
              <button type="button" class="st-small" onClick={() => setEditing(true)} aria-label={`Edit ${topic.name}`}>
                Edit
              </button>
              <ConfirmButton
                label="Delete"
                name={`Delete ${topic.name}`}
                confirm={`Delete the topic ${topic.name}?`}
                busy={busy}
                danger
                onConfirm={remove}
              />
            </div>
          )}
        </>
      )}
      {editing && (
        <TopicForm
          idPrefix={`st-topic-${topic.id}`}
          draft={draft}
          failure={failure}
          busy={busy}
          submit="Save topic"
          onChange={setDraft}
          onSubmit={save}
          onCancel={() => {
            setEditing(false);
            setFailure(undefined);
          }}
        />
      )}
    </li>
  );
}
