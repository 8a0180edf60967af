import type { BroadcastStatus } from '../../../../shared/public/broadcast-rules.js';
import type { components } from '../../api/openapi.js';

export type Audience = components['schemas']['BroadcastAudience'];
export type Schedule = components['schemas']['BroadcastSchedule'];

/** What a broadcast sends, to whom and when, as the form sends it (the API lists what is missing at its path). */
export type BroadcastDefinition = Partial<components['schemas']['BroadcastDefinition']>;

/** A broadcast with its totals (counted from its recipients and their e-mails, ≈ 10 s behind). */
export type Broadcast = components['schemas']['Broadcast'];

/** The statuses a broadcast moves through while it goes out (its progress changes: the page reads it again). */
export const MOVING: readonly BroadcastStatus[] = ['scheduled', 'snapshotting', 'sending'];

export const STATUS_TEXT: Record<BroadcastStatus, string> = {
  draft: 'draft',
  scheduled: 'scheduled',
  snapshotting: 'taking the audience',
  sending: 'sending',
  paused: 'paused',
  sent: 'sent',
  cancelled: 'cancelled',
};

/** The form's fields: text and choices as the controls hold them, turned into a definition by `definitionOf`. */
export interface BroadcastDraft {
  name: string;
  template_id: string;
  subject: string;
  audience: 'segment' | 'topic' | 'all';
  segment_id: string;
  topic_id: string;
  schedule: 'now' | 'at' | 'local_time';
  /** `at`: a local date and time of the browser (datetime-local), sent as an instant. */
  send_at: string;
  date: string;
  time: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** An instant as a datetime-local input shows it, in the browser's zone. */
const localInputOf = (iso: string): string => {
  const at = new Date(iso);
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
};

/** The saved broadcast as the form's fields. */
export function draftOf(broadcast: Broadcast): BroadcastDraft {
  const definition = broadcast.definition ?? {};
  const audience = definition.audience;
  const variant = definition.variants?.[0];
  const schedule = definition.schedule ?? { mode: 'now' };
  return {
    name: broadcast.name,
    template_id: variant ? String(variant.template_id) : '',
    subject: variant?.subject ?? '',
    audience: audience && 'segment_id' in audience ? 'segment' : audience && 'topic_id' in audience ? 'topic' : 'all',
    segment_id: audience && 'segment_id' in audience ? String(audience.segment_id) : '',
    topic_id: audience && 'topic_id' in audience ? String(audience.topic_id) : '',
    schedule: schedule.mode,
    send_at: schedule.mode === 'at' ? localInputOf(schedule.send_at) : '',
    date: schedule.mode === 'local_time' ? schedule.date : '',
    time: schedule.mode === 'local_time' ? schedule.time : '',
  };
}

/**
 * The topic a definition is sent under: a topic audience's own; else the saved one, unless that was only implied by
 * a topic audience the form has just replaced.
 */
function topicOf(audience: Audience | undefined, saved: BroadcastDefinition): number | null {
  if (audience && 'topic_id' in audience) return audience.topic_id;
  if (saved.audience && 'topic_id' in saved.audience) return null;
  return saved.topic_id ?? null;
}

/**
 * The definition the form says, over the saved one. A choice left empty is left out (the API names what is missing at
 * its path); a topic audience is also the broadcast's topic (its unsubscribe link leaves that topic).
 */
export function definitionOf(draft: BroadcastDraft, saved: BroadcastDefinition): BroadcastDefinition {
  const audience: Audience | undefined =
    draft.audience === 'all'
      ? { all_subscribed: true }
      : draft.audience === 'segment'
        ? draft.segment_id
          ? { segment_id: Number(draft.segment_id) }
          : undefined
        : draft.topic_id
          ? { topic_id: Number(draft.topic_id) }
          : undefined;
  const subject = draft.subject.trim();
  const schedule: Schedule =
    draft.schedule === 'at'
      ? { mode: 'at', send_at: draft.send_at ? new Date(draft.send_at).toISOString() : '' }
      : draft.schedule === 'local_time'
        ? { mode: 'local_time', date: draft.date, time: draft.time }
        : { mode: 'now' };
  return {
    ...saved,
    category: saved.category ?? 'marketing',
    topic_id: topicOf(audience, saved),
    ...(audience ? { audience } : {}),
    // The form shows the first variant; an A/B test's others are kept as saved.
    variants: draft.template_id
      ? [
          { template_id: Number(draft.template_id), ...(subject ? { subject } : {}) },
          ...(saved.variants ?? []).slice(1),
        ]
      : [],
    schedule,
  };
}

/** The audience in words, for the list and the report. */
export function audienceText(
  audience: Audience | undefined,
  names: { segments: ReadonlyMap<number, string>; topics: ReadonlyMap<number, string> },
): string {
  if (!audience) return '—';
  if ('segment_id' in audience)
    return `Segment “${names.segments.get(audience.segment_id) ?? `#${audience.segment_id}`}”`;
  if ('topic_id' in audience) return `Topic “${names.topics.get(audience.topic_id) ?? `#${audience.topic_id}`}”`;
  return 'All subscribed contacts';
}

/** A new broadcast's form before anything is chosen. */
export const EMPTY_DRAFT: BroadcastDraft = {
  name: '',
  template_id: '',
  subject: '',
  audience: 'segment',
  segment_id: '',
  topic_id: '',
  schedule: 'now',
  send_at: '',
  date: '',
  time: '',
};
