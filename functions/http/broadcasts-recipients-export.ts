import { clientPage } from '../../shared/http/api.js';
import { broadcastStore } from '../../shared/composition/providers/broadcast-store.js';
import { linkSecret } from '../../shared/composition/providers/link-secret.js';
import { BROADCAST_LIMITS } from '../../shared/public/broadcast-rules.js';
import { exportBroadcastRecipients, RECIPIENT_CSV_COLUMNS } from '../../shared/domain/broadcasts/results.js';
import { BroadcastIdParams, BroadcastRecipientsExportQuery } from '../../shared/domain/broadcasts/schemas.js';

/** GET /client/broadcasts/{id}/recipients/export — the recipients as CSV, a page of rows an answer. */
export const handler = clientPage(
  {
    summary: "Export a broadcast's recipients as CSV",
    description:
      `The recipients list as \`text/csv\` (RFC 4180, a header row: ${RECIPIENT_CSV_COLUMNS.join(', ')}; empty ` +
      `cells for none), up to ${BROADCAST_LIMITS.exportRowsPerPage} rows an answer, \`status\` filtering as on the ` +
      'list. When more follow, the answer says where: `Link: <?cursor=…>; rel="next"` (relative to this URL, the ' +
      'filter kept) and `X-Next-Cursor`; join the pages, each with its own header row, into one file. ' +
      `\`Content-Disposition: attachment\`. Another account's broadcast: 404.`,
    params: BroadcastIdParams,
    query: BroadcastRecipientsExportQuery,
    contentTypes: ['text/csv'],
    pages: { 200: 'The CSV' },
    errors: [404],
  },
  [broadcastStore, linkSecret],
  async ({ params, query }, { deps, clientId }) => {
    const page = await exportBroadcastRecipients(
      { broadcasts: deps.broadcasts, cursorSecret: await deps.linkSecret.value() },
      clientId,
      params.id,
      query,
    );
    const next = page.nextCursor
      ? new URLSearchParams({ cursor: page.nextCursor, ...(query.status ? { status: query.status } : {}) })
      : undefined;
    return {
      status: 200 as const,
      file: { contentType: 'text/csv; charset=utf-8', body: page.csv, base64: false },
      headers: {
        'content-disposition': `attachment; filename="broadcast-${params.id}-recipients.csv"`,
        'cache-control': 'no-store',
        ...(next ? { link: `<?${next.toString()}>; rel="next"`, 'x-next-cursor': page.nextCursor! } : {}),
      },
    };
  },
);
