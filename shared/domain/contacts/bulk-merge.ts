import { isSuppressionReason } from './suppression.js';
import { buildContact, fieldId } from './build-contact.js';
import { BLANKABLE_FIELDS, type BlankableField, type ContactPatch } from './bulk-row.js';
import type { ContactRecord } from './contact-store.js';

export interface MergeContext {
  overwriteBlankFields: boolean;
  now: string;
  clientId: number;
  createdBy: number;
  customFieldIds: ReadonlyMap<string, number>;
  /** `source` of a created contact whose row names none: api (1) for JSON, import (2) for CSV. */
  defaultSource: number;
  /** CSV `default_timezone`: used where the contact would otherwise end up without a time zone. */
  defaultTimezone?: string;
}

/**
 * Plain optional values a row sets when given, and clears when given empty with `overwrite_blank_fields`: every
 * blankable field but the reason, which follows the subscription (applySubscription).
 */
const PLAIN_FIELDS = BLANKABLE_FIELDS.filter(
  (field): field is Exclude<BlankableField, 'unsubscribe_reason'> => field !== 'unsubscribe_reason',
);

/**
 * The contact after applying one row: a new contact when `base` is undefined, else the stored one with the row's
 * values merged in. `updated_at` moves only when something else changed.
 */
export function applyContactPatch(
  base: ContactRecord | undefined,
  patch: ContactPatch,
  id: number,
  ctx: MergeContext,
): ContactRecord {
  if (!base) {
    const created = buildContact({
      body: patch.values,
      id,
      clientId: ctx.clientId,
      createdBy: ctx.createdBy,
      now: ctx.now,
      customFieldIds: ctx.customFieldIds,
      defaultSource: ctx.defaultSource,
    });
    if (!created.timezone && ctx.defaultTimezone) created.timezone = ctx.defaultTimezone;
    return created;
  }
  const next: ContactRecord = structuredClone(base);
  const values = patch.values;
  const clears = (field: BlankableField) => ctx.overwriteBlankFields && patch.blanks.has(field);
  for (const field of PLAIN_FIELDS) {
    const value = values[field];
    if (value !== undefined && value !== '') next[field] = value;
    else if (clears(field)) delete next[field];
  }
  if (values.source !== undefined) next.source = values.source;
  applySubscription(next, patch, ctx);
  next.custom_fields = { ...(next.custom_fields ?? {}) };
  for (const [name, value] of Object.entries(values.custom_fields ?? {})) {
    next.custom_fields[name] = { id: fieldId(ctx.customFieldIds, name), value };
  }
  if (ctx.overwriteBlankFields) for (const name of patch.blankCustomFields) delete next.custom_fields[name];
  if (!next.timezone && ctx.defaultTimezone) next.timezone = ctx.defaultTimezone;
  if (!sameContact(base, next)) next.updated_at = ctx.now;
  return next;
}

/**
 * Imports unsubscribe but never resubscribe: is_subscribed false (or unsubscribed_at alone) unsubscribes, stamping
 * unsubscribed_at unless the row gives it; is_subscribed true leaves an unsubscribed contact unsubscribed — a CRM
 * export saying "subscribed" must not undo an unsubscribe link (PATCH …/subscription resubscribes one contact on
 * purpose). A reason only applies to an unsubscribed contact, and never replaces a suppression's.
 */
function applySubscription(next: ContactRecord, patch: ContactPatch, ctx: MergeContext): void {
  const { is_subscribed, unsubscribed_at, unsubscribe_reason } = patch.values;
  const unsubscribe = is_subscribed === false || (is_subscribed === undefined && unsubscribed_at !== undefined);
  if (unsubscribe) {
    if (next.is_subscribed) {
      next.is_subscribed = false;
      next.unsubscribed_at = unsubscribed_at ?? ctx.now;
    } else if (unsubscribed_at !== undefined) next.unsubscribed_at = unsubscribed_at;
  }
  if (next.is_subscribed) return;
  // A suppression (a hard bounce, a complaint…) is never renamed by an import: the send path reads the reason to stop
  // transactional mail too, as PATCH …/subscription's condition keeps it.
  if (isSuppressionReason(next.unsubscribe_reason)) return;
  if (unsubscribe_reason) next.unsubscribe_reason = unsubscribe_reason;
  else if (ctx.overwriteBlankFields && patch.blanks.has('unsubscribe_reason')) delete next.unsubscribe_reason;
}

/** True when both records hold the same data (`updated_at` aside, absent and undefined alike). */
export function sameContact(a: ContactRecord, b: ContactRecord): boolean {
  const { updated_at: _a, ...restA } = a;
  const { updated_at: _b, ...restB } = b;
  return canonicalJson(restA) === canonicalJson(restB);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
