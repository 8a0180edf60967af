import { notFound } from '../../errors.js';
import type { DomainStore } from './domain-store.js';
import { type DomainSettings, domainViewOf } from './domain-view.js';
import type { DomainView } from './schemas.js';

interface ReadDeps {
  domains: DomainStore;
  domainSettings: Pick<DomainSettings, 'region'>;
}

/** GET /client/domains: the client's claims, by id. */
export async function listDomains(deps: ReadDeps, clientId: number): Promise<DomainView[]> {
  return (await deps.domains.list(clientId)).map((record) => domainViewOf(record, deps.domainSettings));
}

/** GET /client/domains/{id}; 404 for a claim the client does not hold (another client's included). */
export async function getDomain(deps: ReadDeps, clientId: number, domainId: number): Promise<DomainView> {
  const record = await deps.domains.get(clientId, domainId);
  if (!record) throw notFound('id', 'Domain not found');
  return domainViewOf(record, deps.domainSettings);
}
