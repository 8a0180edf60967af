import { AppError } from '../../errors.js';
import { UniqueViolation, type ContactStore } from '../contacts/contact-store.js';
import { createContactRecord } from '../contacts/create-contact.js';
import type { Ids } from '../../platform.js';
import type { EventRecord } from './event-record.js';
import { toEventQueueRecordView, toEventView, type EventQueueRecordView, type EventView } from './event-view.js';
import { ingestEvent } from './ingest-event.js';
import { processEvent, type ProcessDeps } from './process-event.js';
import type { EventBody } from './schemas.js';

export type CreateEventDeps = Omit<ProcessDeps, 'createContactFor'> & { contacts: ContactStore; ids: Ids };

export type CreatedEvent =
  | { kind: 'processed'; replay: boolean; event: EventView }
  | { kind: 'queued'; replay: boolean; record: EventQueueRecordView };

/**
 * POST /client/events. Sync: stored and processed in the request (the Event, with `process_error`). Async: stored
 * and enqueued (the Event queue record); if the enqueue fails after the write, the sweeper enqueues it later, so an
 * accepted event is never lost. A replay answers in the shape of the original request.
 * Async requests: one DynamoDB write + one SQS send.
 */
export async function createEvent(
  deps: CreateEventDeps,
  clientId: number,
  body: EventBody,
  raw: Record<string, unknown>,
  sync: boolean,
  log: (message: string, error: unknown) => void,
): Promise<CreatedEvent> {
  const ingested = await ingestEvent(deps, clientId, body, raw, sync ? 'sync' : 'async');
  const replay = ingested.kind === 'replayed';
  let event = ingested.event;
  if (event.mode === 'async') {
    if (!replay) {
      try {
        await deps.queue.send('events', { client_id: clientId, event_id: event.id });
      } catch (error) {
        log('enqueue failed; the sweeper will enqueue the event', error);
      }
    }
    return { kind: 'queued', replay, record: toEventQueueRecordView(event) };
  }
  if (!replay || event.queue_status === 'queued') {
    event = (await processEvent(eventProcessingDeps(deps), clientId, event.id)) ?? event;
  }
  return { kind: 'processed', replay, event: toEventView(event) };
}

/** Processing's dependencies, with contact creation for `auto_create_contact` (source api). */
export function eventProcessingDeps(deps: CreateEventDeps): ProcessDeps {
  return { ...deps, createContactFor: (clientId, event) => createContactForEvent(deps, clientId, event) };
}

async function createContactForEvent(
  deps: CreateEventDeps,
  clientId: number,
  event: EventRecord,
): Promise<number | undefined> {
  try {
    const contact = await createContactRecord(
      deps,
      clientId,
      { email: event.email!, ...(event.uid ? { client_contact_id: event.uid } : {}), source: 1 },
      0,
    );
    return contact.id;
  } catch (error) {
    if (isSuppressedConflict(error)) return undefined;
    // Created meanwhile by a concurrent event or request: use that contact.
    if (!(error instanceof UniqueViolation) && !isUniqueConflict(error)) throw error;
    const id = await deps.processing.findContactId(clientId, { email: event.email! });
    if (id === undefined) throw error;
    return id;
  }
}

const isSuppressedConflict = (error: unknown) =>
  error instanceof AppError && error.items.some((item) => item.condition === 'suppressed');

const isUniqueConflict = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { status?: number }).status === 409;
