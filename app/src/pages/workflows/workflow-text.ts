import type { components } from '../../api/openapi.js';

export type Workflow = components['schemas']['Workflow'];
export type WorkflowStats = components['schemas']['WorkflowStats'];
export type AuditEntry = components['schemas']['CustomizationAuditEntry'];
export type Topic = components['schemas']['Topic'];

/** What each send_time_mode does (GET /client/workflows' description of the field, in words for people). */
export const SEND_TIME_MODES: readonly { mode: 0 | 1 | 2; name: string; about: string }[] = [
  {
    mode: 0,
    name: 'Immediately',
    about: 'As soon as the delay has passed (and the send window and quiet hours allow).',
  },
  {
    mode: 1,
    name: 'At a preferred time',
    about:
      'At the preferred hour and minute below, in the contact’s time zone; without one, at the workflow’s morning or afternoon slot (Settings).',
  },
  {
    mode: 2,
    name: 'Optimal',
    about:
      'At the hour this contact most often opens mail, learnt from its human opens; else the hour your contacts open most, else the preferred time, else immediately.',
  },
];

/** A delay in minutes as people say it: `immediately`, `30 min`, `1 day`, `1 day 2 h`. */
export function delayText(minutes: number): string {
  if (minutes === 0) return 'none';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const parts = [
    days ? `${days} day${days === 1 ? '' : 's'}` : '',
    hours ? `${hours} h` : '',
    rest ? `${rest} min` : '',
  ];
  return parts.filter(Boolean).join(' ');
}

const two = (n: number): string => String(n).padStart(2, '0');

/** When a workflow's e-mail goes out after its delay, from its settings in effect. */
export function sendTimeText(workflow: Workflow): string {
  const { customization: c, defaults } = workflow;
  if (c.send_time_mode === 0) return 'Immediately';
  if (c.send_time_mode === 2) return 'Optimal: the contact’s likeliest open hour';
  if (c.preferred_send_hour !== null)
    return `At ${two(c.preferred_send_hour)}:${two(c.preferred_send_minute ?? 0)}, contact’s time`;
  if (defaults.send_slot) return `In the ${defaults.send_slot} slot, contact’s time`;
  return 'At the preferred time';
}

/** What starts a workflow. */
export function triggerText(workflow: Workflow): string {
  const { event, or_when: orWhen } = workflow.trigger;
  return orWhen ? `${event}, or any event with ${orWhen.field}: ${String(orWhen.equals)}` : event;
}

/** The topic of a workflow, named from the client's topics. */
export function topicText(workflow: Workflow, topics: readonly Topic[] | undefined): string {
  if (workflow.category === 'transactional') return 'None (transactional)';
  const id = workflow.customization.topic_id;
  if (id === null) return 'None';
  return topics?.find((topic) => topic.id === id)?.name ?? `Topic #${id}`;
}

/** An exit event list as text: `*` is any event. */
export const eventsText = (events: readonly string[]): string =>
  events.length === 0 ? 'none' : events.map((event) => (event === '*' ? '* (any event)' : event)).join(', ');
