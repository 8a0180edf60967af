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
} as const;
