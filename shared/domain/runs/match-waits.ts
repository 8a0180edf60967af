import { createHash } from 'node:crypto';
import type { ContactRecord } from '../contacts/contact-store.js';
import type { EventRecord } from '../events/event-record.js';
import { eventForConditions } from '../events/event-vars.js';
import { conditionsHold, readEventPath } from '../journeys/definition/conditions.js';
import type { Condition } from '../journeys/definition/types.js';
import type { JourneyIndex } from '../journeys/journey-records.js';
import type { TopicSet } from '../topics/topic-store.js';
import type { RunMarker, WaitMarker } from './run-record.js';

/** A trigger key's value as the run lock and the wait markers hash it: sha256 hex of the value as a string. */
export const keyHashOf = (value: unknown): string => createHash('sha256').update(String(value)).digest('hex');

/** A run marker as the contact item holds it: `run_<id>` = {j, q, k?}. */
export interface ContactRun {
  runId: number;
  marker: RunMarker & {
    /** The run's key hash (its lock's key): an exit event releases the lock without reading the run. */
    k?: string;
  };
}

/** A waiting run the event resolves: its marker (the seq `q` and step `s` the resolution's condition names). */
export interface WaitMatch {
  runId: number;
  marker: WaitMarker & {
    /** The wait's timeout (its run's `due_at` when it entered the wait): the schedule to release when the event wins. */
    t?: string;
  };
}

const attributesOf = (contact: object | undefined) => Object.entries((contact ?? {}) as Record<string, unknown>);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The contact's runs in flight, from its `run_<id>` markers. */
export function runMarkersOf(contact: object | undefined): ContactRun[] {
  return attributesOf(contact).flatMap(([name, value]) => {
    const match = /^run_(\d+)$/.exec(name);
    if (!match || !isObject(value) || typeof value['j'] !== 'number') return [];
    const marker = {
      j: value['j'],
      q: typeof value['q'] === 'number' ? value['q'] : 1,
      ...(typeof value['k'] === 'string' ? { k: value['k'] } : {}),
    };
    return [{ runId: Number(match[1]), marker }];
  });
}

/** The contact's waiting runs, from its `wait_<id>` markers. */
export function waitMarkersOf(contact: object | undefined): WaitMatch[] {
  return attributesOf(contact).flatMap(([name, value]) => {
    const match = /^wait_(\d+)$/.exec(name);
    if (!match || !isObject(value)) return [];
    const { j, v, s, q, e } = value;
    if (typeof j !== 'number' || typeof v !== 'number' || typeof s !== 'string' || typeof q !== 'number') return [];
    if (typeof e !== 'string') return [];
    return [{ runId: Number(match[1]), marker: value as unknown as WaitMatch['marker'] }];
  });
}

/**
 * The contact's waiting runs this event resolves: a `wait_<run>` marker whose awaited type is the event's, whose key
 * (when the wait matches on it) is the hash of the event's value at its journey's trigger key, and whose conditions
 * hold on the event and the contact (and the client's topics). Reads nothing: the markers ride on the contact item processing reads anyway, and
 * the trigger keys come from the journey index read with it. A marker of a journey no longer in the index (archived)
 * with a key cannot be matched and is left to its timeout (where the archive ends the run).
 */
export function matchWaits(
  contact: ContactRecord | undefined,
  event: EventRecord,
  index: JourneyIndex | undefined,
  topics?: TopicSet,
): WaitMatch[] {
  const waits = waitMarkersOf(contact);
  if (!contact || waits.length === 0) return [];
  const view = eventForConditions(event);
  return waits.filter(({ marker }) => {
    if (marker.e !== event.type) return false;
    if (marker.k !== undefined) {
      const keyPath = index?.journeys.find((j) => j.id === marker.j)?.trigger.key;
      if (keyPath === undefined) return false;
      const value = readEventPath(view, keyPath);
      if (value === undefined || value === null || keyHashOf(value) !== marker.k) return false;
    }
    const conditions = (marker.c ?? []) as Condition[];
    return (
      conditions.length === 0 || conditionsHold(conditions, { event: view, contact, ...(topics ? { topics } : {}) })
    );
  });
}
