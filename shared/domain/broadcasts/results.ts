import { stringify } from 'csv-stringify';
import { invalidField, notFound } from '../../errors.js';
import { BROADCAST_LIMITS, type BroadcastRecipientStatus } from '../../public/broadcast-rules.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../executions/execution-record.js';
import { signedCursor } from '../pagination/signed-cursor.js';
import { SENT_STATUS, type SentStatus } from '../sent-emails/sent-email-record.js';
import type { BroadcastLinkRow, BroadcastStore, RecipientDetails } from './broadcast-store.js';
import { broadcastView } from './broadcasts-api.js';
import type {
  BroadcastDetail,
  BroadcastRecipient,
  BroadcastRecipientList,
  BroadcastRecipientsQuery,
} from './schemas.js';

/**
 * GET /client/broadcasts/{id}: the head with its totals (one BatchGetItem) and its link rows (one Query), in one
 * wave. The links are listed by people's clicks, most first, at most `linksShown`; `links_total` counts them all.
 */
export async function getBroadcastDetail(
  deps: { broadcasts: BroadcastStore },
  clientId: number,
  id: number,
): Promise<BroadcastDetail> {
  const [{ broadcast, totals, variants }, links] = await Promise.all([
    deps.broadcasts.get(clientId, id),
    deps.broadcasts.links(clientId, id),
  ]);
  if (!broadcast) throw notFound('id', 'Broadcast not found');
  return {
    ...broadcastView(broadcast, totals, variants),
    links: rankedLinks(links)
      .slice(0, BROADCAST_LIMITS.linksShown)
      .map((l) => ({ url: l.url, human_clicks: l.human, machine_clicks: l.machine })),
    links_total: links.length,
  };
}

/** By people's clicks, then machines', then the URL (a stable order for equal counts). */
export const rankedLinks = (links: readonly BroadcastLinkRow[]): BroadcastLinkRow[] =>
  [...links].sort((a, b) => b.human - a.human || b.machine - a.machine || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));

const cursors = signedCursor('broadcast-recipients-cursor:v1:', 160);
/** A listing position: `<pad12 contact>#<pad16 execution>` (keys.broadcastRecipientListing's sort key). */
const POSITION = /^\d{12}#\d{16}$/;

interface CursorPayload {
  c: number;
  b: number;
  a: string;
  s: string | null;
}

/** The execution statuses a recipient status can come from (the listing Query's filter: fewer e-mails read). */
const EXECUTIONS_OF: Record<BroadcastRecipientStatus, readonly number[]> = {
  queued: [EXECUTION_STATUS.queued, EXECUTION_STATUS.executing],
  sent: [EXECUTION_STATUS.completed],
  delivered: [EXECUTION_STATUS.completed],
  opened: [EXECUTION_STATUS.completed],
  clicked: [EXECUTION_STATUS.completed],
  unsubscribed: [EXECUTION_STATUS.completed],
  bounced: [EXECUTION_STATUS.completed],
  complained: [EXECUTION_STATUS.completed],
  failed: [EXECUTION_STATUS.failed, EXECUTION_STATUS.completed],
  skipped: [EXECUTION_STATUS.skipped],
  cancelled: [EXECUTION_STATUS.cancelled],
  retried: [EXECUTION_STATUS.retried],
};

/** Rounds of reading one answer may take to fill a filtered page (each a wave of 16 Queries and a detail wave). */
const MAX_ROUNDS = 5;

export interface RecipientsDeps {
  broadcasts: BroadcastStore;
  cursorSecret: string;
}

/**
 * GET /client/broadcasts/{id}/recipients: recipients in (contact, execution) order, each with its status from its
 * execution and its e-mail. A round reads the 16 listing shards (one wave of Queries, filtered to the execution
 * statuses the asked status can come from), then its e-mails, their human markers and the unsent contacts' addresses
 * (one wave of BatchGetItems); a filtered page reads up to 5 rounds to fill itself. The cursor is signed, bound to the
 * client, the broadcast and the filter. The head is read in the first wave (404 for another client's id).
 */
