/**
 * The contacts' per-source engagement items (keys.contactEngagement: `CONTACT#<client>#<contact> / ENG#<source>`,
 * entity `contact_engagement`, so the change stream routes a change of one to the segments that read its source):
 * the transaction action that moves one, and the reads of the segments' evaluation and of a definition's references.
 */
import type { EngagementFacts } from '../../domain/segments/definition/types.js';
import type { EngagementChange } from '../../domain/segments/engagement-source.js';
import { ENTITY, keys, type ItemKey } from './keys.js';

type Item = Record<string, unknown>;

/**
 * The Update of one contact's engagement with one source: `sent_at` only if absent (the first send), the last human
 * open / click set. Unconditioned: the caller puts it in a transaction whose contact action is conditioned on the
 * contact existing (an erased contact cancels both), or, for a send, in the send's own transaction.
 */
export function engagementUpdate(tableName: string, clientId: number, contactId: number, change: EngagementChange) {
  const sets = ['entity = :entity', 'client_id = :client', 'contact_id = :contact', '#source = :source'];
  const values: Item = {
    ':entity': ENTITY.contactEngagement,
    ':client': clientId,
    ':contact': contactId,
    ':source': change.source,
  };
  if (change.sentAt) sets.push('sent_at = if_not_exists(sent_at, :sent)'), (values[':sent'] = change.sentAt);
  if (change.openedAt) sets.push('opened_at = :opened'), (values[':opened'] = change.openedAt);
  if (change.clickedAt) sets.push('clicked_at = :clicked'), (values[':clicked'] = change.clickedAt);
  return {
    Update: {
      TableName: tableName,
      Key: keys.contactEngagement(clientId, contactId, change.source),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ExpressionAttributeNames: { '#source': 'source' },
      ExpressionAttributeValues: values,
    },
  };
}

/** The facts an engagement item holds (undefined: no item). */
export function engagementFactsOf(item: Item | undefined): EngagementFacts | undefined {
  if (!item) return undefined;
  const text = (name: string) => (typeof item[name] === 'string' ? { [name]: item[name] as string } : {});
  return { ...text('sent_at'), ...text('opened_at'), ...text('clicked_at') };
}

/** The engagement keys of each contact for each source (read with the contact in the evaluation's BatchGetItem). */
export const engagementKeysOf = (clientId: number, contactId: number, sources: readonly string[]): ItemKey[] =>
  sources.map((source) => keys.contactEngagement(clientId, contactId, source));

/** A contact's engagement by source, from the items read (keyed `pk\0sk`). */
export function engagementOf(
  byKey: ReadonlyMap<string, Item>,
  clientId: number,
  contactId: number,
  sources: readonly string[],
): Record<string, EngagementFacts> | undefined {
  const found: Record<string, EngagementFacts> = {};
  for (const source of sources) {
    const key = keys.contactEngagement(clientId, contactId, source);
    const facts = engagementFactsOf(byKey.get(`${key.pk}\u0000${key.sk}`));
    if (facts) found[source] = facts;
  }
  return Object.keys(found).length > 0 ? found : undefined;
}

/** The head item of each source a definition names (`B<id>` a broadcast, `J<id>` a journey), to read its existence. */
export function sourceHeadKey(clientId: number, source: string): ItemKey | undefined {
  const id = Number(source.slice(1));
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  if (source.startsWith('B')) return keys.broadcast(clientId, id);
  if (source.startsWith('J')) return keys.journey(clientId, id);
  return undefined;
}
