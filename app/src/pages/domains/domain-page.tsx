import { useMemo, useState } from 'preact/hooks';
import { CHECK_NOW_MIN_SECONDS } from '../../../../shared/public/domain-rules.js';
import type { Api } from '../../api/client.js';
import { createLocalDnsApi, type LocalDnsRecord } from '../../api/local-dns.js';
import { Link } from '../../components/link.js';
import { answerOf } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import { useLoad } from '../../data/use-load.js';
import type { PageProps } from '../../page.js';
import { can } from '../../session.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { CopyButton } from '../../ui/copy-button.js';
import { type Column, DataTable } from '../../ui/data-table.js';
import { PageHead } from '../../ui/page-head.js';
import { ActionStatus, LoadStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';
import {
  type DnsRecord,
  DOMAIN_STATUS_TEXT,
  type Domain,
  FAILURE_TEXT,
  PURPOSE_TEXT,
  RECORD_STATUS_TEXT,
} from './domain-text.js';

type Deleted = Domain & { warning: string | null };

/**
 * One sending domain (`/app/domain/N`): what to do next, the DNS records to publish (each value copied with a
 * button), a check on request, its DMARC policy, and its deletion. On the local runtime, whose DNS is its own, a card
 * publishes the records there. Reads for every role; `manage` checks, publishes and deletes.
 */
export function DomainPage({ api, params, signedIn }: PageProps) {
  const id = params['id'] ?? '';
  if (!id) {
    return (
      <section>
        <h1>Domain</h1>
        <p>
          No domain named: open one from <Link page="domains">Domains</Link>.
        </p>
      </section>
    );
  }
  // Another domain is another page: nothing of the one before (a check's words, a deletion) stays.
  return <DomainView key={id} api={api} id={id} editable={can(signedIn, 'manage')} />;
}

function DomainView(props: { api: Api; id: string; editable: boolean }) {
  const { api, id, editable } = props;
  const path = { params: { path: { id } } };
  const loaded = useLoad(
    async (signal) => {
      if (!/^\d+$/.test(id)) throw new Error(`No domain named: ${id}`);
      return (await answerOf(api.GET('/api/v1/client/domains/{id}', { ...path, signal }), 'Reading the domain')).data;
    },
    [api, id],
  );
  const [deleted, setDeleted] = useState<Deleted | undefined>();
  const check = useAction(async () => {
    remove.reset();
    const before = loaded.data?.last_checked_at;
    const answer = await answerOf(api.POST('/api/v1/client/domains/{id}/verify', path), 'Checking the domain');
    loaded.update(() => answer.data);
    // Checked moments ago, the API answers the stored state without looking again: say so rather than "checked".
    if (before && answer.data.last_checked_at === before) {
      return `Looked at less than ${CHECK_NOW_MIN_SECONDS} s ago, so not again yet: press Check now in a few seconds.`;
    }
    return `Checked: ${DOMAIN_STATUS_TEXT[answer.data.status].toLowerCase()}. ${nextStepOf(answer.data)}`;
  });
  const remove = useAction(async () => {
    check.reset();
    const answer = await answerOf(api.DELETE('/api/v1/client/domains/{id}', path), 'Deleting the domain');
    setDeleted(answer.data);
  });

  if (deleted) {
    return (
      <section aria-labelledby="dm-domain-title">
        <PageHead id="dm-domain-title" title={deleted.domain} />
        <div class="card" role="status">
          <p>{deleted.domain} is deleted: no mail goes out From it any more.</p>
          {deleted.warning && <p class="status status-warning">{deleted.warning}</p>}
          <p>
            <Link page="domains">Back to Domains</Link>
          </p>
        </div>
      </section>
    );
  }

  const domain = loaded.data;
  return (
    <section aria-labelledby="dm-domain-title">
      <p>
        <Link page="domains">← Domains</Link>
      </p>
      <PageHead id="dm-domain-title" title={domain?.domain ?? `Domain #${id}`} />
      <LoadStatus loaded={loaded} />
      {domain && (
        <>
          <section class="card" aria-labelledby="dm-state-title">
            <h2 id="dm-state-title">
              Status: <span class={`outcome outcome-${domain.status}`}>{DOMAIN_STATUS_TEXT[domain.status]}</span>
            </h2>
            {domain.failure_reason && <p class="outcome-reason">{FAILURE_TEXT[domain.failure_reason]}</p>}
            <p>{nextStepOf(domain)}</p>
            <dl class="figures">
              <dt>Added</dt>
              <dd>
                <When at={domain.created_at} />
              </dd>
              {domain.status === 'awaiting_proof' && (
                <>
                  <dt>Proof due by</dt>
                  <dd>
                    <When at={domain.proof_expires_at} />
                  </dd>
                </>
              )}
              <dt>Ownership proven</dt>
              <dd>
                <When at={domain.proven_at} />
              </dd>
              <dt>Verified</dt>
              <dd>
                <When at={domain.verified_at} />
              </dd>
              <dt>Last checked</dt>
              <dd>
                <When at={domain.last_checked_at} />
              </dd>
              <dt>Next check at</dt>
              <dd>
                {domain.next_check_at ? <When at={domain.next_check_at} /> : 'None: the service no longer checks it'}
              </dd>
            </dl>
            {editable && domain.status !== 'failed' && (
              <div class="row-actions page-section">
                <button type="button" disabled={check.busy || remove.busy} onClick={() => check.run()}>
                  {check.busy ? 'Checking…' : 'Check now'}
                </button>
              </div>
            )}
            <ActionStatus action={check} />
          </section>
          <Records domain={domain} />
          {editable && <LocalDns domain={domain} />}
          <DmarcCard domain={domain} />
          {editable && (
            <section class="card danger-zone" aria-labelledby="dm-delete-title">
              <h2 id="dm-delete-title">Delete this domain</h2>
              <p>
                The domain leaves SES and this account: mail From it stops at once. A From address at it falls back to
                another verified domain, or to the sandbox when none is left. You can add it again later.
              </p>
              <ConfirmButton
                label="Delete"
                name={`Delete ${domain.domain}`}
                confirm={`Delete ${domain.domain} for good?`}
                busy={remove.busy || check.busy}
                danger
                onConfirm={() => remove.run()}
              />
              <ActionStatus action={remove} />
            </section>
          )}
        </>
      )}
    </section>
  );
}

/** What the person does next, by the domain's state. */
function nextStepOf(domain: Domain): string {
  switch (domain.status) {
    case 'awaiting_proof':
      return 'Publish the ownership record below at your DNS host. The service looks for it by itself; press Check now once it is published.';
    case 'verifying':
      return 'Ownership proven. Publish the three DKIM records below (and the MAIL FROM and DMARC records, advised): SES verifies the domain once it finds them.';
    case 'verified':
      return `You may send From any address at ${domain.domain}: choose it under Settings.`;
    case 'failed':
      return 'Delete the domain and add it again to start over.';
  }
}

/** A record's value's element id: its Copy button selects it where the browser allows no clipboard. */
const valueIdOf = (at: number) => `dm-record-${at}-value`;

function Records({ domain }: { domain: Domain }) {
  const rows = domain.records.map((record, at) => ({ ...record, at }));
  const columns: Column<DnsRecord & { at: number }>[] = [
    {
      head: 'Purpose',
      rowHeader: true,
      cell: (record) => (
        <>
          {PURPOSE_TEXT[record.purpose]}
          <small>{record.required ? 'required' : 'advised'}</small>
        </>
      ),
    },
    { head: 'Type', cell: (record) => record.type },
    {
      head: 'Name',
      class: 'wrapping-code',
      cell: (record) => <code>{record.name}</code>,
    },
    {
      head: 'Value',
      class: 'wrapping-code',
      cell: (record) => (
        <>
          <code id={valueIdOf(record.at)}>{record.value}</code>{' '}
          <CopyButton
            value={record.value}
            target={valueIdOf(record.at)}
            name={`Copy the value of ${record.type} ${record.name}`}
            small
          />
        </>
      ),
    },
    { head: 'Priority', cell: (record) => record.priority ?? '—' },
    {
      head: 'Status',
      class: 'outcome-cell',
      cell: (record) => <span class={`outcome outcome-${record.status}`}>{RECORD_STATUS_TEXT[record.status]}</span>,
    },
  ];
  return (
    <section class="page-section" aria-labelledby="dm-records-title">
      <h2 id="dm-records-title">DNS records</h2>
      <p class="hint">
        Publish these at your DNS host. Some hosts want the name without the domain ({domain.domain}) at its end. The
        DKIM records show once the ownership record is found.
      </p>
      <DataTable
        id="dm-records"
        label="DNS records table"
        caption={`Records for ${domain.domain}`}
        rows={rows}
        rowKey={(record) => record.at}
        columns={columns}
      />
    </section>
  );
}

function DmarcCard({ domain }: { domain: Domain }) {
  const { dmarc } = domain;
  return (
    <section class="card page-section" aria-labelledby="dm-dmarc-title">
      <h2 id="dm-dmarc-title">DMARC</h2>
      <dl class="figures">
        <dt>Policy</dt>
        <dd>{dmarc.policy ? <code>p={dmarc.policy}</code> : 'None found'}</dd>
        <dt>Record</dt>
        <dd class="wrap-anywhere">{dmarc.record ? <code>{dmarc.record}</code> : '—'}</dd>
        <dt>Bulk sender rules</dt>
        <dd>
          <span class={dmarc.meets_bulk_sender_rules ? 'status status-healthy' : 'status status-warning'}>
            {dmarc.meets_bulk_sender_rules ? 'Met' : 'Not met'}
          </span>
        </dd>
      </dl>
      <p class="hint">{dmarc.advice}</p>
    </section>
  );
}

/** The records as the local DNS takes them (a priority for an MX record only). */
export const localRecordsOf = (domain: Domain): LocalDnsRecord[] =>
  domain.records.map((record) => ({
    name: record.name,
    type: record.type,
    value: record.value,
    ...(record.priority !== null ? { priority: record.priority } : {}),
  }));

/**
 * The local runtime's DNS: shown only where its dev route answers (the local runtime; AWS has no such route, 404),
 * it publishes the records shown above there, for the checks to find.
 */
function LocalDns({ domain }: { domain: Domain }) {
  const dns = useMemo(() => createLocalDnsApi(), []);
  const probe = useLoad(
    async (signal) => {
      const answer = await dns.GET('/api/v1/dev/dns-records', { params: { query: { name: domain.domain } }, signal });
      return answer.response.ok;
    },
    [dns, domain.domain],
  );
  const publish = useAction(async () => {
    const records = localRecordsOf(domain);
    await answerOf(dns.PUT('/api/v1/dev/dns-records', { body: { records } }), 'Publishing to the local DNS');
    return `${records.length} records published to the local DNS: press Check now.`;
  });
  if (!probe.data) return null;
  return (
    <section class="card page-section" aria-labelledby="dm-local-title">
      <h2 id="dm-local-title">Local runtime</h2>
      <p>
        This runtime answers DNS itself: nothing is looked up on the internet, so no DNS host can publish these records.
        Publish them here instead, then press Check now (twice: the DKIM records appear once ownership is proven).
      </p>
      <button type="button" disabled={publish.busy} onClick={() => publish.run()}>
        Publish these records to the local DNS
      </button>
      <ActionStatus action={publish} />
    </section>
  );
}
