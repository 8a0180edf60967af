import type { Queue } from '../../platform.js';
import { engagementWatch } from './definition/specs.js';
import type { MembershipStore } from './membership-store.js';
import { CONTACTS_PER_SEGMENTS_MESSAGE } from './segments-message.js';

/**
 * One change of a contact the stream saw: its item (`contact`), its event counters (`counters`) or its engagement
 * with one journey or broadcast (`engagement`, of `source`), with both images (absent: the item was created, or
 * removed).
 */
export interface SegmentChange {
  clientId: number;
  contactId: number;
  item: 'contact' | 'counters' | 'engagement';
  /** The engagement item's source key (`B<bid>`, `J<jid>`). */
  source?: string;
  old?: Record<string, unknown>;
  new?: Record<string, unknown>;
}

export interface RouteSegmentChangesDeps {
  membership: Pick<MembershipStore, 'index'>;
  queue: Queue;
}

/**
 * Whether a change can move its contact in or out of a segment whose index watches `watched`: a contact created or
 * removed, a counters item written (only an event a segment counts writes it), an engagement item of a source a
 * segment reads, or a watched attribute whose value
 * differs between the images. A send's figures (`total_emails_sent`, the claim's markers) move no segment unless one
 * reads them, so the stream's busiest contact writes route nothing.
 */
export function changeMatters(change: SegmentChange, watched: readonly string[]): boolean {
  // An engagement item matters only to segments reading its source: most e-mails' opens route nothing.
  if (change.item === 'engagement')
    return change.source !== undefined && watched.includes(engagementWatch(change.source));
  if (change.item === 'counters' || !change.old || !change.new) return true;
  return watched.some((name) => !sameValue(change.old![name], change.new![name]));
}

const sameValue = (a: unknown, b: unknown): boolean =>
  a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));

/**
 * The change router (the stream's non-windowed reader): the contacts of a batch whose change matters to their
 * client's segments go to the segments queue, de-duplicated, 25 a message, 10 messages a call. Clients without
 * segments cost nothing but their index read, which the configuration cache keeps (one read a client per cache
 * lifetime). A failed send rejects: the batch is handed over again, and evaluating a contact twice is harmless.
 */
export async function routeSegmentChanges(
  deps: RouteSegmentChangesDeps,
  changes: readonly SegmentChange[],
): Promise<{ routed: number; messages: number }> {
  const byClient = new Map<number, SegmentChange[]>();
  for (const change of changes) {
    const list = byClient.get(change.clientId) ?? [];
    list.push(change);
    byClient.set(change.clientId, list);
  }
  const messages: { client_id: number; contact_ids: number[] }[] = [];
  await Promise.all(
    [...byClient].map(async ([clientId, list]) => {
      const index = await deps.membership.index(clientId);
      if (!index || index.segments.length === 0) return;
      const ids = [...new Set(list.filter((c) => changeMatters(c, index.watched)).map((c) => c.contactId))];
      for (let i = 0; i < ids.length; i += CONTACTS_PER_SEGMENTS_MESSAGE)
        messages.push({ client_id: clientId, contact_ids: ids.slice(i, i + CONTACTS_PER_SEGMENTS_MESSAGE) });
    }),
  );
  if (messages.length > 0)
    await deps.queue.sendBatch(
      'segments',
      messages.map((m) => ({ message: { kind: 'contacts' as const, ...m } })),
    );
  return { routed: messages.reduce((n, m) => n + m.contact_ids.length, 0), messages: messages.length };
}
