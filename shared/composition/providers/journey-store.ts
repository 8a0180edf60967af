import { DynamoJourneyStore } from '../../adapters/dynamo/journey-store.js';
import type { JourneyRecord } from '../../domain/journeys/journey-records.js';
import { provide } from '../container.js';
import { configCacheOf, forgetsConfigAfter } from './config-cache.js';
import { tableOf } from './table.js';

const clientOf = (write: { journey: JourneyRecord }): number => write.journey.client_id;

/**
 * A client's journeys. Event processing and the executor read the journey index (and the settings a publish may
 * change) as client configuration, through the container's cache: the writes that change them forget the client's
 * cached configuration here.
 */
export const journeyStore = provide('journeys', (c) =>
  forgetsConfigAfter(new DynamoJourneyStore(tableOf(c).db, tableOf(c).tableName), configCacheOf(c), {
    publish: clientOf,
    changeStatus: clientOf,
  }),
);
