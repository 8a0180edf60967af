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
import { TextField } from '../../ui/inputs.js';
import { PageHead } from '../../ui/page-head.js';
import { LoadStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';
import { DOMAIN_STATUS_TEXT, type Domain, FAILURE_TEXT, SANDBOX_TEXT } from './domain-text.js';

/**
 * Sending domains: the client's domains and their state, and (`manage`) a form adding one, which then opens on its
 * own page with the records to publish.
 */
export function DomainsPage({ api, signedIn }: PageProps) {
  const list = useLoad(
    async (signal) => {
      const answer = await answerOf(api.GET('/api/v1/client/domains', { signal }), 'Reading the domains');
      return { domains: answer.data.domains, max: answer.meta.max_domains };
    },
    [api],
  );
  const editable = can(signedIn, 'manage');
  const data = list.data;

  const columns: Column<Domain>[] = [
    {
      head: 'Domain',
      rowHeader: true,
      class: 'wrap-anywhere',
      cell: (domain) => (
        <Link page="domain" params={{ id: String(domain.id) }}>
          {domain.domain}
        </Link>
      ),
    },
    {
      head: 'Status',
      class: 'outcome-cell',
      cell: (domain) => (
        <>
          <span class={`outcome outcome-${domain.status}`}>{DOMAIN_STATUS_TEXT[domain.status]}</span>
          {domain.failure_reason && <small class="outcome-reason">{FAILURE_TEXT[domain.failure_reason]}</small>}
        </>
      ),
    },
    { head: 'Verified', cell: (domain) => <When at={domain.verified_at} /> },
    { head: 'Next check', cell: (domain) => <When at={domain.next_check_at} /> },
  ];

  return (
    <section aria-labelledby="dm-title">
      <PageHead id="dm-title" title="Domains" />
      <p class="hint">
        Your e-mails go out From an address at a domain you have verified: you prove you control it with a DNS record,
        then SES signs your mail for it (DKIM). Verifying example.com lets you send From any address at exactly
        example.com; a subdomain such as mail.example.com is a domain of its own.{' '}
        <Link page="settings">Choose your From address in Settings</Link>.
      </p>
      {editable && data && data.domains.length < data.max && <AddDomain api={api} />}
      {editable && data && data.domains.length >= data.max && (
        <p class="hint">You hold the most domains an account may ({data.max}): delete one to add another.</p>
      )}
      {!editable && <p class="hint">Your role reads the domains; an owner or an admin adds and removes them.</p>}
      <LoadStatus loaded={list} />
      {data && (
        <section class="page-section" aria-labelledby="dm-list-title">
          <h2 id="dm-list-title">Your domains</h2>
          <DataTable
            id="dm-table"
            label="Domains table"
            caption={`${data.domains.length} of at most ${data.max} domains`}
            rows={data.domains}
            columns={columns}
            empty={
              <div class="card empty">
                <p>No domain yet. {SANDBOX_TEXT}</p>
                <p>Add the domain you send from to leave the sandbox.</p>
              </div>
            }
          />
        </section>
      )}
    </section>
  );
}

function AddDomain({ api }: { api: Api }) {
  const { draft, bind } = useDraft({ domain: '' });
  const add = useAction(async () => {
    const body = { domain: draft.domain.trim() };
    const answer = await answerOf(api.POST('/api/v1/client/domains', { body }), 'Adding the domain');
    // The next step is the domain's own records: its page shows them.
    navigate('domain', { id: String(answer.data.id) });
  });
  return (
    <Form class="card narrow-form" onSubmit={add.run} failure={add.failure} aria-labelledby="dm-add-title">
      <h2 id="dm-add-title">Add a domain</h2>
      <TextField
        id="dm-domain"
        label="Domain"
        {...bind('domain')}
        hint="The part after the @ of your From address, e.g. example.com. Its page then lists the DNS records to publish."
        spellcheck={false}
        required
      />
      <FailureAlert />
      <FormActions submit="Add domain" busy={add.busy} busyLabel="Adding…" />
    </Form>
  );
}
