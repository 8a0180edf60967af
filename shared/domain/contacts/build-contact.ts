import { invalidField } from '../../errors.js';
import type { ContactRecord } from './contact-store.js';
import type { ContactBody } from './schemas.js';

const SOURCE_API = 1;

/** Subscription fields implied by a body: unsubscribed_at alone means unsubscribed; a contradiction is a 422. */
export function subscriptionOf(body: ContactBody, now: string, keyPrefix = '') {
  if (body.is_subscribed === true && body.unsubscribed_at) {
    throw invalidField('format', `${keyPrefix}unsubscribed_at`, 'unsubscribed_at requires is_subscribed to be false');
  }
  const subscribed = body.is_subscribed ?? body.unsubscribed_at === undefined;
  return subscribed
    ? { is_subscribed: true as const }
    : {
        is_subscribed: false as const,
        unsubscribed_at: body.unsubscribed_at ?? now,
        unsubscribe_reason: body.unsubscribe_reason || undefined,
      };
}

/** The per-client id of a custom field name; every name of the body was resolved before the contact is built. */
export function fieldId(ids: ReadonlyMap<string, number>, name: string): number {
  const id = ids.get(name);
  if (id === undefined) throw new Error(`custom field "${name}" has no id`);
  return id;
}

const blankToUndefined = (v: string | undefined) => (v === undefined || v === '' ? undefined : v);

/** A new contact record from a validated body. */
export function buildContact(args: {
  body: ContactBody;
  id: number;
  clientId: number;
  createdBy: number;
  now: string;
  customFieldIds: ReadonlyMap<string, number>;
  defaultSource?: number;
}): ContactRecord {
  const { body, now } = args;
  const custom: ContactRecord['custom_fields'] = {};
  for (const [name, value] of Object.entries(body.custom_fields ?? {})) {
    if (value === null || value === '') continue;
    custom[name] = { id: fieldId(args.customFieldIds, name), value };
  }
  return {
    id: args.id,
    client_id: args.clientId,
    email: body.email,
    client_contact_id: blankToUndefined(body.client_contact_id),
    external_id: blankToUndefined(body.external_id),
    first_name: blankToUndefined(body.first_name),
    last_name: blankToUndefined(body.last_name),
    company: blankToUndefined(body.company),
    phone: blankToUndefined(body.phone),
    timezone: body.timezone,
    ...subscriptionOf(body, now),
    last_purchase_at: body.last_purchase_at,
    signup_source: blankToUndefined(body.signup_source),
    source: body.source ?? args.defaultSource ?? SOURCE_API,
    custom_fields: custom,
    tags: [],
    active_states: 0,
    active_workflow_count: 0,
    health_score: 0,
    total_emails_sent: 0,
    total_emails_opened: 0,
    total_emails_clicked: 0,
    created_by: args.createdBy,
    created_at: now,
    updated_at: now,
  };
}