export async function listBroadcastRecipients(
  deps: RecipientsDeps,
  clientId: number,
  broadcastId: number,
  query: Pick<BroadcastRecipientsQuery, 'status' | 'cursor'> & { per_page: number },
): Promise<BroadcastRecipientList> {
  const page = await readRecipients(deps, clientId, broadcastId, query, {
    want: query.per_page,
    roundLimit: query.per_page,
    rounds: MAX_ROUNDS,
  });
  return { recipients: page.recipients, next_cursor: page.nextCursor };
}

/** The CSV's columns, in order: a recipient row's fields. */
export const RECIPIENT_CSV_COLUMNS = [
  'contact_id',
  'email',
  'execution_id',
  'sent_email_id',
  'variant',
  'status',
  'reason',
  'sent_at',
  'human_opened',
  'human_clicked',
  'converted_at',
] as const satisfies readonly (keyof BroadcastRecipient)[];

/** Rows a round of the export reads (16 Queries of up to this many, merged, then their details). */
const EXPORT_ROUND_ROWS = 500;
/** Rounds one export page may take (a sparse filter ends the page early, with its cursor). */
const EXPORT_ROUNDS = 20;

/**
 * GET …/recipients/export: the same list as CSV (RFC 4180 by csv-stringify, a header row, empty cells for nulls),
 * up to `exportRowsPerPage` rows an answer, read in rounds of 500 written to the stringifier as they come;
 * `nextCursor` when more follow (the answer's `Link: <?cursor=…>; rel="next"`).
 */
export async function exportBroadcastRecipients(
  deps: RecipientsDeps,
  clientId: number,
  broadcastId: number,
  query: Pick<BroadcastRecipientsQuery, 'status' | 'cursor'>,
): Promise<{ csv: string; nextCursor: string | null }> {
  const csv = stringify({ header: true, columns: [...RECIPIENT_CSV_COLUMNS], cast: { boolean: (b) => String(b) } });
  const chunks: string[] = [];
  csv.on('data', (chunk: Buffer | string) => chunks.push(chunk.toString()));
  const ended = new Promise<void>((resolve, reject) => {
    csv.on('end', resolve);
    csv.on('error', reject);
  });
  const page = await readRecipients(deps, clientId, broadcastId, query, {
    want: BROADCAST_LIMITS.exportRowsPerPage,
    roundLimit: EXPORT_ROUND_ROWS,
    rounds: EXPORT_ROUNDS,
    onRound: (rows) => {
      for (const row of rows) csv.write(row);
    },
  });
  csv.end();
  await ended;
  return { csv: chunks.join(''), nextCursor: page.nextCursor };
}

/** Rounds of reading until `want` rows matched, the list ended, or `rounds` were read. */
async function readRecipients(
  deps: RecipientsDeps,
  clientId: number,
  broadcastId: number,
  query: Pick<BroadcastRecipientsQuery, 'status' | 'cursor'>,
  plan: { want: number; roundLimit: number; rounds: number; onRound?: (rows: BroadcastRecipient[]) => void },
): Promise<{ recipients: BroadcastRecipient[]; nextCursor: string | null }> {
  const status = query.status ?? null;
  let after = positionOf(deps.cursorSecret, clientId, broadcastId, status, query.cursor);
  const recipients: BroadcastRecipient[] = [];
  let head: Awaited<ReturnType<BroadcastStore['get']>> | undefined;
  for (let round = 0; round < plan.rounds; round += 1) {
    const limit = Math.min(plan.roundLimit, plan.want - recipients.length);
    const [read, page] = await Promise.all([
      head ? Promise.resolve(head) : deps.broadcasts.get(clientId, broadcastId),
      deps.broadcasts.recipientPage(clientId, broadcastId, {
        ...(after !== undefined ? { after } : {}),
        limit,
        ...(status ? { statuses: EXECUTIONS_OF[status] } : {}),
      }),
    ]);
    head = read;
    if (!head.broadcast) throw notFound('id', 'Broadcast not found');
    const details = await deps.broadcasts.recipientDetails(clientId, page.recipients);
    const rows = page.recipients
      .map((r) => recipientRow(r, details))
      .filter((row) => status === null || row.status === status);
    recipients.push(...rows);
    plan.onRound?.(rows);
    after = page.nextAfter;
    if (after === undefined || recipients.length >= plan.want) break;
  }
  return {
    recipients,
    nextCursor:
      after === undefined
        ? null
        : cursors.sign(deps.cursorSecret, { c: clientId, b: broadcastId, a: after, s: status } satisfies CursorPayload),
  };
}

