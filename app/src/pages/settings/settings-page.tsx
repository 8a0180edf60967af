import { Fragment, type JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { type Api, failureOf } from '../../api/client.js';
import type { operations } from '../../api/openapi.js';
import { can } from '../../session.js';
import { answerOf, type Failure, failureOfError, fieldErrorOf } from '../../data/answer.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { FieldError } from '../../ui/field-error.js';
import { When } from '../../ui/when.js';
import type { PageProps } from '../../page.js';

const readSettings = (api: Api) => api.GET('/api/v1/client/settings');
/** GET /client/settings's `data`, as openapi-fetch gives it (the same view PATCH answers). */
export type Settings = NonNullable<Awaited<ReturnType<typeof readSettings>>['data']>['data'];
type Patch = NonNullable<operations['settingsUpdate']['requestBody']>['content']['application/json'];
export type SettingsField = keyof Omit<Patch, `clear_${string}`>;

type Kind = 'text' | 'textarea' | 'int' | 'bool' | 'ints' | 'email' | 'url' | 'color';

interface FieldSpec {
  key: SettingsField;
  label: string;
  kind: Kind;
  /** What an unset field means (the service's default), shown beside it. */
  unset: string;
  hint?: string;
  min?: number;
  max?: number;
}

interface Group {
  id: string;
  title: string;
  about: string;
  fields: FieldSpec[];
}

const hour = (key: SettingsField, label: string, unset: string, hint?: string): FieldSpec => ({
  key,
  label,
  kind: 'int',
  unset,
  min: 0,
  max: 23,
  ...(hint ? { hint } : {}),
});
const minute = (key: SettingsField, label: string): FieldSpec => ({
  key,
  label,
  kind: 'int',
  unset: '0',
  min: 0,
  max: 59,
});

/**
 * Every writable field of PATCH /client/settings, grouped as the issue asks (brand, sender, send window and quiet
 * hours, quotas) and the rest under "Workflows and features". `unset` says what the sender uses when the field is
 * empty (shared/domain/settings/effective-settings.ts, SETTINGS_DEFAULTS; the plan for the quotas).
 */
export const GROUPS: readonly Group[] = [
  {
    id: 'brand',
    title: 'Brand',
    about: 'How your e-mails and the preference page name and colour you.',
    fields: [
      {
        key: 'brand_name',
        label: 'Brand name',
        kind: 'text',
        unset: 'your account name',
        hint: 'At most 100 characters, one line.',
      },
      { key: 'brand_logo_url', label: 'Logo URL', kind: 'url', unset: 'no logo', hint: 'An https:// address.' },
      {
        key: 'brand_primary_color',
        label: 'Primary colour',
        kind: 'color',
        unset: 'the service’s blue',
        hint: 'As #RRGGBB, e.g. #1A73E8.',
      },
      { key: 'brand_secondary_color', label: 'Secondary colour', kind: 'color', unset: 'none', hint: 'As #RRGGBB.' },
      {
        key: 'company_name',
        label: 'Company name',
        kind: 'text',
        unset: 'none',
        hint: 'In the footer of every e-mail; at most 200 characters.',
      },
      {
        key: 'company_address',
        label: 'Postal address',
        kind: 'textarea',
        unset: 'none',
        hint: 'Marketing e-mail must carry one (CAN-SPAM); at most 500 characters.',
      },
    ],
  },
  {
    id: 'sender',
    title: 'Sender',
    about: 'Who the e-mails come from and where replies go.',
    fields: [
      {
        key: 'email_from_name',
        label: 'From name',
        kind: 'text',
        unset: 'your brand name',
        hint: 'At most 100 characters, one line.',
      },
      {
        key: 'email_from_address',
        label: 'From address',
        kind: 'email',
        unset: 'the service’s address',
        hint: 'On a domain verified for sending.',
      },
      { key: 'email_reply_to', label: 'Reply-to address', kind: 'email', unset: 'the from address' },
      { key: 'email_signature', label: 'Signature', kind: 'textarea', unset: 'none', hint: 'At most 2000 characters.' },
    ],
  },
  {
    id: 'window',
    title: 'Send window and quiet hours',
    about: 'When e-mails may go out, in the contact’s time zone (else the one below).',
    fields: [
      { key: 'timezone', label: 'Time zone', kind: 'text', unset: 'UTC', hint: 'An IANA name such as Europe/Paris.' },
      hour(
        'morning_send_hour',
        'Morning send hour',
        '9',
        'The morning slot of workflows that send at a preferred time.',
      ),
      minute('morning_send_minute', 'Morning send minute'),
      hour('afternoon_send_hour', 'Afternoon send hour', '14'),
      minute('afternoon_send_minute', 'Afternoon send minute'),
      {
        key: 'send_window_enabled',
        label: 'Send window',
        kind: 'bool',
        unset: 'off',
        hint: 'On: e-mails wait for the hours and days below.',
      },
      hour('send_window_start_hour', 'Send window starts at (hour)', 'none'),
      hour('send_window_end_hour', 'Send window ends at (hour)', 'none'),
      {
        key: 'send_window_allowed_days',
        label: 'Allowed days',
        kind: 'text',
        unset: '1,2,3,4,5,6,7',
        hint: 'ISO weekdays, 1 Monday to 7 Sunday, comma separated: 1,2,3,4,5 is Monday to Friday.',
      },
      hour('quiet_hour_start', 'Quiet hours start (hour)', 'none', 'Nothing is sent from this hour…'),
      hour('quiet_hour_end', 'Quiet hours end (hour)', 'none', '…until this one.'),
    ],
  },
  {
    id: 'quotas',
    title: 'Quotas',
    about: 'Limits that protect your contacts and your reputation. Custom quotas may only tighten your plan’s.',
    fields: [
      { key: 'max_emails_per_day', label: 'E-mails per contact per day', kind: 'int', unset: '3', min: 0, max: 1000 },
      {
        key: 'queue_timeout_days',
        label: 'Queue timeout (days)',
        kind: 'int',
        unset: '7',
        min: 1,
        max: 365,
        hint: 'A run still waiting after this is dropped.',
      },
      {
        key: 'custom_email_quota_per_day',
        label: 'E-mails per day (custom quota)',
        kind: 'int',
        unset: 'the plan’s',
        min: 0,
      },
      {
        key: 'custom_email_quota_per_month',
        label: 'E-mails per month (custom quota)',
        kind: 'int',
        unset: 'the plan’s',
        min: 0,
      },
      { key: 'custom_max_workflows', label: 'Workflows at most (custom)', kind: 'int', unset: 'the plan’s', min: 0 },
    ],
  },
  {
    id: 'features',
    title: 'Workflows and features',
    about: 'Which catalog workflows run, and the switches of the service.',
    fields: [
      {
        key: 'enabled_workflows',
        label: 'Enabled workflows (ids)',
        kind: 'ints',
        unset: 'the plan’s default set',
        hint: 'Workflow ids as on the Workflows page, comma separated.',
      },
      {
        key: 'enable_critical_bypass',
        label: 'Critical e-mail bypasses the limits',
        kind: 'bool',
        unset: 'on',
        hint: 'A failed payment still goes out past the daily limit and the send window.',
      },
      { key: 'ai_advisor_enabled', label: 'AI advisor', kind: 'bool', unset: 'off' },
      { key: 'auto_approve_enabled', label: 'Auto-approve', kind: 'bool', unset: 'off' },
      {
        key: 'preferences',
        label: 'Preferences (numbers)',
        kind: 'ints',
        unset: 'none',
        hint: 'Non-negative integers, comma separated (at most 50).',
      },
    ],
  },
];

const FIELDS = GROUPS.flatMap((group) => group.fields);
const FIELD_KEYS: readonly string[] = FIELDS.map((field) => field.key);

type Draft = Record<string, string>;

/** A stored value as the form shows it: '' for unset. */
function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.join(',');
  return String(value);
}

