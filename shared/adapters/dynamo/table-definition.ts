/**
 * The one table's physical shape, shared by infra (TableV2) and the local runtime (CreateTable on DynamoDB Local).
 */
export const TABLE_KEYS = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expires_at',
  gsi1: { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  /** A contact's history (events, executions, sent e-mails), keys only: what an erasure must find (keys.contactHistory). */
  gsi2: { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk', projection: 'KEYS_ONLY' },
  /** Executions holding a claim (status 2), sparse, keys only: the stuck-execution sweep's view (keys.executingEntry). */
  gsi3: { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk', projection: 'KEYS_ONLY' },
  /** The change stream the stream functions read (functions/streams.ts): both images, to see what changed. */
  streamViewType: 'NEW_AND_OLD_IMAGES',
} as const;
