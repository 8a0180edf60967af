import { conflict, notFound, unprocessable } from '../../errors.js';
import type { BroadcastReadDeps, BroadcastWriteDeps } from './broadcasts-api.js';
import { broadcastView, definitionIssues, normalized } from './broadcasts-api.js';
import type { BroadcastReplaceBody, BroadcastView } from './schemas.js';

/**
 * PUT /client/broadcasts/{id}: the draft's name and definition replaced whole, checked as a create is (every problem
 * at its path, nothing written), `draft_version` + 1. One conditional update on the status and the `draft_version`
 * read: a broadcast scheduled meanwhile, or a draft saved by another tab, is 409 `state` with nothing written.
 * Only a draft: once scheduled, its audience and e-mail are what the engine reads (cancel it and make a new one).
 */
export async function replaceBroadcastDraft(
  deps: BroadcastReadDeps & Pick<BroadcastWriteDeps, 'templates' | 'topics' | 'segments' | 'clock'>,
  clientId: number,
  id: number,
  body: BroadcastReplaceBody,
): Promise<BroadcastView> {
  const now = deps.clock.now();
  const [{ broadcast }, issues] = await Promise.all([
    deps.broadcasts.get(clientId, id),
    definitionIssues(deps, clientId, body.definition, now),
  ]);
  if (!broadcast) throw notFound('id', 'Broadcast not found');
  if (broadcast.status !== 'draft')
    throw conflict('state', 'status', `A ${broadcast.status} broadcast cannot be edited: only a draft can`);
  if (broadcast.draft_version !== body.draft_version)
    throw conflict('state', 'draft_version', 'The draft changed since it was read: read it again');
  if (issues.length > 0) throw unprocessable(issues);
  const saved = await deps.broadcasts.replaceDraft({
    clientId,
    broadcastId: id,
    draftVersion: body.draft_version,
    name: body.name,
    definition: normalized(body.definition),
    at: now.toISOString(),
  });
  if (!saved) throw conflict('state', 'draft_version', 'The broadcast changed since it was read: read it again');
  return broadcastView(saved, undefined);
}

/**
 * DELETE /client/broadcasts/{id}: a draft only (one conditional delete). A broadcast ever scheduled stays on record:
 * its recipients, e-mails and results name it; cancel stops it.
 */
export async function deleteBroadcastDraft(
  deps: BroadcastReadDeps,
  clientId: number,
  id: number,
): Promise<{ id: number; deleted: true }> {
  const outcome = await deps.broadcasts.deleteDraft(clientId, id);
  if (outcome === 'deleted') return { id, deleted: true };
  if (outcome === 'missing') throw notFound('id', 'Broadcast not found');
  throw conflict(
    'state',
    'status',
    `A ${outcome.status} broadcast cannot be deleted: only a draft can (cancel a scheduled or sending one)`,
  );
}
