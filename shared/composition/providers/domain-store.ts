import { DynamoDomainStore } from '../../adapters/dynamo/domain-store.js';
import type { DomainRecord } from '../../domain/domains/schemas.js';
import { provide } from '../container.js';
import { configCacheOf, forgetsConfigAfter } from './config-cache.js';
import { tableOf } from './table.js';

const clientOf = (record: DomainRecord): number => record.client_id;

/**
 * A client's sending domains. The sender reads the SENDER item (verified domains, tenant) with the client's
 * configuration (the container's cache): the writes that change it forget the client's cached configuration here.
 */
export const domainStore = provide('domains', (c) =>
  forgetsConfigAfter(new DynamoDomainStore(tableOf(c).db, tableOf(c).tableName), configCacheOf(c), {
    saveIdentity: clientOf,
    markVerified: clientOf,
    delete: clientOf,
  }),
);
