import { useEffect, useState } from 'preact/hooks';
import type { components, operations } from '../../api/openapi.js';
import { Link } from '../../components/link.js';
import { navigate, type PageParams } from '../../router.js';
import type { PageProps } from '../../page.js';
import { answerOf, type Failure, failureOfError, fieldErrorOf } from '../../data/answer.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { FieldError, invalidProps } from '../../ui/field-error.js';
import { When } from '../../ui/when.js';

type Contact = components['schemas']['Contact'];
type ListQuery = NonNullable<operations['contactsList']['parameters']['query']>;

/** The contact's `source` number by name, as GET /client/contacts takes it. */
export const SOURCES = ['unknown', 'api', 'import', 'form', 'app'] as const;

/** The filters of GET /client/contacts this page offers, kept in the page's query (bookmarkable). */
const FILTERS = ['email_prefix', 'is_subscribed', 'source'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

const filtersOf = (params: PageParams): Filters => ({
  email_prefix: params['email_prefix'] ?? '',
  is_subscribed: params['is_subscribed'] ?? '',
  source: params['source'] ?? '',
});

/** The list call's query: the filters set, the page's cursor (the API checks the values: 422 at the field). */
export function listQueryOf(filters: Filters, cursor: string): ListQuery {
  const query: ListQuery = { limit: 25 };
  if (filters.email_prefix) query.email_prefix = filters.email_prefix;
  if (filters.is_subscribed) query.is_subscribed = filters.is_subscribed as ListQuery['is_subscribed'];
  if (filters.source) query.source = filters.source as ListQuery['source'];
  if (cursor) query.cursor = cursor;
  return query;
}

/** Contacts (issue 25 §1): search by e-mail prefix, subscription and source; cursor pages; each row opens the contact. */
export function ContactsPage({ api, params }: PageProps) {
  const filters = filtersOf(params);
  const cursor = params['cursor'] ?? '';
  const [draft, setDraft] = useState<Filters>(filters);
  const [page, setPage] = useState<{ contacts: Contact[]; next: string | null } | undefined>();
  const [failure, setFailure] = useState<Failure | undefined>();
  const asked = JSON.stringify([filters, cursor]);

  useEffect(() => {
    let current = true;
    setDraft(filters);
    setPage(undefined);
    setFailure(undefined);
    answerOf(api.GET('/api/v1/client/contacts', { params: { query: listQueryOf(filters, cursor) } }), 'Reading the contacts').then(
      (answer) => current && setPage({ contacts: answer.data.contacts, next: answer.data.next_cursor }),
      (error: unknown) => current && setFailure(failureOfError(error)),
    );
    return () => {
      current = false;
    };
    // `asked` stands for the filters and the cursor.
  }, [api, asked]);

  function onSearch(event: Event) {
    event.preventDefault();
    navigate('contacts', { ...draft, email_prefix: draft.email_prefix.trim() });
  }

  const prefixError = fieldErrorOf(failure, 'email_prefix');
  const subscribedError = fieldErrorOf(failure, 'is_subscribed');
  const sourceError = fieldErrorOf(failure, 'source');
  return (
    <section aria-labelledby="ct-contacts-title">
      <div class="page-head">
        <h1 id="ct-contacts-title">Contacts</h1>
      </div>
      <form class="ct-filters" role="search" aria-label="Search contacts" onSubmit={onSearch}>
        <div class="ct-field">
          <label for="ct-email-prefix">E-mail starts with</label>
          <input
            id="ct-email-prefix"
            type="search"
            value={draft.email_prefix}
            autocomplete="off"
            spellcheck={false}
            onInput={(event) => setDraft({ ...draft, email_prefix: event.currentTarget.value })}
            {...invalidProps('ct-email-prefix-error', prefixError)}
          />
          <FieldError id="ct-email-prefix-error" message={prefixError} />
        </div>
        <div class="ct-field">
          <label for="ct-subscribed">Subscription</label>
          <select
            id="ct-subscribed"
            value={draft.is_subscribed}
            onChange={(event) => setDraft({ ...draft, is_subscribed: event.currentTarget.value })}
            {...invalidProps('ct-subscribed-error', subscribedError)}
          >
            <option value="">Any</option>
            <option value="true">Subscribed</option>
            <option value="false">Unsubscribed</option>
          </select>
          <FieldError id="ct-subscribed-error" message={subscribedError} />
        </div>
        <div class="ct-field">
          <label for="ct-source">Source</label>
          <select
            id="ct-source"
            value={draft.source}
            onChange={(event) => setDraft({ ...draft, source: event.currentTarget.value })}
            {...invalidProps('ct-source-error', sourceError)}
          >
            <option value="">Any</option>
            {SOURCES.map((source) => (
              <option key={source} value={source}>
                {source}
              </option>
            ))}
          </select>
          <FieldError id="ct-source-error" message={sourceError} />
        </div>
        <button type="submit">Search</button>
      </form>
      <FailureAlert failure={failure} shownAt={FILTERS} />
      {!page && !failure && <p aria-busy="true">Loading…</p>}
      {page && <ContactsTable contacts={page.contacts} searched={Object.values(filters).some(Boolean)} />}
      {page && (page.next || cursor) && (
        <nav class="ct-pages" aria-label="Pages of contacts">
          {cursor && (
            <Link page="contacts" params={filters}>
              First page
            </Link>
          )}
          {page.next && (
            <Link page="contacts" params={{ ...filters, cursor: page.next }}>
              Next page
            </Link>
          )}
        </nav>
      )}
      {page && page.contacts.length === 0 && page.next && (
        <p class="hint">None on this page; the search goes on: there are more pages.</p>
      )}
    </section>
  );
}

function ContactsTable({ contacts, searched }: { contacts: Contact[]; searched: boolean }) {
  if (contacts.length === 0) {
    return (
      <p class="hint">
        {searched
          ? 'No contact matches this search.'
          : 'No contact yet. Contacts are created by your events (auto_create_contact), POST /api/v1/client/contacts, or an import.'}
      </p>
    );
  }
  return (
    <div class="ct-scroll">
      <table id="ct-contacts-table" class="ct-table">
        <caption>Contacts, by id</caption>
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Name</th>
            <th scope="col">Subscription</th>
            <th scope="col">Source</th>
            <th scope="col">Health</th>
            <th scope="col">Tags</th>
            <th scope="col">Last activity</th>
          </tr>
        </thead>
        <tbody>
          {contacts.map((contact) => (
            <tr key={contact.id}>
              <th scope="row">
                <Link page="contact" params={{ id: String(contact.id) }}>
                  {contact.email}
                </Link>
              </th>
              <td>{[contact.first_name, contact.last_name].filter(Boolean).join(' ') || '—'}</td>
              <td>{contact.is_subscribed ? 'Subscribed' : 'Unsubscribed'}</td>
              <td>{SOURCES[contact.source] ?? contact.source}</td>
              <td>{contact.health_score}</td>
              <td>{contact.tags.join(', ') || '—'}</td>
              <td>
                <When at={contact.last_activity_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
