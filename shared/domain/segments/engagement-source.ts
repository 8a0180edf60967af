/**
 * Which source (segments' engagement conditions, definition/specs.ts engagementSourceKey) an e-mail belongs to, from
 * the fields its execution copies onto the sent e-mail and the provider id's item: a broadcast's recipient carries its
 * `broadcast_id`, a journey's send step its `step_id` with the journey's id as `workflow_id` (≥ 1000). The system
 * workflows' e-mails and test sends belong to none.
 */
import type { EngagementFacts } from './definition/types.js';

export const FIRST_JOURNEY_ID = 1000;

export function sourceKeyOfMessage(message: {
  broadcast_id?: number;
  workflow_id?: number;
  step_id?: string;
}): string | undefined {
  if (message.broadcast_id !== undefined) return `B${message.broadcast_id}`;
  if (message.step_id !== undefined && message.workflow_id !== undefined && message.workflow_id >= FIRST_JOURNEY_ID)
    return `J${message.workflow_id}`;
  return undefined;
}

/**
 * What one notification or send changes on a contact's engagement item: the first send of a broadcast (`sent_at`, kept
 * when already there), the last human open / click (overwritten, as the contact's own `last_email_opened_at`).
 */
export interface EngagementChange {
  source: string;
  sentAt?: string;
  openedAt?: string;
  clickedAt?: string;
}

/** The facts after `change`, from the ones held (absent: none yet). */
export function engagementAfter(held: EngagementFacts | undefined, change: EngagementChange): EngagementFacts {
  return {
    ...held,
    ...(change.sentAt && !held?.sent_at ? { sent_at: change.sentAt } : {}),
    ...(change.openedAt ? { opened_at: change.openedAt } : {}),
    ...(change.clickedAt ? { clicked_at: change.clickedAt } : {}),
  };
}
