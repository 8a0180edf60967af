import { Fragment } from 'preact';
import { useMemo } from 'preact/hooks';
import {
  MAX_PREFERENCES,
  SETTINGS_DEFAULTS,
  SETTINGS_HOUR_RANGE,
  SETTINGS_INT_RANGE,
  SETTINGS_MINUTE_RANGE,
  SETTINGS_TEXT_MAX,
} from '../../../../shared/public/settings-rules.js';
import type { Api } from '../../api/client.js';
import type { operations } from '../../api/openapi.js';
import { Link } from '../../components/link.js';
import { answerOf } from '../../data/answer.js';
import { useLoad } from '../../data/use-load.js';
import { type Encoders, patchOf as kitPatchOf, usePatch } from '../../data/use-patch.js';
import type { PageProps } from '../../page.js';
import { can } from '../../session.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { Field } from '../../ui/field.js';
import { FieldGroup } from '../../ui/field-group.js';
import { Form } from '../../ui/form.js';
import { FormActions } from '../../ui/form-actions.js';
import { Options, SelectField, TextField } from '../../ui/inputs.js';
import { PageHead } from '../../ui/page-head.js';
import { Done, LoadStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';

const readSettings = (api: Api) => api.GET('/api/v1/client/settings');
/** GET /client/settings's `data`, as openapi-fetch gives it (the same view PATCH answers). */
export type Settings = NonNullable<Awaited<ReturnType<typeof readSettings>>['data']>['data'];
type Patch = NonNullable<operations['settingsUpdate']['requestBody']>['content']['application/json'];
export type SettingsField = keyof Omit<Patch, `clear_${string}`>;

type Sending = Settings['sending'];

type Kind = 'text' | 'textarea' | 'int' | 'bool' | 'ints' | 'email' | 'url' | 'color' | 'from';

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

/** A switch's default as the form says it. */
const onOff = (on: boolean): string => (on ? 'on' : 'off');
const atMost = (max: number): string => `At most ${max} characters`;

const hour = (key: SettingsField, label: string, unset: string, hint?: string): FieldSpec => ({
  key,
  label,
  kind: 'int',
  unset,
  ...SETTINGS_HOUR_RANGE,
  ...(hint ? { hint } : {}),
});
const minute = (key: SettingsField, label: string, unset: number): FieldSpec => ({
  key,
  label,
  kind: 'int',
  unset: String(unset),
  ...SETTINGS_MINUTE_RANGE,
});

/**
 * Every writable field of PATCH /client/settings, grouped (brand, sender, send window and quiet hours, quotas) and
 * the rest under "Workflows and features". `unset` says what the sender uses when the field is empty
 * (SETTINGS_DEFAULTS, the plan for the quotas); bounds and defaults are the server's (shared/public/settings-rules.ts).
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
        hint: `${atMost(SETTINGS_TEXT_MAX.brand_name)}, one line.`,
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
        hint: `In the footer of every e-mail; ${atMost(SETTINGS_TEXT_MAX.company_name).toLowerCase()}.`,
      },
      {
        key: 'company_address',
        label: 'Postal address',
        kind: 'textarea',
        unset: 'none',
        hint: `Marketing e-mail must carry one (CAN-SPAM); ${atMost(SETTINGS_TEXT_MAX.company_address).toLowerCase()}.`,
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
        hint: `${atMost(SETTINGS_TEXT_MAX.email_from_name)}, one line.`,
      },
      {
        key: 'email_from_address',
        label: 'From address',
        kind: 'from',
        unset: 'no-reply at your first verified domain; without one, the service’s onboarding sender (the sandbox)',
        hint: 'At one of your verified domains.',
      },
      { key: 'email_reply_to', label: 'Reply-to address', kind: 'email', unset: 'the from address' },
      {
        key: 'email_signature',
        label: 'Signature',
        kind: 'textarea',
        unset: 'none',
        hint: `${atMost(SETTINGS_TEXT_MAX.email_signature)}.`,
      },
    ],
  },
  {
    id: 'window',
    title: 'Send window and quiet hours',
    about: 'When e-mails may go out, in the contact’s time zone (else the one below).',
    fields: [
      {
        key: 'timezone',
        label: 'Time zone',
        kind: 'text',
        unset: SETTINGS_DEFAULTS.timezone,
        hint: 'An IANA name such as Europe/Paris.',
      },
      hour(
        'morning_send_hour',
        'Morning send hour',
        String(SETTINGS_DEFAULTS.morning_send_hour),
        'The morning slot of workflows that send at a preferred time.',
      ),
      minute('morning_send_minute', 'Morning send minute', SETTINGS_DEFAULTS.morning_send_minute),
      hour('afternoon_send_hour', 'Afternoon send hour', String(SETTINGS_DEFAULTS.afternoon_send_hour)),
      minute('afternoon_send_minute', 'Afternoon send minute', SETTINGS_DEFAULTS.afternoon_send_minute),
      {
        key: 'send_window_enabled',
        label: 'Send window',
        kind: 'bool',
        unset: onOff(SETTINGS_DEFAULTS.send_window_enabled),
        hint: 'On: e-mails wait for the hours and days below.',
      },
      hour('send_window_start_hour', 'Send window starts at (hour)', 'none'),
      hour('send_window_end_hour', 'Send window ends at (hour)', 'none'),
      {
        key: 'send_window_allowed_days',
        label: 'Allowed days',
        kind: 'text',
        unset: SETTINGS_DEFAULTS.send_window_allowed_days,
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
      {
        key: 'max_emails_per_day',
        label: 'E-mails per contact per day',
        kind: 'int',
        unset: String(SETTINGS_DEFAULTS.max_emails_per_day),
        ...SETTINGS_INT_RANGE.max_emails_per_day,
      },
      {
        key: 'queue_timeout_days',
        label: 'Queue timeout (days)',
        kind: 'int',
        unset: String(SETTINGS_DEFAULTS.queue_timeout_days),
        ...SETTINGS_INT_RANGE.queue_timeout_days,
        hint: 'A run still waiting after this is dropped.',
      },
      // A custom quota's real ceiling is the plan's: the hint gives the floor only.
      {
        key: 'custom_email_quota_per_day',
        label: 'E-mails per day (custom quota)',
        kind: 'int',
        unset: 'the plan’s',
        min: SETTINGS_INT_RANGE.custom_email_quota_per_day.min,
      },
      {
        key: 'custom_email_quota_per_month',
        label: 'E-mails per month (custom quota)',
        kind: 'int',
        unset: 'the plan’s',
        min: SETTINGS_INT_RANGE.custom_email_quota_per_month.min,
      },
      {
        key: 'custom_max_workflows',
        label: 'Workflows at most (custom)',
        kind: 'int',
        unset: 'the plan’s',
        ...SETTINGS_INT_RANGE.custom_max_workflows,
      },
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
        unset: onOff(SETTINGS_DEFAULTS.enable_critical_bypass),
        hint: 'A failed payment still goes out past the daily limit and the send window.',
      },
      {
        key: 'ai_advisor_enabled',
        label: 'AI advisor',
        kind: 'bool',
        unset: onOff(SETTINGS_DEFAULTS.ai_advisor_enabled),
      },
      {
        key: 'auto_approve_enabled',
        label: 'Auto-approve',
        kind: 'bool',
        unset: onOff(SETTINGS_DEFAULTS.auto_approve_enabled),
      },
      {
        key: 'preferences',
        label: 'Preferences (numbers)',
        kind: 'ints',
        unset: 'none',
        hint: `Non-negative integers, comma separated (at most ${MAX_PREFERENCES}).`,
      },
    ],
  },
];

const FIELDS = GROUPS.flatMap((group) => group.fields);

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

/** A field's text as the API takes it: an emptied field is null (unset); numbers, booleans and lists as typed. */
const encoderOf =
  (kind: Kind) =>
  (raw: string): unknown => {
    if (raw.trim() === '') return null;
    if (kind === 'int') return numberOrText(raw);
    if (kind === 'bool') return raw === 'true';
    if (kind === 'ints') return raw.split(',').map(numberOrText);
    return raw;
  };

const ENCODERS: Encoders<Draft> = Object.fromEntries(FIELDS.map((field) => [field.key, encoderOf(field.kind)]));

/** What the form sends: only the fields changed since the load; an emptied one is null (unset). */
export const patchOf = (draft: Draft, saved: Draft): Patch => kitPatchOf(draft, saved, ENCODERS) as Patch;

/** Settings: every writable field, grouped; the API's error items at their field. `manage` edits, others read. */
export function SettingsPage({ api, signedIn }: PageProps) {
  const loaded = useLoad(
    async (signal) => {
      const request = api.GET('/api/v1/client/settings', { signal });
      // Never saved: the form starts from the defaults; the first save creates the settings.
      if ((await request).response.status === 404) return null;
      return (await answerOf(request, 'Reading the settings')).data;
    },
    [api],
  );
  // The ids of enabled_workflows, named (a hint only: the field works without it, so its failure is not shown).
  const workflows = useLoad(
    async (signal) => {
      const { data } = await api.GET('/api/v1/client/workflows', { signal });
      return data?.data.workflows.map((workflow) => `${workflow.id} ${workflow.name}`).join(', ');
    },
    [api],
  );
  const settings = loaded.data;
  const saved = useMemo(() => draftOf(settings ?? null), [settings]);
  const save = usePatch({
    saved,
    encoders: ENCODERS,
    send: async (body) => {
      const answer = await answerOf(
        api.PATCH('/api/v1/client/settings', { body: body as Patch }),
        'Saving the settings',
      );
      loaded.update(() => answer.data as Settings);
      return 'Settings saved.';
    },
  });
  const editable = can(signedIn, 'manage');

  return (
    <section aria-labelledby="st-settings-title">
      <PageHead id="st-settings-title" title="Settings" />
      <LoadStatus loaded={loaded} />
      {settings === null && (
        <p class="hint">
          Nothing saved yet: every field below is empty and the service uses the default shown beside it. The first save
          creates your settings.
        </p>
      )}
      {settings !== undefined && !editable && (
        <p class="hint">Your role reads the settings; an owner or an admin changes them.</p>
      )}
      {settings?.client && <PlanLine settings={settings} />}
      {settings?.sending && <SendingProblems sending={settings.sending} />}
      {settings !== undefined && editable && (
        <Form
          noValidate
          onSubmit={save.run}
          failure={save.failure}
          aria-describedby={save.failure ? 'st-settings-failure' : undefined}
        >
          {GROUPS.map((group) => (
            <FieldGroup key={group.id} legend={group.title}>
              <p class="hint">{group.about}</p>
              {group.fields.map((field) => (
                <SettingInput
                  key={field.key}
                  field={field}
                  sending={settings?.sending}
                  extraHint={field.key === 'enabled_workflows' && workflows.data ? `Yours: ${workflows.data}.` : ''}
                  value={save.draft[field.key] ?? ''}
                  onInput={(value) => save.set(field.key, value)}
                />
              ))}
            </FieldGroup>
          ))}
          <div id="st-settings-failure">
            <FailureAlert />
          </div>
          <FormActions submit="Save settings" busy={save.busy} busyLabel="Saving…">
            <Done text={save.done} />
          </FormActions>
        </Form>
      )}
      {settings !== undefined &&
        !editable &&
        GROUPS.map((group) => (
          <section key={group.id} class="card field-group" aria-labelledby={`st-read-${group.id}`}>
            <h2 id={`st-read-${group.id}`}>{group.title}</h2>
            <dl class="figures">
              {group.fields.map((field) => (
                <Fragment key={field.key}>
                  <dt>{field.label}</dt>
                  <dd>{saved[field.key] ? shown(field, saved[field.key]!) : `— (${field.unset})`}</dd>
                </Fragment>
              ))}
            </dl>
          </section>
        ))}
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

/** A field's hint: what it takes, its bounds, and what an empty field means. */
function hintOf(field: FieldSpec, extraHint: string): string {
  const range =
    field.kind === 'int' && field.min !== undefined
      ? `${field.min}${field.max !== undefined ? `–${field.max}` : ' or more'}.`
      : '';
  return [field.hint, extraHint, range, `Empty: ${field.unset}.`].filter(Boolean).join(' ');
}

function SettingInput(props: {
  field: FieldSpec;
  extraHint: string;
  sending: Sending | undefined;
  value: string;
  onInput: (value: string) => void;
}) {
  const { field, extraHint, sending, value, onInput } = props;
  if (field.kind === 'from') return <FromAddress field={field} sending={sending} value={value} onInput={onInput} />;
  return (
    <Field id={`st-${field.key}`} label={field.label} name={field.key} hint={hintOf(field, extraHint)}>
      {(control) => {
        if (field.kind === 'bool')
          return (
            <select
              {...control}
              name={field.key}
              value={value}
              onChange={(event) => onInput(event.currentTarget.value)}
            >
              <option value="">Default ({field.unset})</option>
              <option value="true">On</option>
              <option value="false">Off</option>
            </select>
          );
        if (field.kind === 'textarea')
          return (
            <textarea
              {...control}
              name={field.key}
              rows={3}
              value={value}
              onInput={(event) => onInput(event.currentTarget.value)}
            />
          );
        const type = (field.kind === 'email' ? 'email' : field.kind === 'url' ? 'url' : 'text') as 'text';
        return (
          <input
            {...control}
            name={field.key}
            type={type}
            inputMode={field.kind === 'int' ? 'numeric' : undefined}
            autocomplete="off"
            spellcheck={false}
            placeholder={field.unset === 'none' ? '' : field.unset}
            value={value}
            onInput={(event) => onInput(event.currentTarget.value)}
          />
        );
      }}
    </Field>
  );
}

/** A stored setting the sender does not use (a From outside the verified domains), and why. */
function SendingProblems({ sending }: { sending: Sending }) {
  if (sending.problems.length === 0) return null;
  return (
    <FailureAlert
      failure={{
        message: `A stored setting is not used: your e-mails go out From ${sending.from_address} until it is fixed.`,
        errors: sending.problems.map((problem) => ({ condition: 'unsafe', ...problem })),
      }}
    />
  );
}

/** An address as its local part and its domain (after the last `@`: a quoted local part may hold one). */
export function addressParts(address: string): { local: string; domain: string } {
  const at = address.lastIndexOf('@');
  return at < 0 ? { local: address, domain: '' } : { local: address.slice(0, at), domain: address.slice(at + 1) };
}

/** The address of a local part and a domain; both empty: none (unset). */
export const addressOf = (local: string, domain: string): string =>
  local === '' && domain === '' ? '' : `${local}@${domain}`;

/**
 * The From address as a local part and one of the client's verified domains (a From elsewhere is refused). A stored
 * domain that is not verified stays choosable, marked, so the form shows what is stored.
 */
function FromAddress(props: {
  field: FieldSpec;
  sending: Sending | undefined;
  value: string;
  onInput: (value: string) => void;
}) {
  const { field, sending, value, onInput } = props;
  const { local, domain } = addressParts(value);
  const verified = sending?.verified_domains ?? [];
  const choices = domain && !verified.includes(domain.toLowerCase()) ? [...verified, domain] : verified;
  const now = sending ? (
    <>
      {' '}
      Now: {sending.from_name} &lt;{sending.from_address}&gt;{sending.sandbox ? ', the sandbox' : ''}.
    </>
  ) : null;
  return (
    <>
      <TextField
        id={`st-${field.key}`}
        label={`${field.label} (before the @)`}
        name={field.key}
        value={local}
        onValue={(typed) => onInput(addressOf(typed, domain))}
        placeholder="hello"
        spellcheck={false}
        hint={
          <>
            Empty: {field.unset}.{now}
          </>
        }
      />
      <SelectField
        id="st-email_from_domain"
        label="At the domain"
        value={domain}
        onValue={(chosen) => onInput(addressOf(local, chosen))}
        hint={
          verified.length === 0 ? (
            <>
              No verified domain yet: <Link page="domains">add your domain under Domains</Link> first.
            </>
          ) : (
            <>
              Your verified domains. <Link page="domains">Add another domain</Link>.
            </>
          )
        }
      >
        <option value="">{verified.length === 0 ? 'No verified domain' : 'Choose a domain'}</option>
        <Options of={choices} value={(d) => d} text={(d) => (verified.includes(d) ? d : `${d} (not verified)`)} />
      </SelectField>
    </>
  );
}
