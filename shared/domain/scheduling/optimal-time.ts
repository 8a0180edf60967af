import type { IANAZone } from 'luxon';
import { totalOpens, type OpenHours } from '../tracking/open-hours.js';
import { nextPreferredTime } from './preferred-time.js';
import { blockedBy, type SendRules } from './send-rules.js';
import { DAY_MS, readClock } from './wall-clock.js';

/** Human opens a contact needs before its own histogram decides (fewer is "too little history"). */
export const MIN_CONTACT_OPENS = 3;
/** Human opens the client's aggregate needs before it stands in for a contact's (docs/decisions/0081-send-time-optimisation.md). */
export const MIN_CLIENT_OPENS = 10;

/** The histogram send time mode 2 follows, and whose it is (the execution's `reason` names it). */
export interface OpenHoursBasis {
  hours: OpenHours;
  source: 'contact' | 'client';
}

/**
 * Which histogram send time mode 2 follows: the contact's with at least MIN_CONTACT_OPENS human opens, else the
 * client's aggregate with at least MIN_CLIENT_OPENS, else none (the caller falls back to the preferred time, then to
 * sending at once).
 */
export function chooseOpenHours(contact: OpenHours, client: OpenHours | undefined): OpenHoursBasis | undefined {
  if (totalOpens(contact) >= MIN_CONTACT_OPENS) return { hours: contact, source: 'contact' };
  if (client && totalOpens(client) >= MIN_CLIENT_OPENS) return { hours: client, source: 'client' };
  return undefined;
}

/**
 * The most likely open hour reachable from `earliest` (the first instant the rules allow at or after the due time):
 * among the local hours with opens, each taken at its next start (or at `earliest` itself when it falls in that hour),
 * only those the rules allow and no more than 24 h after `earliest`; the most opens wins, a tie goes to the sooner.
 * Undefined when no hour with opens qualifies (the caller sends at `earliest`). Spring-forward gaps move an hour's
 * start forward by the gap, fall-back nights take the earlier 01:00 (wall-clock.ts `instantsShowing`).
 */
export function optimalSendTime(
  zone: IANAZone,
  rules: SendRules,
  earliest: number,
  hours: OpenHours,
): number | undefined {
  const earliestHour = readClock(zone, earliest).hour;
  let best: { at: number; opens: number } | undefined;
  for (const [hour, opens] of hours.entries()) {
    if (opens <= 0) continue;
    const at = hour === earliestHour ? earliest : nextPreferredTime(zone, earliest, { hour, minute: 0 });
    if (at - earliest > DAY_MS || blockedBy(rules, readClock(zone, at))) continue;
    if (!best || opens > best.opens || (opens === best.opens && at < best.at)) best = { at, opens };
  }
  return best?.at;
}
