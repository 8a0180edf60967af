import { PermanentFailure, conflict, notFound } from '../../errors.js';
import type { Clock } from '../../platform.js';
import { CHECK_BACKOFF_MINUTES, CHECK_NOW_MIN_SECONDS, VERIFY_WINDOW_HOURS } from '../../public/domain-rules.js';
import type { DnsResolver } from './dns-resolver.js';
import { dmarcOf } from './dmarc.js';
import type { DomainStore } from './domain-store.js';
import {
  challengeName,
  challengeValue,
  dkimName,
  dkimTarget,
  dmarcName,
  mailFromMxHost,
  type DomainSettings,
  domainViewOf,
  proofDeadlineOf,
} from './domain-view.js';
import type { DomainRecord, DomainView } from './schemas.js';
import type { SenderIdentities } from './sender-identities.js';

export interface CheckDeps {
  domains: DomainStore;
  dnsResolver: DnsResolver;
  senderIdentities: SenderIdentities;
  clock: Clock;
  domainSettings: DomainSettings;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** A claim that failed before proof holds nothing and disappears this long after (the table's TTL). */
const FAILED_UNPROVEN_KEPT_DAYS = 30;

/** Minutes until the next check after `checks` checks in the current state: 5, 10, 20, 40, then hourly. */
export const backoffMinutes = (checks: number): number =>
  CHECK_BACKOFF_MINUTES[Math.min(checks, CHECK_BACKOFF_MINUTES.length - 1)] as number;

const later = (now: Date, minutes: number): string => new Date(now.getTime() + minutes * MINUTE_MS).toISOString();

/** The ownership record's token among a name's TXT records (each compared whole, spaces around ignored). */
const hasChallenge = (txt: readonly string[], record: DomainRecord): boolean =>
  txt.some((value) => value.trim() === challengeValue(record));

/**
 * POST /client/domains/{id}/verify: checks the claim now and answers its state. A claim checked less than
 * CHECK_NOW_MIN_SECONDS ago is answered as stored (unless `answerRecentAsStored: false`: a fixture that publishes the
 * records itself checks twice in a row); a verified one has its DKIM, MAIL FROM and DMARC status refreshed;
 * a failed one is 409 `state` (delete it and add it again). 404 for a claim the client does not hold.
 */
export async function checkDomain(
  deps: CheckDeps,
  clientId: number,
  domainId: number,
  options: { answerRecentAsStored?: boolean } = {},
): Promise<DomainView> {
  const record = await deps.domains.get(clientId, domainId);
  if (!record) throw notFound('id', 'Domain not found');
  if (record.status === 'failed') {
    throw conflict('state', 'id', `${record.domain} failed (${record.failure_reason}); delete it and add it again`);
  }
  const now = deps.clock.now();
  const checkedAt = record.last_checked_at === undefined ? 0 : Date.parse(record.last_checked_at);
  const recent = now.getTime() - checkedAt < CHECK_NOW_MIN_SECONDS * 1000;
  if (recent && options.answerRecentAsStored !== false) return domainViewOf(record, deps.domainSettings);
  const checked =
    record.status === 'verified' ? await refreshVerified(deps, record, now) : await advance(deps, record, now);
  return domainViewOf(checked, deps.domainSettings);
}

/** The poller's check of a claim whose next check is due; a claim gone, settled or not yet due is left alone. */
export async function checkDueDomain(
  deps: CheckDeps,
  due: { client_id: number; domain_id: number },
): Promise<DomainRecord | undefined> {
  const record = await deps.domains.get(due.client_id, due.domain_id);
  return record && checkDueRecord(deps, record);
}

/** checkDueDomain on a claim already read (the poller reads a page of them in one wave). */
export async function checkDueRecord(deps: CheckDeps, record: DomainRecord): Promise<DomainRecord> {
  const now = deps.clock.now();
  if (record.status === 'verified' || record.status === 'failed') return record;
  if (record.next_check_at !== undefined && Date.parse(record.next_check_at) > now.getTime()) return record;
  return advance(deps, record, now);
}

/**
 * One step of a claim that is still being checked; answers the claim as stored afterwards. A DNS or SES error leaves
 * it as it was (it is thrown only after the claim's next check was pushed back): only a confirmed absence fails or
 * expires a claim, never an outage.
 */
async function advance(deps: CheckDeps, record: DomainRecord, now: Date): Promise<DomainRecord> {
  const at = now.toISOString();
  const checked: DomainRecord = {
    ...record,
    checks: record.checks + 1,
    last_checked_at: at,
    updated_at: at,
    version: record.version + 1,
  };
  if (record.status === 'awaiting_proof') return awaitingProof(deps, checked, now);
  if (record.identity_created_at === undefined) return createIdentity(deps, checked, now);
  // SES and DNS in one wave: the records are looked up under the tokens the claim holds, which are SES's own unless
  // the identity was made again outside the service (then looked up again under the new ones).
  const [identity, publishedNow] = await Promise.all([
    deps.senderIdentities.getDomainIdentity(record.domain),
    readPublished(deps, record, at),
  ]);
  // An identity removed outside the service: made again (every call is idempotent).
  if (!identity) return createIdentity(deps, checked, now);
  const tokens = identity.dkimTokens.length > 0 ? identity.dkimTokens : (record.dkim_tokens ?? []);
  const sameTokens = tokens.join(' ') === (record.dkim_tokens ?? []).join(' ');
  const seen: DomainRecord = {
    ...checked,
    dkim_status: identity.dkimStatus,
    ...(identity.mailFromStatus ? { mail_from_status: identity.mailFromStatus } : {}),
    dkim_tokens: tokens,
    ...(sameTokens ? publishedNow : await readPublished(deps, { ...record, dkim_tokens: tokens }, at)),
  };
  if (identity.dkimStatus === 'SUCCESS' && identity.verifiedForSending) {
    const verified: DomainRecord = { ...settle(seen), status: 'verified', verified_at: at };
    return (await deps.domains.markVerified(verified)) ? verified : current(deps, record);
  }
  const deadline = Date.parse(record.identity_created_at) + VERIFY_WINDOW_HOURS * HOUR_MS;
  if (identity.dkimStatus === 'FAILED' || now.getTime() > deadline) {
    // Proven: the claim keeps its locks and its SES identity until the client deletes it.
    const failed: DomainRecord = { ...settle(seen), status: 'failed', failure_reason: 'dkim_not_found', failed_at: at };
    return (await deps.domains.save(failed)) ? failed : current(deps, record);
  }
  return saveOrCurrent(deps, { ...seen, next_check_at: later(now, backoffMinutes(checked.checks)) }, record);
}

async function awaitingProof(deps: CheckDeps, checked: DomainRecord, now: Date): Promise<DomainRecord> {
  const at = now.toISOString();
  const txt = await deps.dnsResolver.txt(challengeName(checked.domain));
  if (hasChallenge(txt, checked)) {
    // Proof restarts the backoff: the client now publishes the DKIM records.
    const proven: DomainRecord = {
      ...checked,
      status: 'verifying',
      proven_at: at,
      checks: 0,
      next_check_at: later(now, backoffMinutes(0)),
    };
    const outcome = await deps.domains.prove(proven);
    if (outcome === 'stale') return current(deps, checked);
    if (outcome === 'claimed_elsewhere') return failUnproven(deps, checked, now, 'claimed_elsewhere');
    return createIdentity(deps, { ...proven, version: proven.version + 1 }, now);
  }
  const holder = await deps.domains.proofHolder(checked.domain);
  if (holder !== undefined && holder !== checked.client_id)
    return failUnproven(deps, checked, now, 'claimed_elsewhere');
  if (now.getTime() > proofDeadlineOf(checked).getTime())
    return failUnproven(deps, checked, now, 'challenge_not_found');
  return saveOrCurrent(deps, { ...checked, next_check_at: later(now, backoffMinutes(checked.checks)) }, checked);
}

/**
 * After proof: the client's tenant (made on its first proof), then the domain's identity with Easy DKIM and its MAIL
 * FROM, then the claim with its DKIM tokens and the tenant on the SENDER item, in one transaction. `checked` carries
 * the version the store holds plus one.
 */
async function createIdentity(deps: CheckDeps, checked: DomainRecord, now: Date): Promise<DomainRecord> {
  const at = now.toISOString();
  let created: { tenant: string; configurationSet: string; dkimTokens: string[] };
  // DMARC is read beside the SES calls (it never throws: a failed lookup keeps the last reading).
  const dmarcRead = readDmarc(deps, checked, at);
  try {
    const sending = await deps.senderIdentities.ensureClientSending(checked.client_id);
    const { dkimTokens } = await deps.senderIdentities.createDomainIdentity(checked.domain, {
      tenant: sending.tenant,
      mailFromDomain: checked.mail_from_domain,
    });
    created = { ...sending, dkimTokens };
  } catch (error) {
    if (error instanceof PermanentFailure) {
      const refused: DomainRecord = {
        ...settle(checked),
        status: 'failed',
        failure_reason: 'identity_refused',
        failed_at: at,
      };
      return (await deps.domains.save(refused)) ? refused : current(deps, checked);
    }
    // Tried again at the next check; the claim stays verifying without an identity meanwhile.
    await deps.domains.save({ ...checked, next_check_at: later(now, backoffMinutes(checked.checks)) });
    throw error;
  }
  const dmarc = await dmarcRead;
  const withIdentity: DomainRecord = {
    ...checked,
    identity_created_at: at,
    dkim_tokens: created.dkimTokens,
    dkim_status: 'PENDING',
    mail_from_status: 'PENDING',
    ...(dmarc ? { dmarc } : {}),
    next_check_at: later(now, backoffMinutes(checked.checks)),
  };
  const saved = await deps.domains.saveIdentity(withIdentity, {
    tenant: created.tenant,
    configurationSet: created.configurationSet,
  });
  return saved ? withIdentity : current(deps, checked);
}

/** A verified claim's "check now": SES's DKIM and MAIL FROM status and the DMARC record read again. */
async function refreshVerified(deps: CheckDeps, record: DomainRecord, now: Date): Promise<DomainRecord> {
  const at = now.toISOString();
  const [identity, published] = await Promise.all([
    deps.senderIdentities.getDomainIdentity(record.domain),
    readPublished(deps, record, at),
  ]);
  const refreshed: DomainRecord = {
    ...record,
    ...(identity ? { dkim_status: identity.dkimStatus } : {}),
    ...(identity?.mailFromStatus ? { mail_from_status: identity.mailFromStatus } : {}),
    ...published,
    last_checked_at: at,
    updated_at: at,
    version: record.version + 1,
  };
  return saveOrCurrent(deps, refreshed, record);
}

async function failUnproven(
  deps: CheckDeps,
  checked: DomainRecord,
  now: Date,
  reason: 'claimed_elsewhere' | 'challenge_not_found',
): Promise<DomainRecord> {
  const failed: DomainRecord = {
    ...settle(checked),
    status: 'failed',
    failure_reason: reason,
    failed_at: now.toISOString(),
    expires_at: Math.floor(now.getTime() / 1000) + FAILED_UNPROVEN_KEPT_DAYS * 86_400,
  };
  return (await deps.domains.failUnproven(failed)) ? failed : current(deps, checked);
}

/** A settled claim leaves the poller's view. */
const settle = (record: DomainRecord): DomainRecord => {
  const { next_check_at: _gone, ...rest } = record;
  return rest;
};

/**
 * The DMARC record as DNS answers now. It is advice, not a condition of verification: a lookup that fails keeps what
 * the last check read rather than hold the claim back.
 */
async function readDmarc(deps: CheckDeps, record: DomainRecord, at: string): Promise<DomainRecord['dmarc']> {
  try {
    return { ...dmarcOf(await deps.dnsResolver.txt(dmarcName(record.domain))), checked_at: at };
  } catch (error) {
    console.warn(JSON.stringify({ message: 'DMARC lookup failed', domain: record.domain, error: String(error) }));
    return record.dmarc;
  }
}

/** Whether a lookup's answer holds a value; a failed lookup is unknown (undefined), never "not published". */
async function holds<T>(lookup: Promise<T[]>, match: (value: T) => boolean): Promise<boolean | undefined> {
  try {
    return (await lookup).some(match);
  } catch {
    return undefined;
  }
}

/**
 * What DNS shows now of the records a proven claim asks for: each DKIM CNAME, the MAIL FROM MX and SPF, the DMARC
 * record, looked up in parallel. Only advice for the client (SES decides verification): a lookup that fails keeps
 * what the last check saw.
 */
async function readPublished(
  deps: CheckDeps,
  record: DomainRecord,
  at: string,
): Promise<Pick<DomainRecord, 'published' | 'dmarc'>> {
  const { dnsResolver: dns } = deps;
  const bounce = record.mail_from_domain;
  const mxHost = mailFromMxHost(deps.domainSettings.region);
  const [dmarc, mx, spf, ...dkim] = await Promise.all([
    readDmarc(deps, record, at),
    holds(dns.mx(bounce), (r) => r.exchange.toLowerCase() === mxHost),
    holds(dns.txt(bounce), (v) => /^v=spf1\s/i.test(v.trim()) && /\sinclude:amazonses\.com(\s|$)/i.test(v)),
    ...(record.dkim_tokens ?? []).map((token) =>
      holds(dns.cname(dkimName(token, record.domain)), (target) => target.toLowerCase() === dkimTarget(token)),
    ),
  ]);
  const before = record.published;
  const published = {
    dkim: dkim.map((found, i) => found ?? before?.dkim[i] ?? false),
    mail_from_mx: mx ?? before?.mail_from_mx ?? false,
    mail_from_spf: spf ?? before?.mail_from_spf ?? false,
  };
  return { published, ...(dmarc ? { dmarc } : {}) };
}

async function saveOrCurrent(deps: CheckDeps, next: DomainRecord, read: DomainRecord): Promise<DomainRecord> {
  return (await deps.domains.save(next)) ? next : current(deps, read);
}

/** The claim as another, concurrent check left it (this one lost the race: its result is dropped). */
async function current(deps: CheckDeps, read: DomainRecord): Promise<DomainRecord> {
  return (await deps.domains.get(read.client_id, read.id)) ?? read;
}
