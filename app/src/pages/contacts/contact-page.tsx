import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../api/openapi.js';
import { Link } from '../../components/link.js';
import { can } from '../../session.js';
import type { PageProps } from '../../page.js';
import { ActivityTimeline } from './activity-timeline.js';
import { answerOf, type Failure, failureOfError } from '../../data/answer.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { SOURCES } from './contacts-page.js';
import { EraseCard, type Erasure, ErasureReport } from './erase-card.js';
import { SubscriptionCard } from './subscription-card.js';
import { When } from '../../ui/when.js';

export type Contact = components['schemas']['Contact'];
export type Topic = components['schemas']['Topic'];

/**
 * One contact (`/app/contact?id=N`, the id or the e-mail address): its fields, tags and health, its subscription
 * overall and per topic, its activity, and erasure. A viewer sees it all and changes nothing.
 */
export function ContactPage({ api, params, signedIn }: PageProps) {
  const id = params['id'] ?? '';
  const [contact, setContact] = useState<Contact | undefined>();
  const [topics, setTopics] = useState<Topic[]>([]);
  const [failure, setFailure] = useState<Failure | undefined>();
  const [erasure, setErasure] = useState<Erasure | undefined>();
  const [reload, setReload] = useState(0);
  const mayChange = can(signedIn, 'content');

  useEffect(() => {
    let current = true;
    setContact(undefined);
    setErasure(undefined);
    setFailure(id ? undefined : { message: 'No contact named: open one from the contacts list.', errors: [] });
    if (!id) return;
    Promise.all([
      answerOf(api.GET('/api/v1/client/contacts/{id}', { params: { path: { id } } }), 'Reading the contact'),
      answerOf(api.GET('/api/v1/client/topics'), 'Reading the topics'),
    ]).then(
      ([read, topicList]) => {
        if (!current) return;
        setContact(read.data);
        setTopics(topicList.data.topics);
      },
      (error: unknown) => current && setFailure(failureOfError(error)),
    );
    return () => {
      current = false;
    };
  }, [api, id]);

  const back = (
    <p>
      <Link page="contacts">All contacts</Link>
    </p>
  );
  if (erasure) {
    return (
      <section aria-labelledby="ct-contact-title">
        <h1 id="ct-contact-title">Contact #{erasure.id} erased</h1>
        <ErasureReport erasure={erasure} />
        {back}
      </section>
    );
  }
  if (!contact) {
    return (
      <section aria-labelledby="ct-contact-title">
        <h1 id="ct-contact-title">Contact</h1>
        <FailureAlert failure={failure} />
        {!failure && <p aria-busy="true">Loading…</p>}
        {back}
      </section>
    );
  }
  const name = [contact.first_name, contact.last_name].filter(Boolean).join(' ');
  return (
    <section aria-labelledby="ct-contact-title">
      <div class="page-head">
        <h1 id="ct-contact-title" class="ct-break">
          {contact.email}
        </h1>
        <Link page="contacts">All contacts</Link>
      </div>
      <div class="cards">
        <section class="card" aria-labelledby="ct-fields-title">
          <h2 id="ct-fields-title">Fields</h2>
          <dl class="figures ct-fields">
            <dt>Name</dt>
            <dd>{name || '—'}</dd>
            <dt>Company</dt>
            <dd>{contact.company ?? '—'}</dd>
            <dt>Phone</dt>
            <dd>{contact.phone ?? '—'}</dd>
            <dt>Time zone</dt>
            <dd>{contact.timezone ?? '—'}</dd>
            <dt>Your id (uid)</dt>
            <dd>{contact.client_contact_id ?? '—'}</dd>
            <dt>External id</dt>
            <dd>{contact.external_id ?? '—'}</dd>
            <dt>Source</dt>
            <dd>
              {SOURCES[contact.source] ?? contact.source}
              {contact.signup_source ? ` (${contact.signup_source})` : ''}
            </dd>
            <dt>Created</dt>
            <dd>
              <When at={contact.created_at} />
            </dd>
            <dt>Last purchase</dt>
            <dd>
              <When at={contact.last_purchase_at} />
            </dd>
            {Object.entries(contact.custom_field_values).map(([field, value]) => (
              <>
                <dt key={`${field}-name`}>{field}</dt>
                <dd key={`${field}-value`}>{value === null ? '—' : String(value)}</dd>
              </>
            ))}
          </dl>
          <h3>Tags</h3>
          {contact.tags.length > 0 ? (
            <ul class="ct-tags" aria-label="Tags">
              {contact.tags.map((tag) => (
                <li key={tag}>{tag}</li>
              ))}
            </ul>
          ) : (
            <p class="hint">No tags.</p>
          )}
        </section>
        <section class="card" aria-labelledby="ct-health-title">
          <h2 id="ct-health-title">Health and engagement</h2>
          <p class="big">
            {contact.health_score}
            <small class="ct-out-of"> / 100</small>
          </p>
          <dl class="figures">
            <dt>E-mails sent</dt>
            <dd>{contact.total_emails_sent}</dd>
            <dt>Opened by a person</dt>
            <dd>{contact.total_emails_opened}</dd>
            <dt>Clicked by a person</dt>
            <dd>{contact.total_emails_clicked}</dd>
            <dt>Workflows running</dt>
            <dd>{contact.active_workflow_count}</dd>
            <dt>Last activity</dt>
            <dd>
              <When at={contact.last_activity_at} />
            </dd>
            <dt>Last open</dt>
            <dd>
              <When at={contact.last_email_opened_at} />
            </dd>
            <dt>Last workflow</dt>
            <dd>
              <When at={contact.last_workflow_at} />
            </dd>
          </dl>
        </section>
        <SubscriptionCard
          api={api}
          contact={contact}
          topics={topics}
          mayChange={mayChange}
          onChanged={(changed) => {
            setContact(changed);
            setReload((n) => n + 1);
          }}
        />
      </div>
      <ActivityTimeline api={api} contactId={String(contact.id)} topics={topics} reload={reload} />
      {mayChange && <EraseCard api={api} contact={contact} onErased={setErasure} />}
    </section>
  );
}
