import { useState } from 'preact/hooks';
import {
  BROADCAST_LIMITS,
  BROADCAST_RECIPIENT_STATUSES,
  type BroadcastRecipientStatus,
} from '../../../../shared/public/broadcast-rules.js';
import { type Api, failureOf } from '../../api/client.js';
import type { components } from '../../api/openapi.js';
import { Link } from '../../components/link.js';
import { ApiFailure, answerOf } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import { useLoad } from '../../data/use-load.js';
import { DataTable } from '../../ui/data-table.js';
import { SelectField } from '../../ui/inputs.js';
import { ActionStatus, LoadStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';
import { countText } from '../segments/segment-text.js';
import { variantLabel } from './broadcast-ab.js';
import type { Broadcast } from './broadcast-text.js';

type Recipient = components['schemas']['BroadcastRecipient'];

/** Saves `text` as a file the browser downloads (a Blob of this page: nothing is fetched from another origin). */
function download(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the Blob to the download; the URL is released once that has begun.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The records of a CSV text: its line breaks outside quoted cells (a quoted cell may hold one), the last one ended. */
export function recordsIn(csv: string): number {
  let records = 0;
  let quoted = false;
  for (const char of csv) {
    if (char === '"') quoted = !quoted;
    else if (char === '\n' && !quoted) records += 1;
  }
  return records;
}

/**
 * Every page of GET …/recipients/export joined into one CSV: the first page whole, each following one without its
 * header row (each answer carries its own), following `X-Next-Cursor` until an answer has none.
 */
async function exportCsv(
  api: Api,
  id: number,
  status: BroadcastRecipientStatus | undefined,
  onRows: (rows: number) => void,
): Promise<{ csv: string; rows: number }> {
  let csv = '';
  let rows = 0;
  let cursor: string | undefined;
  do {
    const { data, error, response } = await api.GET('/api/v1/client/broadcasts/{id}/recipients/export', {
      params: { path: { id: String(id) }, query: { ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) } },
      parseAs: 'text',
    });
    if (!response.ok || typeof data !== 'string') {
      // A refusal is the JSON envelope (openapi-fetch parses an error's body as JSON when it is).
      const { message, errors } = failureOf(error, `Exporting the recipients failed (${response.status})`);
      throw new ApiFailure(message, errors, response.status);
    }
    // The header row has no quoted line break: its column names are plain words.
    const body = csv === '' ? data : data.slice(data.indexOf('\n') + 1);
    rows += Math.max(0, recordsIn(data) - 1);
    csv += body;
    onRows(rows);
    cursor = response.headers.get('x-next-cursor') ?? undefined;
  } while (cursor);
  return { csv, rows };
}

const byPeople = (recipient: Recipient): string =>
  [recipient.human_opened && 'opened', recipient.human_clicked && 'clicked'].filter(Boolean).join(', ') || '—';

/**
 * A started broadcast's recipients, a page at a time in the order the API keeps ("Next" follows its cursor, "First
 * page" goes back), filtered by status, read again as its totals move; and the whole list (the filter kept) as a CSV
 * download, its pages fetched and joined here.
 */
export function BroadcastRecipients({ api, broadcast }: { api: Api; broadcast: Broadcast }) {
  const [status, setStatus] = useState<BroadcastRecipientStatus | ''>('');
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const page = useLoad(
    async (signal) => {
      const query = {
        per_page: BROADCAST_LIMITS.recipientsPerPage,
        ...(status ? { status } : {}),
        ...(cursor ? { cursor } : {}),
      };
      const answer = await answerOf(
        api.GET('/api/v1/client/broadcasts/{id}/recipients', {
          params: { path: { id: String(broadcast.id) }, query },
          signal,
        }),
        'Reading the recipients',
      );
      return answer.data;
    },
    // The totals move as recipients do (sent, delivered, opened…): the page shown is read again with them.
    [api, broadcast.id, status, cursor, broadcast.status, JSON.stringify(broadcast.totals)],
    { keep: true },
  );
  const [exported, setExported] = useState(0);
  const exporting = useAction(async () => {
    setExported(0);
    const { csv, rows } = await exportCsv(api, broadcast.id, status || undefined, setExported);
    download(csv, `broadcast-${broadcast.id}-recipients${status ? `-${status}` : ''}.csv`);
    return `Downloaded ${countText(rows)} ${rows === 1 ? 'recipient' : 'recipients'} as CSV.`;
  });
  const data = page.data;
  const tested = broadcast.ab !== null;
  const converts = broadcast.definition.conversion !== undefined;
  return (
    <section class="card page-section" aria-labelledby="bc-recipients-title">
      <h2 id="bc-recipients-title">Recipients</h2>
      {broadcast.recipients === null && (
        <p class="hint">The audience is still being taken: this list grows until it is.</p>
      )}
      <div class="row-actions">
        <SelectField
          id="bc-recipients-status"
          label="Status"
          name="status"
          value={status}
          onValue={(value) => {
            setStatus(value as BroadcastRecipientStatus | '');
            setCursors([]);
          }}
        >
          <option value="">Any status</option>
          {BROADCAST_RECIPIENT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </SelectField>
        <button type="button" class="secondary" disabled={exporting.busy} onClick={() => void exporting.run()}>
          {exporting.busy ? `Downloading… ${countText(exported)} rows` : 'Download CSV'}
        </button>
      </div>
      <ActionStatus action={exporting} />
      <LoadStatus loaded={page} />
      {data && (
        <>
          <DataTable
            id="bc-recipients-table"
            label="Recipients table"
            caption={cursors.length === 0 ? undefined : `Page ${cursors.length + 1}`}
            rows={data.recipients}
            rowKey={(recipient) => recipient.execution_id}
            empty={
              <p class="hint">
                No recipient{status ? ` ${status}` : ''}
                {cursors.length > 0 ? ' on this page' : ' yet'}.
              </p>
            }
            columns={[
              {
                head: 'Contact',
                rowHeader: true,
                class: 'wrap-anywhere',
                cell: (recipient) => (
                  <Link page="contact" params={{ id: String(recipient.contact_id) }}>
                    {recipient.email ?? `#${recipient.contact_id} (erased)`}
                  </Link>
                ),
              },
              {
                head: 'Status',
                cell: (recipient) => (
                  <>
                    {recipient.status}
                    {recipient.reason && <span class="hint"> ({recipient.reason})</span>}
                  </>
                ),
              },
              ...(tested
                ? [
                    {
                      head: 'Variant',
                      cell: (recipient: Recipient) =>
                        recipient.variant === null ? '—' : variantLabel(recipient.variant),
                    },
                  ]
                : []),
              { head: 'Sent', cell: (recipient) => <When at={recipient.sent_at} /> },
              { head: 'By people', cell: byPeople },
              ...(converts
                ? [{ head: 'Converted', cell: (recipient: Recipient) => <When at={recipient.converted_at} /> }]
                : []),
              {
                head: 'E-mail',
                cell: (recipient) =>
                  recipient.sent_email_id ? (
                    <Link page="sent-email" params={{ id: recipient.sent_email_id }}>
                      View<span class="visually-hidden"> the e-mail to {recipient.email ?? 'this contact'}</span>
                    </Link>
                  ) : (
                    '—'
                  ),
              },
            ]}
          />
          {(data.next_cursor || cursors.length > 0) && (
            <nav class="pager" aria-label="Pages of recipients">
              {cursors.length > 0 && (
                <button type="button" class="secondary" onClick={() => setCursors([])}>
                  First page
                </button>
              )}
              {data.next_cursor && (
                <button type="button" onClick={() => setCursors([...cursors, data.next_cursor as string])}>
                  Next
                </button>
              )}
            </nav>
          )}
        </>
      )}
    </section>
  );
}
