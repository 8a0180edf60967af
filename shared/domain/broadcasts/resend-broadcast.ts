import { conflict, notFound } from '../../errors.js';
import type { JourneyTime } from '../../platform.js';
import { BROADCAST_LIMITS } from '../../public/broadcast-rules.js';
import { dispatchBroadcast } from '../engine/dispatch.js';
import { broadcastView, type BroadcastWriteDeps } from './broadcasts-api.js';
import type { BroadcastResendBody, BroadcastView } from './schemas.js';

const RESEND_SUFFIX = ' (resend)';

/**
 * POST …/{id}/resend: a child broadcast to the parent's recipients who never opened it, with another subject,
 * scheduled at the parent's start + `after_hours` (at once when that has passed). The child carries the parent's
 * template (the winner's when an A/B test chose one), category, topic and priority; its audience is read when it
 * starts, from the parent's recipients (the snapshot's `resend_of` source), so opens until then count. One
 * transaction writes the child and sets the parent's `resend_id` on condition it started and has none (409 `state`
 * otherwise); then the start message (SQS within 15 minutes, a schedule beyond; the sweep starts a child whose
 * message was lost). `after_hours` is measured in the runtime's journey time (one real hour on AWS).
 */
export async function resendBroadcast(
  deps: Pick<BroadcastWriteDeps, 'broadcasts' | 'queue' | 'scheduler' | 'clock'> & { journeyTime: JourneyTime },
  clientId: number,
  id: number,
  body: BroadcastResendBody,
): Promise<BroadcastView> {
  const { broadcast: parent } = await deps.broadcasts.get(clientId, id);
  if (!parent) throw notFound('id', 'Broadcast not found');
  if (parent.resend_id !== undefined)
    throw conflict('state', 'id', `Broadcast ${parent.resend_id} already resends this one (one resend a broadcast)`);
  if (!parent.started_at || !['snapshotting', 'sending', 'paused', 'sent'].includes(parent.status))
    throw conflict('state', 'status', `A ${parent.status} broadcast has no recipients to resend to`);
  const now = deps.clock.now();
  const due = Date.parse(parent.started_at) + body.after_hours * 60 * deps.journeyTime.minuteMs;
  const startAt = new Date(Math.max(due, now.getTime())).toISOString();
  const winner = (parent as { winner?: { variant: number } }).winner;
  const template = parent.definition.variants[winner?.variant ?? 0] ?? parent.definition.variants[0]!;
  const { ab: _ab, ...definition } = parent.definition as typeof parent.definition & { ab?: unknown };
  const at = now.toISOString();
  const made = await deps.broadcasts.createResend(
    clientId,
    id,
    {
      client_id: clientId,
      name: `${parent.name.slice(0, BROADCAST_LIMITS.nameChars - RESEND_SUFFIX.length)}${RESEND_SUFFIX}`,
      kind: 'resend',
      parent_id: id,
      status: 'scheduled',
      draft_version: 1,
      definition: {
        ...definition,
        variants: [{ template_id: template.template_id, subject: body.subject }],
        schedule: { mode: 'at', send_at: startAt },
      },
      scheduled_at: startAt,
      created_at: at,
      updated_at: at,
    },
    startAt,
  );
  if (made === 'missing') throw notFound('id', 'Broadcast not found');
  if (made === 'exists')
    throw conflict('state', 'id', 'This broadcast already has its resend (one resend a broadcast)');
  if ('refused' in made)
    throw conflict('state', 'status', `A ${made.refused} broadcast has no recipients to resend to`);
  const child = made;
  await dispatchBroadcast(
    deps,
    { client_id: clientId, broadcast_id: child.id, kind: 'start', gen: 1 },
    new Date(startAt),
    now,
  );
  return broadcastView(child, undefined);
}
