/**
 * Common abbreviations clients put in CRM exports, mapped to the IANA zone they almost always mean.
 * Abbreviations are ambiguous (IST, CST); the choice for each is recorded in docs/decisions/0003-contacts-identity-and-fields.md.
 */
export const TIMEZONE_ALIASES: Readonly<Record<string, string>> = {
  UTC: 'UTC',
  GMT: 'Etc/GMT',
  Z: 'UTC',
  PST: 'America/Los_Angeles',
  PDT: 'America/Los_Angeles',
  PT: 'America/Los_Angeles',
  MST: 'America/Denver',
  MDT: 'America/Denver',
  MT: 'America/Denver',
  CST: 'America/Chicago',
  CDT: 'America/Chicago',
  CT: 'America/Chicago',
  EST: 'America/New_York',
  EDT: 'America/New_York',
  ET: 'America/New_York',
  AKST: 'America/Anchorage',
  AKDT: 'America/Anchorage',
  HST: 'Pacific/Honolulu',
  BST: 'Europe/London',
  WET: 'Europe/Lisbon',
  CET: 'Europe/Paris',
  CEST: 'Europe/Paris',
  EET: 'Europe/Athens',
  EEST: 'Europe/Athens',
  MSK: 'Europe/Moscow',
  IST: 'Asia/Kolkata',
  SGT: 'Asia/Singapore',
  HKT: 'Asia/Hong_Kong',
  JST: 'Asia/Tokyo',
  KST: 'Asia/Seoul',
  AEST: 'Australia/Sydney',
  AEDT: 'Australia/Sydney',
  ACST: 'Australia/Adelaide',
  AWST: 'Australia/Perth',
  NZST: 'Pacific/Auckland',
  NZDT: 'Pacific/Auckland',
  BRT: 'America/Sao_Paulo',
};

/**
 * Valid zones already resolved, by lower-case name: a bulk import resolves the same few zones a thousand times and
 * each Intl lookup costs ~0.1 ms. Only valid names are kept, so the map stays as small as the zone database.
 */
const resolvedZones = new Map<string, string>();

/** An IANA zone name (canonical casing kept) or an alias resolved to one; undefined when neither. */
export function resolveTimezone(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  const alias = TIMEZONE_ALIASES[trimmed.toUpperCase()];
  if (alias) return alias;
  const cached = resolvedZones.get(trimmed.toLowerCase());
  if (cached) return cached;
  // The platform's Intl holds the zone database: an unknown name is a RangeError (luxon's IANAZone.isValidZone asks
  // Intl the same way). No tz math happens here, so luxon stays out of the bundles that only validate names.
  // Intl returns the zone's canonical spelling ("america/new_york" → "America/New_York").
  let zone: string;
  try {
    zone = new Intl.DateTimeFormat('en-US', { timeZone: trimmed }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  resolvedZones.set(trimmed.toLowerCase(), zone);
  return zone;
}
