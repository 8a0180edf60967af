import { useState } from 'preact/hooks';
import type { components } from '../../api/openapi.js';
import { Link } from '../../components/link.js';
import { answerOf } from '../../data/answer.js';
import { useLoad } from '../../data/use-load.js';
import type { PageProps } from '../../page.js';
import { can } from '../../session.js';
import { PageHead } from '../../ui/page-head.js';
import { LoadStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';
import { ActivityTimeline } from './activity-timeline.js';
import { SOURCES } from './contacts-page.js';
import { EraseCard, type Erasure, ErasureReport } from './erase-card.js';
import { SubscriptionCard } from './subscription-card.js';

export type Contact = components['schemas']['Contact'];
export type Topic = components['schemas']['Topic'];

/**
 * One contact (`/app/contact/N`, the id or the percent-encoded e-mail address): its fields, tags and health, its subscription
 * overall and per topic, its activity, and erasure. A viewer sees it all and changes nothing.
 */
export function ContactPage({ api, params, signedIn }: PageProps) {
  const id = params['id'] ?? '';
  const loaded = useLoad(
    async (signal) => {
      if (!id) throw new Error('No contact named: open one from the contacts list.');
      const [read, topicList] = await Promise.all([
        answerOf(api.GET('/api/v1/client/contacts/{id}', { params: { path: { id } }, signal }), 'Reading the contact'),
        answerOf(api.GET('/api/v1/client/topics', { signal }), 'Reading the topics'),
      ]);
      return { contact: read.data, topics: topicList.data.topics };
    },
    [api, id],
  );
  // What the page erased, by the id it erased (another contact's page shows that contact).
  const [erased, setErased] = useState<{ id: string; erasure: Erasure } | undefined>();
  const erasure = erased?.id === id ? erased.erasure : undefined;
  // The activity is read again after a change of the subscription (it lists that change).
  const [changes, setChanges] = useState(0);
  const mayChange = can(signedIn, 'content');

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
  if (!loaded.data) {
    return (
      <section aria-labelledby="ct-contact-title">
        <PageHead id="ct-contact-title" title="Contact" />
        <LoadStatus loaded={loaded} />
        {back}
      </section>
    );
  }
  const { contact, topics } = loaded.data;
  const name = [contact.first_name, contact.last_name].filter(Boolean).join(' ');
  return (
    <section aria-labelledby="ct-contact-title">
      <PageHead id="ct-contact-title" title={<span class="wrap-anywhere">{contact.email}</span>}>
        <Link page="contacts">All contacts</Link>
      </PageHead>
      <div class="cards">
        <section class="card" aria-labelledby="ct-fields-title">
          <h2 id="ct-fields-title">Fields</h2>
          <dl class="figures record-fields">
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
            <ul class="tags" aria-label="Tags">
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
            <small class="out-of"> / 100</small>
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
            loaded.update((was) => ({ ...was, contact: changed }));
            setChanges((n) => n + 1);
          }}
        />
      </div>
      <ActivityTimeline api={api} contactId={String(contact.id)} topics={topics} changes={changes} />
      {mayChange && <EraseCard api={api} contact={contact} onErased={(done) => setErased({ id, erasure: done })} />}
    </section>
  );
}
