import { CONTACT_SOURCES } from '../../../../shared/public/contact-rules.js';
import type { components, operations } from '../../api/openapi.js';
import { Link } from '../../components/link.js';
import { answerOf, type Failure } from '../../data/answer.js';
import { useDraft } from '../../data/use-draft.js';
import { useLoad } from '../../data/use-load.js';
import type { PageProps } from '../../page.js';
import { navigate, type PageParams } from '../../router.js';
import { DataTable } from '../../ui/data-table.js';
import { Form } from '../../ui/form.js';
import { Options, SelectField, TextField } from '../../ui/inputs.js';
import { PageHead } from '../../ui/page-head.js';
import { LoadStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';

type Contact = components['schemas']['Contact'];
type ListQuery = NonNullable<operations['contactsList']['parameters']['query']>;

/** The contact's `source` number by name, as GET /client/contacts takes it. */
export const SOURCES = CONTACT_SOURCES;

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

/** Contacts: search by e-mail prefix, subscription and source; cursor pages; each row opens the contact. */
export function ContactsPage({ api, params }: PageProps) {
  const filters = filtersOf(params);
  const cursor = params['cursor'] ?? '';
  const asked = JSON.stringify([filters, cursor]);
  const loaded = useLoad(
    async (signal) => {
      const answer = await answerOf(
        api.GET('/api/v1/client/contacts', { params: { query: listQueryOf(filters, cursor) }, signal }),
        'Reading the contacts',
      );
      return { contacts: answer.data.contacts, next: answer.data.next_cursor };
    },
    [api, asked],
  );
  const page = loaded.data;

  return (
    <section aria-labelledby="ct-contacts-title">
      <PageHead id="ct-contacts-title" title="Contacts" />
      <SearchForm key={asked} filters={filters} failure={loaded.failure} />
      <LoadStatus loaded={loaded} shownAt={FILTERS} />
      {page && <ContactsTable contacts={page.contacts} searched={Object.values(filters).some(Boolean)} />}
      {page && (page.next || cursor) && (
        <nav class="pager" aria-label="Pages of contacts">
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

/** The search, as a draft until Search puts it in the address (drawn again, from the address, when it changes). */
function SearchForm(props: { filters: Filters; failure: Failure | undefined }) {
  const { draft, bind } = useDraft<Filters>(props.filters);
  return (
    <Form
      class="filters"
      role="search"
      aria-label="Search contacts"
      failure={props.failure}
      onSubmit={() => navigate('contacts', { ...draft, email_prefix: draft.email_prefix.trim() })}
    >
      <TextField
        id="ct-email-prefix"
        label="E-mail starts with"
        {...bind('email_prefix')}
        type="search"
        spellcheck={false}
      />
      <SelectField id="ct-subscribed" label="Subscription" {...bind('is_subscribed')}>
        <option value="">Any</option>
        <option value="true">Subscribed</option>
        <option value="false">Unsubscribed</option>
      </SelectField>
      <SelectField id="ct-source" label="Source" {...bind('source')}>
        <option value="">Any</option>
        <Options of={SOURCES} value={(source) => source} text={(source) => source} />
      </SelectField>
      <button type="submit">Search</button>
    </Form>
  );
}

function ContactsTable({ contacts, searched }: { contacts: Contact[]; searched: boolean }) {
  return (
    <DataTable
      id="ct-contacts-table"
      label="Contacts table"
      caption="Contacts, by id"
      rows={contacts}
      empty={
        <p class="hint">
          {searched
            ? 'No contact matches this search.'
            : 'No contact yet. Contacts are created by your events (auto_create_contact), POST /api/v1/client/contacts, or an import.'}
        </p>
      }
      columns={[
        {
          head: 'E-mail',
          rowHeader: true,
          cell: (contact) => (
            <Link page="contact" params={{ id: String(contact.id) }}>
              {contact.email}
            </Link>
          ),
        },
        { head: 'Name', cell: (contact) => [contact.first_name, contact.last_name].filter(Boolean).join(' ') || '—' },
        { head: 'Subscription', cell: (contact) => (contact.is_subscribed ? 'Subscribed' : 'Unsubscribed') },
        { head: 'Source', cell: (contact) => SOURCES[contact.source] ?? contact.source },
        { head: 'Health', cell: (contact) => contact.health_score },
        { head: 'Tags', cell: (contact) => contact.tags.join(', ') || '—' },
        { head: 'Last activity', cell: (contact) => <When at={contact.last_activity_at} /> },
      ]}
    />
  );
}