function positionOf(
  secret: string,
  clientId: number,
  broadcastId: number,
  status: string | null,
  cursor: string | undefined,
): string | undefined {
  if (cursor === undefined) return undefined;
  const parsed = cursors.read(secret, cursor) as Partial<CursorPayload> | undefined;
  if (
    !parsed ||
    parsed.c !== clientId ||
    parsed.b !== broadcastId ||
    parsed.s !== status ||
    typeof parsed.a !== 'string' ||
    !POSITION.test(parsed.a)
  )
    throw invalidField(
      'format',
      'cursor',
      'Not a cursor of this list (another list, client, broadcast or filter, or altered)',
    );
  return parsed.a;
}

/** A recipient's e-mail's furthest step, people's engagement only (a machine's open or click never moves it). */
function emailStatus(status: SentStatus | undefined, opened: boolean, clicked: boolean): BroadcastRecipientStatus {
  switch (status) {
    case SENT_STATUS.complained:
      return 'complained';
    case SENT_STATUS.bounced:
      return 'bounced';
    case SENT_STATUS.rejected:
    case SENT_STATUS.failed:
      return 'failed';
    case SENT_STATUS.unsubscribed:
      return 'unsubscribed';
    default:
      if (clicked) return 'clicked';
      if (opened) return 'opened';
      return status === SENT_STATUS.delivered || status === SENT_STATUS.opened || status === SENT_STATUS.clicked
        ? 'delivered'
        : 'sent';
  }
}

const EXECUTION_ENDS: Partial<Record<number, BroadcastRecipientStatus>> = {
  [EXECUTION_STATUS.queued]: 'queued',
  [EXECUTION_STATUS.executing]: 'queued',
  [EXECUTION_STATUS.failed]: 'failed',
  [EXECUTION_STATUS.skipped]: 'skipped',
  [EXECUTION_STATUS.cancelled]: 'cancelled',
  [EXECUTION_STATUS.retried]: 'retried',
};

/** One recipient as listed, from its execution and what its e-mail says. */
export function recipientRow(execution: ExecutionRecord, details: RecipientDetails): BroadcastRecipient {
  const sentId = execution.sent_email_id;
  const email = sentId ? details.emails.get(sentId) : undefined;
  const opened = sentId !== undefined && (details.humanOpened.has(sentId) || details.humanClicked.has(sentId));
  const clicked = sentId !== undefined && details.humanClicked.has(sentId);
  const completed = execution.status === EXECUTION_STATUS.completed;
  return {
    contact_id: execution.contact_id,
    email: details.contacts.get(execution.contact_id) ?? null,
    execution_id: execution.id,
    sent_email_id: sentId ?? null,
    variant: typeof execution.variant === 'number' ? execution.variant : null,
    status: completed ? emailStatus(email?.status, opened, clicked) : (EXECUTION_ENDS[execution.status] ?? 'queued'),
    reason: completed ? null : (execution.reason ?? null),
    sent_at: completed && sentId !== undefined ? (execution.processed_at ?? null) : null,
    human_opened: opened,
    human_clicked: clicked,
    converted_at: execution.converted_at ?? null,
  };
}
