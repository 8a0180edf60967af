import { contactsLeftAttribute } from '../../domain/topics/topic-store.js';
import { keys } from './keys.js';

/**
 * The topics item's Update that moves `contacts_left_<id>` of each topic by its delta, for a transaction
 * whose contact write is conditioned on the choices it changes; undefined when no count moves. No condition of its
 * own: the contact's decides (a contact with a choice has a topics item; a bare one left by a late ADD holds no
 * version, which the first save accepts).
 */
export function contactsLeftUpdate(tableName: string, clientId: number, deltas: Record<number, number>) {
  const entries = Object.entries(deltas).filter(([, delta]) => delta !== 0);
  if (entries.length === 0) return undefined;
  return {
    Update: {
      TableName: tableName,
      Key: keys.topics(clientId),
      UpdateExpression: `ADD ${entries.map((_, i) => `#left${i} :left${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(
        entries.map(([id], i) => [`#left${i}`, contactsLeftAttribute(Number(id))]),
      ),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, delta], i) => [`:left${i}`, delta])),
    },
  };
}
