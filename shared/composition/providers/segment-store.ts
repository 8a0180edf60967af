import { DynamoSegmentStore } from '../../adapters/dynamo/segment-store.js';
import type { SegmentRecord } from '../../domain/segments/segment-store.js';
import { provide } from '../container.js';
import { configCacheOf, forgetsConfigAfter } from './config-cache.js';
import { tableOf } from './table.js';

const clientOfSegment = (write: { segment: SegmentRecord }): number => write.segment.client_id;

/**
 * A client's segments. Event processing, the change router and the evaluator read the segment index as client
 * configuration, through the container's cache: the writes that change the index forget the client's cached
 * configuration here.
 */
export const segmentStore = provide('segments', (c) =>
  forgetsConfigAfter(new DynamoSegmentStore(tableOf(c).db, tableOf(c).tableName), configCacheOf(c), {
    create: clientOfSegment,
    update: clientOfSegment,
    delete: (segment: SegmentRecord) => segment.client_id,
  }),
);
