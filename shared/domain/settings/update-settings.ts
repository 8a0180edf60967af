import { conflict, notFound, unprocessable, type ErrorItem } from '../../errors.js';
import type { Clock, Ids } from '../../platform.js';
import type { SubscriptionPlan } from '../plans/catalog.js';
import { effectiveLimits, planOf } from './effective-settings.js';
import { quotaMonthOf } from './quota-period.js';
import { CLEARABLE_FIELDS, SETTINGS_FIELD_NAMES, type SettingsPatch } from './schemas.js';
import type { SettingsFields, SettingsRecord, SettingsStore } from './settings-store.js';
import type { UserStore } from '../users/user-store.js';
import { settingsViewOf, type SettingsView } from './settings-view.js';
import { deliverabilityFigures } from '../tracking/deliverability-guard.js';
import type { TrackingStore } from '../tracking/tracking-store.js';
import { fromAddressProblem } from '../domains/effective-sender.js';
import type { SenderState } from '../domains/sender-state.js';
import { serviceSendersOf, type ServiceSenders, type ServiceSendersConfig } from '../domains/service-senders.js';

interface Deps {
  clock: Clock;
  ids: Ids;
  settings: SettingsStore;
  tracking: TrackingStore;
  users: UserStore;
  /** Names the service's own senders, which no client may send From. */
  config: ServiceSendersConfig;
}

/** Optimistic writes retried after losing to a concurrent write (re-read, re-validate, jittered pause). */
const MAX_ATTEMPTS = 6;
const pauseBeforeRetry = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** attempt));

/** The stored fields after a merge-patch: absent keeps, null or `clear_*: true` unsets, a value replaces. */
export function applySettingsPatch(current: SettingsFields, patch: SettingsPatch): SettingsFields {
  const next: Record<string, unknown> = { ...current };
  for (const name of SETTINGS_FIELD_NAMES) {
    const value = patch[name];
    if (value === undefined) continue;
    if (value === null) delete next[name];
    else next[name] = value;
  }
  for (const name of CLEARABLE_FIELDS) {
    if (patch[`clear_${name}`] === true) delete next[name];
  }
  return next as SettingsFields;
}

/**
 * Limits that depend on the plan. Only what the patch touches is checked, so a plan downgrade never blocks
 * unrelated edits. Custom limits may tighten the plan, never raise it (that is a plan change).
 */
export function checkPlanLimits(next: SettingsFields, patch: SettingsPatch, plan: SubscriptionPlan): ErrorItem[] {
  const items: ErrorItem[] = [];
  const over = (key: string, error: string) => items.push({ condition: 'max', key, error });
  const ceilings = [
    ['custom_max_workflows', plan.max_workflows, 'workflows'],
    ['custom_email_quota_per_day', plan.max_emails_per_day, 'e-mails per day'],
    ['custom_email_quota_per_month', plan.max_emails_per_month, 'e-mails per month'],
  ] as const;
  for (const [key, ceiling, what] of ceilings) {
    const value = patch[key];
    if (typeof value === 'number' && value > ceiling) {
      over(key, `Must be at most ${ceiling}: the ${plan.name} plan allows ${ceiling} ${what}`);
    }
  }
  const touchesWorkflows =
    patch.enabled_workflows !== undefined ||
    patch.custom_max_workflows !== undefined ||
    patch.clear_custom_max_workflows === true;
  if (touchesWorkflows && next.enabled_workflows && !items.some((i) => i.key === 'custom_max_workflows')) {
    const { maxWorkflows } = effectiveLimits(next, plan);
    if (next.enabled_workflows.length > maxWorkflows) {
      const key = patch.enabled_workflows !== undefined ? 'enabled_workflows' : 'custom_max_workflows';
      over(key, `At most ${maxWorkflows} workflows may be enabled; ${next.enabled_workflows.length} are`);
    }
  }
  return items;
}

/**
 * The From a patch sets must be at one of the client's verified domains and not one of the service's own senders
 * (422 `unsafe` on `email_from_address`, saying what to do). Checked only when the patch sets it, so a stored From
 * that breaks the rule (written before it) never blocks unrelated edits: it is reported and never used instead.
 * Reply-To stays free: mailbox providers authenticate the From, not the Reply-To.
 */
export function checkSenderAddress(
  patch: SettingsPatch,
  sender: SenderState | undefined,
  service: ServiceSenders,
): ErrorItem[] {
  const address = patch.email_from_address;
  if (typeof address !== 'string') return [];
  const problem = fromAddressProblem(address, sender?.verified_domains ?? [], service.reserved);
  return problem ? [{ condition: 'unsafe', key: 'email_from_address', error: problem }] : [];
}

const sameFields = (a: SettingsFields, b: SettingsFields): boolean =>
  SETTINGS_FIELD_NAMES.every((name) => JSON.stringify(a[name]) === JSON.stringify(b[name]));

const fieldsOf = (record: SettingsRecord | undefined): SettingsFields => {
  if (!record) return {};
  return Object.fromEntries(SETTINGS_FIELD_NAMES.filter((n) => record[n] !== undefined).map((n) => [n, record[n]]));
};

/** A client's first settings row: every field unset (SETTINGS_DEFAULTS apply), version 1. */
export const initialSettings = (clientId: number, id: number, at: string): SettingsRecord => ({
  id,
  client_id: clientId,
  tone_of_voice: 0,
  version: 1,
  created_at: at,
  updated_at: at,
});

/**
 * PATCH /client/settings: creates the row on first use (upsert; clients created before their row was written with them), then merge-patches it. The write is conditioned
 * on the version read, so concurrent patches never lose each other's fields or slip past a limit check.
 */
export async function updateSettings(
  deps: Deps,
  clientId: number,
  patch: SettingsPatch,
): Promise<{ settings: SettingsView; created: boolean }> {
  const service = serviceSendersOf(deps.config);
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    if (attempt > 1) await pauseBeforeRetry(attempt);
    const now = deps.clock.now();
    const bundle = await deps.settings.load(clientId, quotaMonthOf(now));
    if (!bundle.client) throw notFound('client', 'Client not found');
    const plan = planOf(bundle.client.plan);
    const current = bundle.settings;
    const next = applySettingsPatch(fieldsOf(current), patch);
    const items = [...checkPlanLimits(next, patch, plan), ...checkSenderAddress(patch, bundle.sender, service)];
    if (items.length > 0) throw unprocessable(items);
    if (current && sameFields(fieldsOf(current), next)) {
      const [deliverability, users] = await Promise.all([
        deliverabilityFigures(deps.tracking, bundle.client, now),
        deps.users.list(clientId),
      ]);
      return {
        settings: settingsViewOf(
          { ...bundle, settings: current, client: bundle.client },
          now,
          deliverability,
          users,
          service,
        ),
        created: false,
      };
    }
    const at = now.toISOString();
    const record: SettingsRecord = {
      ...next,
      id: current?.id ?? (await deps.ids.next('settings')),
      client_id: clientId,
      tone_of_voice: current?.tone_of_voice ?? 0,
      version: (current?.version ?? 0) + 1,
      created_at: current?.created_at ?? at,
      updated_at: at,
    };
    if (await deps.settings.save(record, current?.version)) {
      const [deliverability, users] = await Promise.all([
        deliverabilityFigures(deps.tracking, bundle.client, now),
        deps.users.list(clientId),
      ]);
      return {
        settings: settingsViewOf(
          { ...bundle, settings: record, client: bundle.client },
          now,
          deliverability,
          users,
          service,
        ),
        created: !current,
      };
    }
  }
  throw conflict('state', 'settings', 'The settings were changed concurrently; retry the request');
}
