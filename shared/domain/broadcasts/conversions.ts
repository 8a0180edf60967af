import type { ExecutionRecord } from '../executions/execution-record.js';
import { EXECUTION_STATUS } from '../executions/execution-record.js';

/**
 * A broadcast that counts conversions, as the client's configuration item lists it (read by event processing with
 * the rest of its configuration, so an event of another type costs no request): its event type, its window, and the
 * span in which its recipients' events can still convert (`from` its start, `until` its start + the window + the
 * days its sending may take, SEND_SPAN_DAYS).
 */
export interface ConversionBroadcast {
  broadcast_id: number;
  event: string;
  window_days: number;
  from: string;
  until: string;
}

/** How long after its start a broadcast's recipients may still be sent (local hours span 50 hours; quotas defer). */
export const SEND_SPAN_DAYS = 7;
/** Broadcasts one event is looked up in (the most recently started first): each costs one Query. */
export const MAX_CONVERSION_LOOKUPS = 5;

const DAY_MS = 86_400_000;

/** The entry a scheduled broadcast with a conversion gets, from its start. */
export function conversionEntryOf(
  broadcastId: number,
  conversion: { event: string; window_days: number },
  startAt: string,
): ConversionBroadcast {
  const from = Date.parse(startAt);
  return {
    broadcast_id: broadcastId,
    event: conversion.event,
    window_days: conversion.window_days,
    from: new Date(from).toISOString(),
    until: new Date(from + (conversion.window_days + SEND_SPAN_DAYS) * DAY_MS).toISOString(),
  };
}

/** The broadcasts an event of `type` at `at` may convert a recipient of: its type, inside their span. */
export function conversionsOpenTo(
  entries: readonly ConversionBroadcast[] | undefined,
  type: string,
  at: string,
): ConversionBroadcast[] {
  return (entries ?? [])
    .filter((e) => e.event === type && e.from <= at && at <= e.until)
    .sort((a, b) => (a.from < b.from ? 1 : a.from > b.from ? -1 : b.broadcast_id - a.broadcast_id))
    .slice(0, MAX_CONVERSION_LOOKUPS);
}

/**
 * The recipient (one of the contact's executions in the broadcast) an event at `at` converts: its e-mail was sent
 * (completed) at or before `at` and within the window before it, and it has not converted yet. A retried recipient's
 * attempts are each looked at; the latest sent one converts.
 */
export function convertedRecipientOf(
  executions: readonly ExecutionRecord[],
  conversion: Pick<ConversionBroadcast, 'window_days'>,
  at: string,
): ExecutionRecord | undefined {
  const eventAt = Date.parse(at);
  const sent = executions
    .filter((e) => e.status === EXECUTION_STATUS.completed && !e.is_test)
    .filter((e) => {
      const sentAt = Date.parse(e.processed_at ?? e.updated_at);
      return sentAt <= eventAt && eventAt - sentAt <= conversion.window_days * DAY_MS;
    })
    .sort((a, b) => b.id - a.id);
  const latest = sent[0];
  return latest && latest.converted_at === undefined ? latest : undefined;
}

/** What recording conversions needs of the processing store. */
export interface ConversionStore {
  /** The contact's executions in one broadcast's recipient listing: one Query of its listing shard. */
  broadcastRecipients(clientId: number, broadcastId: number, contactId: number): Promise<ExecutionRecord[]>;
  /** `converted_at` set on the execution unless it is set already (one conditional UpdateItem): whether it was. */
  markConverted(clientId: number, executionId: number, at: string, eventId: number): Promise<boolean>;
}

/**
 * An event of a type some open broadcasts count as their conversion: for each (≤ 5), the contact's recipient is
 * looked up and marked converted once. Run before the event's commit, so a crash after it and a redelivery find the
 * mark already set (conditional), and a crash before it does it again. Requests: none for an event no broadcast
 * counts; else one Query per broadcast (in one wave) and one UpdateItem per recipient converted.
 */
export async function recordConversions(
  store: ConversionStore,
  clientId: number,
  contactId: number,
  event: { id: number; type: string; ts: string },
  entries: readonly ConversionBroadcast[] | undefined,
): Promise<number[]> {
  const open = conversionsOpenTo(entries, event.type, event.ts);
  if (open.length === 0) return [];
  const found = await Promise.all(
    open.map(async (conversion) => ({
      conversion,
      recipient: convertedRecipientOf(
        await store.broadcastRecipients(clientId, conversion.broadcast_id, contactId),
        conversion,
        event.ts,
      ),
    })),
  );
  const marked = await Promise.all(
    found.map(async ({ conversion, recipient }) =>
      recipient && (await store.markConverted(clientId, recipient.id, event.ts, event.id))
        ? [conversion.broadcast_id]
        : [],
    ),
  );
  return marked.flat();
}
