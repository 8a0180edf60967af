import type { ContactRecord } from '../contacts/contact-store.js';
import type { EventRecord } from '../events/event-record.js';
import type { SegmentTrigger } from '../journeys/definition/types.js';
import type { JourneyIndex } from '../journeys/journey-records.js';

/** The event type the membership engine writes when a contact enters or leaves a segment a live journey listens to. */
export const SEGMENT_EVENT_TYPES = { enter: 'segment.entered', leave: 'segment.left' } as const;

export const segmentEventType = (on: SegmentTrigger['on']): string => SEGMENT_EVENT_TYPES[on];

/** Whether an event is the membership engine's own (a client's event of the same type never is). */
export const isSegmentEvent = (event: Pick<EventRecord, 'origin'>): boolean => event.origin === 'segment';

/** Whether the membership engine's event meets a journey's segment trigger: its segment and its direction. */
export function segmentTriggerMet(trigger: SegmentTrigger, event: EventRecord): boolean {
  return (
    isSegmentEvent(event) && event.segment_id === trigger.segment_id && event.type === segmentEventType(trigger.on)
  );
}

/**
 * The segment transitions the client's live journeys listen to, as `<segment>:<enter|leave>`: only these become
 * events (a paused journey starts no run, so its transitions write nothing).
 */
export function segmentTriggersOf(index: JourneyIndex | undefined): ReadonlySet<string> {
  const triggers = new Set<string>();
  for (const journey of index?.journeys ?? []) {
    const segment = journey.trigger.segment;
    if (journey.status === 'live' && segment !== undefined) triggers.add(triggerKey(segment.segment_id, segment.on));
  }
  return triggers;
}

const triggerKey = (segmentId: number, on: SegmentTrigger['on']) => `${segmentId}:${on}`;

/**
 * The events one contact's membership transition writes, in the same transaction as the transition (so a committed
 * transition has its events and a refused one has none): one per segment entered or left that a live journey
 * listens to. Each is queued as a client's asynchronous event is, so event processing starts the runs (re-entry,
 * limits and locks as for any trigger) and the events sweep enqueues one whose message was lost.
 */
export function segmentEventsOf(
  transition: { clientId: number; contactId: number; entered: readonly number[]; left: readonly number[] },
  contact: ContactRecord | undefined,
  triggers: ReadonlySet<string>,
  now: Date,
  drawId: () => number,
): EventRecord[] {
  if (triggers.size === 0 || !contact) return [];
  const at = now.toISOString();
  const moves = [
    ...transition.entered.map((id) => ({ id, on: 'enter' as const })),
    ...transition.left.map((id) => ({ id, on: 'leave' as const })),
  ].filter((m) => triggers.has(triggerKey(m.id, m.on)));
  return moves.map(({ id, on }) => ({
    id: drawId(),
    client_id: transition.clientId,
    type: segmentEventType(on),
    email: contact.email,
    auto_create_contact: false,
    ts: at,
    payload: { segment_id: id },
    mode: 'async',
    queue_status: 'queued',
    retry_count: 0,
    contact_id: transition.contactId,
    origin: 'segment',
    segment_id: id,
    created_at: at,
  }));
}