export const draftOf = (settings: Settings | null): Draft =>
  Object.fromEntries(FIELDS.map((field) => [field.key, textOf(settings?.[field.key])]));

/** A number as typed; anything else is sent as typed, for the API to refuse at its field. */
const numberOrText = (raw: string): number | string => (/^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw);

/** What the form sends: only the fields changed since the load; an emptied one is null (unset). */
export function patchOf(draft: Draft, saved: Draft): Patch {
  const body: Record<string, unknown> = {};
  for (const field of FIELDS) {
    const raw = draft[field.key] ?? '';
    if (raw === (saved[field.key] ?? '')) continue;
    if (raw.trim() === '') {
      body[field.key] = null;
      continue;
    }
    if (field.kind === 'int') body[field.key] = numberOrText(raw);
    else if (field.kind === 'bool') body[field.key] = raw === 'true';
    else if (field.kind === 'ints') body[field.key] = raw.split(',').map(numberOrText);
    else body[field.key] = raw;
  }
  return body as Patch;
}

/** Settings: every writable field, grouped; the API's error items at their field. `manage` edits, others read. */
export function SettingsPage({ api, signedIn }: PageProps) {
  const [settings, setSettings] = useState<Settings | null | undefined>();
  const [draft, setDraft] = useState<Draft>({});
  const [failure, setFailure] = useState<Failure | undefined>();
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState('');
  const [workflows, setWorkflows] = useState<string | undefined>();
  const editable = can(signedIn, 'manage');

  useEffect(() => {
    let current = true;
    // The ids of enabled_workflows, named (a hint only: the field works without it).
    api.GET('/api/v1/client/workflows').then(
      ({ data }) => {
        if (current && data)
          setWorkflows(data.data.workflows.map((workflow) => `${workflow.id} ${workflow.name}`).join(', '));
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api]);

  useEffect(() => {
    let current = true;
    readSettings(api).then(
      ({ data, error, response }) => {
        if (!current) return;
        if (data) {
          setSettings(data.data);
          setDraft(draftOf(data.data));
        } else if (response.status === 404) {
          // Never saved: the form starts from the defaults; the first save creates the settings.
          setSettings(null);
          setDraft(draftOf(null));
        } else {
          setFailure({
            ...failureOf(error, `Reading the settings failed (${response.status})`),
            status: response.status,
          });
        }
      },
      (error: unknown) => current && setFailure(failureOfError(error)),
    );
    return () => {
      current = false;
    };
  }, [api]);

  async function onSave(event: Event) {
    event.preventDefault();
    if (settings === undefined) return;
    const body = patchOf(draft, draftOf(settings));
    setDone('');
    setFailure(undefined);
    if (Object.keys(body).length === 0) {
      setDone('Nothing changed.');
      return;
    }
    setSaving(true);
    try {
      const answer = await answerOf(api.PATCH('/api/v1/client/settings', { body }), 'Saving the settings');
      setSettings(answer.data as Settings);
      setDraft(draftOf(answer.data as Settings));
      setDone('Settings saved.');
    } catch (error) {
      setFailure(failureOfError(error));
    } finally {
      setSaving(false);
    }
  }

  return (
    <section aria-labelledby="st-settings-title">
      <div class="page-head">
        <h1 id="st-settings-title">Settings</h1>
      </div>
      {settings === undefined && !failure && <p aria-busy="true">Loading…</p>}
      {settings === null && (
        <p class="hint">
          Nothing saved yet: every field below is empty and the service uses the default shown beside it. The first save
          creates your settings.
        </p>
      )}
      {settings !== undefined && !editable && (
        <p class="hint">Your role reads the settings; an owner or an admin changes them.</p>
      )}
      {settings !== undefined && settings?.client && <PlanLine settings={settings} />}
      {settings !== undefined && editable && (
        <form
          class="st-settings"
          noValidate
          onSubmit={onSave}
          aria-describedby={failure ? 'st-settings-failure' : undefined}
        >
          {GROUPS.map((group) => (
            <fieldset key={group.id} class="card st-group">
              <legend>{group.title}</legend>
              <p class="hint">{group.about}</p>
              {group.fields.map((field) => (
                <SettingInput
                  key={field.key}
                  field={field}
                  extraHint={field.key === 'enabled_workflows' && workflows ? `Yours: ${workflows}.` : undefined}
                  value={draft[field.key] ?? ''}
                  error={fieldErrorOf(failure, field.key)}
                  onInput={(value) => setDraft({ ...draft, [field.key]: value })}
                />
              ))}
            </fieldset>
          ))}
          <div id="st-settings-failure">
            <FailureAlert failure={failure} shownAt={FIELD_KEYS} />
          </div>
          <div class="st-actions">
            <button type="submit" disabled={saving}>
              {saving ? 'Saving…' : 'Save settings'}
            </button>
            <p role="status" class="st-done">
              {done}
            </p>
          </div>
        </form>
      )}
      {settings !== undefined && !editable && (
        <>
          <FailureAlert failure={failure} />
          {GROUPS.map((group) => (
            <section key={group.id} class="card st-group" aria-labelledby={`st-read-${group.id}`}>
              <h2 id={`st-read-${group.id}`}>{group.title}</h2>
              <dl class="figures">
                {group.fields.map((field) => (
                  <Fragment key={field.key}>
                    <dt>{field.label}</dt>
                    <dd>{draft[field.key] ? shown(field, draft[field.key]!) : `— (${field.unset})`}</dd>
                  </Fragment>
                ))}
              </dl>
            </section>
          ))}
        </>
      )}
      {settings === undefined && <FailureAlert failure={failure} />}
    </section>
  );
}

const shown = (field: FieldSpec, value: string): string =>
  field.kind === 'bool' ? (value === 'true' ? 'On' : 'Off') : value;

function PlanLine({ settings }: { settings: Settings }) {
  const { client } = settings;
  return (
    <p class="hint">
      Plan <strong>{client.subscription_tier}</strong>: {client.monthly_emails_sent} of {client.monthly_email_quota}{' '}
      e-mails sent this month; the count starts again <When at={client.quota_reset_at} />.
    </p>
  );
}

function SettingInput(props: {
  field: FieldSpec;
  extraHint?: string | undefined;
  value: string;
  error: string | undefined;
  onInput: (value: string) => void;
}) {
  const { field, extraHint, value, error, onInput } = props;
  const id = `st-${field.key}`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const described = [error ? errorId : '', hintId].filter(Boolean).join(' ');
  const common = {
    id,
    name: field.key,
    'aria-describedby': described,
    ...(error ? { 'aria-invalid': true as const } : {}),
  };
  let control: JSX.Element;
  if (field.kind === 'bool') {
    control = (
      <select {...common} value={value} onChange={(event) => onInput(event.currentTarget.value)}>
        <option value="">Default ({field.unset})</option>
        <option value="true">On</option>
        <option value="false">Off</option>
      </select>
    );
  } else if (field.kind === 'textarea') {
    control = <textarea {...common} rows={3} value={value} onInput={(event) => onInput(event.currentTarget.value)} />;
  } else {
    const type = (field.kind === 'email' ? 'email' : field.kind === 'url' ? 'url' : 'text') as 'text';
    control = (
      <input
        {...common}
        type={type}
        inputMode={field.kind === 'int' ? 'numeric' : undefined}
        autocomplete="off"
        spellcheck={false}
        placeholder={field.unset === 'none' ? '' : field.unset}
        value={value}
        onInput={(event) => onInput(event.currentTarget.value)}
      />
    );
  }
  const range =
    field.kind === 'int' && field.min !== undefined
      ? ` ${field.min}${field.max !== undefined ? `–${field.max}` : ' or more'}.`
      : '';
  return (
    <div class="st-field">
      <label for={id}>{field.label}</label>
      {control}
      <FieldError id={errorId} message={error} />
      <p id={hintId} class="hint">
        {field.hint ? `${field.hint} ` : ''}
        {extraHint ? `${extraHint} ` : ''}
        {range ? `${range.trim()} ` : ''}Empty: {field.unset}.
      </p>
    </div>
  );
}
