import type { ClientRecord, ClientStore, DeliverabilityBaseline } from '../clients/client-store.js';
import { DELIVERABILITY_WINDOW_DAYS, deliverabilityOf, shouldPause } from './deliverability.js';
import type { TrackingStore } from './tracking-store.js';
import { utcDayOf } from '../time/utc-days.js';

const DAY_MS = 86_400_000;

/** The `deliverability` extra of the client settings output (documented in docs/api-guide.md). */
export interface DeliverabilityFigures {
  window_days: number;
  sends: number;
  bounces: number;
  complaints: number;
  bounce_rate: number;
  complaint_rate: number;
  status: 'healthy' | 'warning' | 'paused';
  paused_at: string | null;
  paused_reason: string | null;
}

/**
 * The client's sends, permanent bounces and complaints over the last DELIVERABILITY_WINDOW_DAYS UTC days — since the
 * last resume, when that is more recent (the counts of the resume day at the moment of the resume are left out), so a
 * resumed client is judged on what it sent afterwards. One BatchGetItem of the month counters.
 */
export async function deliverabilityFigures(
  tracking: TrackingStore,
  client: ClientRecord,
  now: Date,
): Promise<DeliverabilityFigures> {
  const today = utcDayOf(now);
  const windowStart = utcDayOf(now.getTime() - (DELIVERABILITY_WINDOW_DAYS - 1) * DAY_MS);
  const resumed = client.sending_resumed;
  const from = resumed && resumed.day > windowStart ? resumed.day : windowStart;
  const days = await tracking.deliverabilityDays(client.id, from, today);
  const totals = { sends: 0, bounces: 0, complaints: 0 };
  for (const day of days) {
    const baseline = resumed && day.day === resumed.day ? resumed : undefined;
    totals.sends += Math.max(0, day.sends - (baseline?.sends ?? 0));
    totals.bounces += Math.max(0, day.bounces - (baseline?.bounces ?? 0));
    totals.complaints += Math.max(0, day.complaints - (baseline?.complaints ?? 0));
  }
  const figures = deliverabilityOf(totals);
  return {
    window_days: DELIVERABILITY_WINDOW_DAYS,
    sends: figures.sends,
    bounces: figures.bounces,
    complaints: figures.complaints,
    bounce_rate: figures.bounce_rate,
    complaint_rate: figures.complaint_rate,
    status: client.sending_paused_at ? 'paused' : figures.status,
    paused_at: client.sending_paused_at ?? null,
    paused_reason: client.sending_paused_reason ?? null,
  };
}

/**
 * After a permanent bounce or a complaint: above SES's review thresholds (bounce 5 %, complaint 0.1 %, over a minimum
 * sample) the client's sending pauses — its executions wait (`sending_paused`) until an admin resumes it. Returns
 * whether this call paused it.
 */
export async function guardDeliverability(
  deps: { tracking: TrackingStore; clients: ClientStore },
  clientId: number,
  now: Date,
): Promise<boolean> {
  const client = await deps.clients.get(clientId);
  if (!client || client.sending_paused_at) return false;
  const figures = await deliverabilityFigures(deps.tracking, client, now);
  if (!shouldPause(figures)) return false;
  const reason = `bounce rate ${percent(figures.bounce_rate)}, complaint rate ${percent(figures.complaint_rate)} over ${figures.sends} sends`;
  return deps.clients.pauseSending(clientId, now.toISOString(), reason);
}

/** Resumes a paused client (admin): the window restarts now. False when it was not paused. */
export async function resumeSending(
  deps: { tracking: TrackingStore; clients: ClientStore },
  clientId: number,
  now: Date,
): Promise<boolean> {
  const day = utcDayOf(now);
  const [today] = await deps.tracking.deliverabilityDays(clientId, day, day);
  const baseline: DeliverabilityBaseline = {
    at: now.toISOString(),
    day,
    sends: today?.sends ?? 0,
    bounces: today?.bounces ?? 0,
    complaints: today?.complaints ?? 0,
  };
  return deps.clients.resumeSending(clientId, baseline);
}

const percent = (rate: number) => `${(rate * 100).toFixed(2)} %`;
