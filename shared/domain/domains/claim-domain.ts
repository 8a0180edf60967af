import { randomBytes } from 'node:crypto';
import { conflict } from '../../errors.js';
import type { Clock, Ids } from '../../platform.js';
import { CHECK_BACKOFF_MINUTES, MAIL_FROM_LABEL, MAX_DOMAINS } from '../../public/domain-rules.js';
import type { DomainStore } from './domain-store.js';
import { type DomainSettings, domainViewOf } from './domain-view.js';
import { claimableDomain } from './normalize-domain.js';
import type { DomainRecord, DomainView } from './schemas.js';

export interface ClaimDeps {
  domains: DomainStore;
  ids: Ids;
  clock: Clock;
  domainSettings: DomainSettings;
}

const MINUTE_MS = 60_000;

/** A claim's own challenge token: 128 random bits, so one claim's record never proves another's. */
const newChallengeToken = (): string => randomBytes(16).toString('base64url');

/**
 * POST /client/domains: a claim of a domain, awaiting its ownership record. Nothing is asked of DNS or SES yet: an
 * unproven claim holds no lock and blocks nobody. The client's own second claim of a name is 409 `unique` (naming
 * its id); a name another client proved is 409 `unique` without naming that client; over MAX_DOMAINS 409 `max`.
 * Nothing is written on a refusal.
 */
export async function claimDomain(deps: ClaimDeps, clientId: number, body: { domain: string }): Promise<DomainView> {
  const domain = claimableDomain(body.domain, deps.domainSettings.reservedDomains);
  const now = deps.clock.now();
  const at = now.toISOString();
  const record: DomainRecord = {
    id: await deps.ids.next('domain'),
    client_id: clientId,
    domain,
    status: 'awaiting_proof',
    challenge_token: newChallengeToken(),
    created_at: at,
    updated_at: at,
    mail_from_domain: `${MAIL_FROM_LABEL}.${domain}`,
    checks: 0,
    next_check_at: new Date(now.getTime() + CHECK_BACKOFF_MINUTES[0] * MINUTE_MS).toISOString(),
    version: 1,
  };
  const outcome = await deps.domains.create(record, MAX_DOMAINS);
  if (outcome !== 'created') {
    switch (outcome.refused) {
      case 'duplicate':
        throw conflict(
          'unique',
          'domain',
          `You already added ${domain}${outcome.domainId === undefined ? '' : ` (id ${outcome.domainId})`}`,
        );
      case 'claimed_elsewhere':
        throw conflict(
          'unique',
          'domain',
          `${domain} is verified by another account; if you control it, contact support`,
        );
      case 'limit':
        throw conflict('max', 'domain', `A client may hold at most ${MAX_DOMAINS} domains; delete one first`);
    }
  }
  return domainViewOf(record, deps.domainSettings);
}
