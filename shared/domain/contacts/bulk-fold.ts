import { applyContactPatch, sameContact, type MergeContext } from './bulk-merge.js';
import type { ContactGroup, RowState } from './bulk-result.js';
import type { ContactRecord, ContactWrite } from './contact-store.js';

/**
 * Applies the group's rows in request order, as if each were sent on its own, and returns the one write that
 * stores the end result (none when nothing changes). Each row's status is what it did in that sequence.
 */
export function foldGroup(
  group: ContactGroup,
  contactId: number,
  stored: ContactRecord | undefined,
  ctx: MergeContext,
): ContactWrite | undefined {
  let state = stored;
  const applied: RowState[] = [];
  for (const row of group.rows) {
    if (row.status === 'failed') continue;
    const next = applyContactPatch(state, row.patch, contactId, ctx);
    row.pending = state === undefined ? 'created' : sameContact(state, next) ? 'unchanged' : 'updated';
    if (row.pending !== 'unchanged') state = next;
    applied.push(row);
  }
  if (!state || applied.length === 0) return undefined;
  if (!stored) return { kind: 'create', contact: state };
  if (sameContact(stored, state)) {
    // Rows that cancel each other out leave the contact as it was: nothing is written, every row is unchanged.
    for (const row of applied) row.status = 'unchanged';
    return undefined;
  }
  return { kind: 'update', before: stored, after: state };
}
