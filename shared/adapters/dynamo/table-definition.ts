/**
 * The one table's physical shape, shared by infra (TableV2) and the local runtime (CreateTable on DynamoDB Local).
 */
export const TABLE_KEYS = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expires_at',
  gsi1: { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
} as const;
