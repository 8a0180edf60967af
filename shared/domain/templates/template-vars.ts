import type { ClientRecord } from '../clients/client-store.js';
import type { ContactRecord } from '../contacts/contact-store.js';
import type { SettingsFields } from '../settings/settings-store.js';

/**
 * The variables a template sees (`it.*`): `contact.*`, and with default vars `client.*` (branding, sender) and
 * `links.*`; explicit `vars` are deep-merged on top. The map built here is exactly what is rendered and what
 * render-preview reports as `resolved_vars`.
 */
export type TemplateVars = Record<string, unknown>;

/**
 * The one key that could replace an object's prototype when assigned; never copied (the request schemas refuse it).
 * Other names that are Object.prototype members (`constructor`, `toString`, …) are ordinary names here: they are
 * assigned as own properties, and the renderer resolves paths through own properties only.
 */
const UNSAFE_KEYS = new Set(['__proto__']);

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** `overrides` deep-merged onto `base` (objects merge, anything else replaces); neither input is modified. */
export function deepMerge(base: TemplateVars, overrides: TemplateVars): TemplateVars {
  const out: TemplateVars = {};
  for (const [key, value] of Object.entries(base)) if (!UNSAFE_KEYS.has(key)) out[key] = value;
  for (const [key, value] of Object.entries(overrides)) {
    if (UNSAFE_KEYS.has(key)) continue;
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : cleanCopy(value);
  }
  return out;
}

function cleanCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cleanCopy);
  if (isPlainObject(value)) return deepMerge({}, value);
  return value;
}

/** `contact.*`: the contact's fields (null when unset) and its custom fields by name (a standard field wins). */
export function contactVars(c: ContactRecord): TemplateVars {
  const standard: TemplateVars = {
    id: c.id,
    email: c.email,
    first_name: c.first_name ?? null,
    last_name: c.last_name ?? null,
    full_name: [c.first_name, c.last_name].filter(Boolean).join(' ') || null,
    company: c.company ?? null,
    phone: c.phone ?? null,
    timezone: c.timezone ?? null,
    client_contact_id: c.client_contact_id ?? null,
    external_id: c.external_id ?? null,
    signup_source: c.signup_source ?? null,
    is_subscribed: c.is_subscribed,
    created_at: c.created_at,
  };
  const custom: TemplateVars = {};
  for (const [name, field] of Object.entries(c.custom_fields ?? {})) {
    if (!Object.hasOwn(standard, name) && !UNSAFE_KEYS.has(name)) custom[name] = field.value;
  }
  return { ...custom, ...standard };
}

export interface LinkOptions {
  /** Public origin of the service (PUBLIC_BASE_URL). */
  publicBaseUrl: string;
  unsubscribeUrl?: string;
  browserUrl?: string;
}

/** The address and display name an e-mail goes out From. */
export interface SenderIdentity {
  address: string;
  name: string;
}

/** The domain of an address, as a guess at the client's website when none is known. */
const siteOf = (email: string | undefined): string | null => {
  const domain = email?.split('@')[1];
  return domain ? `https://${domain}` : null;
};

/**
 * `client.*` and `links.*` from the client's settings and profile, with fallbacks so a template never shows a hole:
 * brand ← company ← account name; company ← brand; sender name and address ← the From the e-mail goes out with when
 * given (the sender always gives it), else the settings' name ← brand and address ← account e-mail; reply-to ← sender
 * address; signature "The <brand> team"; colours the service's defaults; a transparent logo.
 * Without real per-message links (a preview), the links point at the service's preview placeholders.
 */
export function defaultVars(
  settings: SettingsFields | undefined,
  client: ClientRecord | undefined,
  links: LinkOptions,
  from?: SenderIdentity,
): TemplateVars {
  const s = settings ?? {};
  const brand = s.brand_name ?? s.company_name ?? client?.name ?? null;
  // The client's own address guesses its website; the From may be the shared onboarding sender's.
  const ownAddress = s.email_from_address ?? client?.email ?? null;
  const fromAddress = from?.address ?? ownAddress;
  const origin = links.publicBaseUrl.replace(/\/+$/, '');
  return {
    client: {
      brand_name: brand,
      brand_logo_url: s.brand_logo_url ?? TRANSPARENT_PIXEL,
      brand_primary_color: s.brand_primary_color ?? DEFAULT_PRIMARY_COLOR,
      brand_secondary_color: s.brand_secondary_color ?? DEFAULT_SECONDARY_COLOR,
      company_name: s.company_name ?? brand,
      company_address: s.company_address ?? '',
      email_from_name: from?.name ?? s.email_from_name ?? brand,
      email_from_address: fromAddress,
      email_reply_to: s.email_reply_to ?? fromAddress,
      email_signature: s.email_signature ?? (brand ? `The ${brand} team` : 'The team'),
      website: client?.website ?? siteOf(ownAddress ?? undefined),
    },
    links: {
      unsubscribe_url: links.unsubscribeUrl ?? `${origin}/preview/unsubscribe`,
      browser_url: links.browserUrl ?? `${origin}/preview/browser`,
      app_url: client?.website ?? siteOf(ownAddress ?? undefined) ?? origin,
    },
  };
}

export const DEFAULT_PRIMARY_COLOR = '#2563EB';
export const DEFAULT_SECONDARY_COLOR = '#1F2937';
export const TRANSPARENT_PIXEL = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** The final map: contact, then (optionally) client and links, then the explicit vars on top. */
export function resolveVars(parts: {
  contact?: TemplateVars;
  defaults?: TemplateVars;
  vars?: TemplateVars;
}): TemplateVars {
  let out: TemplateVars = {};
  if (parts.contact) out = deepMerge(out, { contact: parts.contact });
  if (parts.defaults) out = deepMerge(out, parts.defaults);
  if (parts.vars) out = deepMerge(out, parts.vars);
  return out;
}
