import type { components } from '../../api/openapi.js';
import { DataTable } from '../../ui/data-table.js';
import { countText } from '../segments/segment-text.js';

type Detail = components['schemas']['BroadcastDetail'];

/**
 * The links of a broadcast's e-mails by clicks, people's and machines' (link scanners, privacy proxies) apart. A URL
 * is shown as text, never as a link: it is the client's (or a contact's, through a variable), and the dashboard opens
 * no address it did not write.
 */
export function BroadcastLinks({ broadcast }: { broadcast: Pick<Detail, 'links' | 'links_total'> }) {
  const { links, links_total } = broadcast;
  return (
    <section class="card page-section" aria-labelledby="bc-links-title">
      <h2 id="bc-links-title">Links</h2>
      <DataTable
        id="bc-links-table"
        label="Links table"
        caption={
          links_total > links.length
            ? `The ${countText(links.length)} most clicked of ${countText(links_total)} links, by clicks by people`
            : 'Each link clicked, by clicks by people'
        }
        rows={links}
        rowKey={(link) => link.url}
        empty={<p class="hint">No link clicked yet.</p>}
        columns={[
          { head: 'Link', rowHeader: true, class: 'wrap-anywhere', cell: (link) => link.url },
          { head: 'Clicks by people', cell: (link) => countText(link.human_clicks) },
          { head: 'Clicks by machines', cell: (link) => countText(link.machine_clicks) },
        ]}
      />
      <p class="hint">
        Every click is counted, not only each contact’s first, about 10 seconds behind. Machines are link scanners,
        security gateways and privacy proxies.
      </p>
    </section>
  );
}
